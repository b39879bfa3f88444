package mcpbridge

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/media"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// ours is tripgraph's own MCP server on a seeded database, over Streamable
// HTTP with bearer authentication on loopback, and in process.
type ours struct {
	demo, bob string // user ids
	http      ServerConfig
	memory    ServerConfig
}

var (
	oursOnce sync.Once
	oursVal  *ours
	oursErr  error
	oursStop func() // stops the server and drops its database; TestMain calls it
)

// ourServer seeds a fresh database once per test binary and serves the
// tools on it.
func ourServer(tb testing.TB) *ours {
	tb.Helper()
	oursOnce.Do(func() { oursVal, oursErr = startOurs() })
	if oursErr != nil {
		tb.Fatal(oursErr)
	}
	return oursVal
}

func startOurs() (*ours, error) {
	ctx := context.Background()
	url, drop, err := pgtest.NewDatabase(ctx, "mcpbridge")
	if err != nil {
		return nil, err
	}
	oursStop = drop
	if err := migrations.Up(ctx, url); err != nil {
		return nil, err
	}
	st, err := store.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	oursStop = func() { st.Close(); drop() }
	cities := []seed.City{{Name: "Lisbon", GeoName: "Lisboa", Country: "PT", Population: 550_000, Lat: 38.72, Lng: -9.14}}
	if err := seed.Run(ctx, st, seed.Options{Cities: cities, DemoUser: "demo"}); err != nil {
		return nil, err
	}
	demo, err := st.Accounts.UserByName(ctx, "demo")
	if err != nil {
		return nil, err
	}
	bob, err := st.Accounts.EnsureUser(ctx, "bob")
	if err != nil {
		return nil, err
	}
	cfg := mcpserver.Config{Backend: st.Catalog, URLs: media.URLs{Base: "http://127.0.0.1:1", Secret: testSecret, TTL: time.Hour}}
	h := mcpserver.NewHTTPHandler(mcpserver.New(cfg), mcpserver.HTTPOptions{Authenticate: mcpserver.Authenticator(st.Accounts, testSecret)})
	srv := httptest.NewServer(h)
	oursStop = func() { srv.Close(); st.Close(); drop() }
	o := &ours{demo: demo.ID, bob: bob.ID}
	o.http = ServerConfig{Name: "tripgraph", Transport: Streamable, URL: srv.URL, Enabled: true, Builtin: true}
	o.memory = ServerConfig{Name: "tripgraph", Transport: Memory, Enabled: true, Builtin: true, NewServer: func(user string) *mcp.Server {
		c := cfg
		c.User = user
		return mcpserver.New(c)
	}}
	return o, nil
}

type albumList struct {
	Albums []struct {
		ID string `json:"id"`
	} `json:"albums"`
}

// On tripgraph's own server a model-supplied userId never picks the user:
// the demo user naming bob still sees the demo albums, bob naming the demo
// user sees none of them. Over HTTP the identity travels as a minted token;
// without the secret the server refuses the bridge.
func TestOurServerIdentity(t *testing.T) {
	o := ourServer(t)
	for _, cfg := range []ServerConfig{o.http, o.memory} {
		t.Run(string(cfg.Transport), func(t *testing.T) {
			b := newBridge(t, Options{Servers: []ServerConfig{cfg}, Secret: testSecret})
			albums := func(as, claimed string) int {
				t.Helper()
				res, err := b.For(User{ID: as}).Call(context.Background(), "getUserAlbums", json.RawMessage(`{"userId":"`+claimed+`"}`))
				if err != nil {
					t.Fatalf("getUserAlbums as %s claiming %s: %v", as, claimed, err)
				}
				var l albumList
				if err := json.Unmarshal(res.Full, &l); err != nil {
					t.Fatal(err)
				}
				return len(l.Albums)
			}
			if n := albums(o.demo, o.bob); n == 0 {
				t.Error("the demo user claiming to be bob saw no albums")
			}
			if n := albums(o.bob, o.demo); n != 0 {
				t.Errorf("bob claiming to be the demo user saw %d albums", n)
			}
		})
	}
	t.Run("no secret", func(t *testing.T) {
		b := newBridge(t, Options{Servers: []ServerConfig{o.http}})
		if _, err := b.For(User{ID: o.demo}).List(context.Background()); errcode.Of(err) != errcode.Unavailable {
			t.Fatalf("error = %v, want UNAVAILABLE", err)
		}
	})
}
