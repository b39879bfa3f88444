package mcpservers

import (
	"bytes"
	"context"
	"maps"
	"testing"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/secretbox"
)

// The behaviour the in-memory twin shares (vetting, sealed secrets
// opened for the bridge only, names, changes, settings, each user's
// servers apart) is tested by the tenants' suite
// (server/tenant/tenanttest), on PostgreSQL too. Here is what is this
// store's own, and the Vetter's rules that need a guard or a box of
// their own.

func testVetter(t *testing.T) Vetter {
	t.Helper()
	g, err := netguard.New(netguard.Options{Allow: []string{"mcp.internal"}})
	if err != nil {
		t.Fatal(err)
	}
	box, err := secretbox.New(bytes.Repeat([]byte{9}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return Vetter{Guard: g, Box: box}
}

func testRegistry(t *testing.T, s *testStore) Registry {
	t.Helper()
	v := testVetter(t)
	return Registry{Pool: s.Pool, Guard: v.Guard, Box: v.Box}
}

func ptr[T any](v T) *T { return &v }

func wantCode(t *testing.T, what string, err error, code errcode.Code) {
	t.Helper()
	if errcode.Of(err) != code || err == nil {
		t.Fatalf("%s: %v, want %s", what, err, code)
	}
}

// A secret is sealed in the table, bound to its row: copied into another
// row it does not open, and that server is left out of the bridge's while
// the others still come.
func TestSealedInTheTable(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	reg := testRegistry(t, s)
	ana, _ := s.EnsureUser(ctx, "mcp-sealed")
	crm, err := reg.Create(ctx, ana.ID, Input{Name: "crm", URL: "https://crm.example.com/mcp", AuthType: AuthBearer,
		Secret: ptr("s3cret-token"), Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	wiki, err := reg.Create(ctx, ana.ID, Input{Name: "wiki", URL: "http://mcp.internal/mcp", AuthType: AuthBearer,
		Secret: ptr("wiki-token"), Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	var stored []byte
	if err := s.Pool.QueryRow(ctx, `SELECT secret FROM mcp_servers WHERE id = $1`, crm.ID).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if len(stored) == 0 || bytes.Contains(stored, []byte("s3cret-token")) {
		t.Fatalf("the stored secret is %q", stored)
	}
	if _, err := s.Pool.Exec(ctx, `UPDATE mcp_servers SET secret = (SELECT secret FROM mcp_servers WHERE id = $1) WHERE id = $2`, crm.ID, wiki.ID); err != nil {
		t.Fatal(err)
	}
	if e, err := reg.Enabled(ctx, ana.ID); err != nil || len(e) != 1 || e[0].ID != crm.ID || e[0].Secret != "s3cret-token" {
		t.Fatalf("Enabled after moving a sealed secret = %+v, %v", e, err)
	}
}

// Without a key, servers with secrets cannot be added, others can; a
// server for a user the database does not have is NOT_FOUND.
func TestNoKeyNoUser(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	noKey := testRegistry(t, s)
	noKey.Box = nil
	bob, _ := s.EnsureUser(ctx, "mcp-nokey")
	_, err := noKey.Create(ctx, bob.ID, Input{Name: "k", URL: "https://k.example.com/", AuthType: AuthBearer, Secret: ptr("x")})
	wantCode(t, "a secret with no key", err, errcode.Unavailable)
	if _, err := noKey.Create(ctx, bob.ID, Input{Name: "k", URL: "https://k.example.com/"}); err != nil {
		t.Fatalf("a server without a secret needs no key: %v", err)
	}
	_, err = noKey.Create(ctx, "00000000-0000-0000-0000-000000000000", Input{Name: "x", URL: "https://x.example.com/"})
	wantCode(t, "a server for no user", err, errcode.NotFound)
}

// The operator's allow list lets a URL through the guard; a secret opens
// for its own server only; a Vetter without a guard refuses every URL.
func TestVetter(t *testing.T) {
	v := testVetter(t)
	in, err := v.Check(Input{Name: "internal", URL: "http://mcp.internal:8081/mcp"}, false)
	if err != nil || in.URL != "http://mcp.internal:8081/mcp" {
		t.Fatalf("a host on the allow list: %+v, %v", in, err)
	}
	_, err = v.Check(Input{Name: "private", URL: "http://10.0.0.1/mcp"}, false)
	wantCode(t, "a private address", err, errcode.BadRequest)
	if _, err := (Vetter{}).Check(Input{Name: "x", URL: "https://x.example.com/"}, false); err == nil {
		t.Error("a Vetter without a guard took a URL")
	}
	sealed, err := v.Secret("a", Input{AuthType: AuthBearer, Secret: ptr("tok")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := v.Open("a", sealed); err != nil || got != "tok" {
		t.Errorf("opened %q, %v", got, err)
	}
	if _, err := v.Open("b", sealed); err == nil {
		t.Error("a secret opened for another server")
	}
	if kept, _ := v.Secret("a", Input{AuthType: AuthBearer}, sealed); !bytes.Equal(kept, sealed) {
		t.Error("a change without a secret did not keep the stored one")
	}
	if none, _ := v.Secret("a", Input{AuthType: AuthNone}, sealed); none != nil {
		t.Error("auth type none kept a secret")
	}
}

func TestHeaders(t *testing.T) {
	for _, tt := range []struct {
		m    WithSecret
		want map[string]string
	}{
		{WithSecret{Server: Server{AuthType: AuthBearer}, Secret: "t"}, map[string]string{"Authorization": "Bearer t"}},
		{WithSecret{Server: Server{AuthType: AuthHeader, AuthHeader: "X-API-Key"}, Secret: "k"}, map[string]string{"X-API-Key": "k"}},
		{WithSecret{Server: Server{AuthType: AuthNone}}, nil},
		{WithSecret{Server: Server{AuthType: AuthBearer}}, nil},
	} {
		if got := tt.m.Headers(); !maps.Equal(got, tt.want) {
			t.Errorf("Headers(%+v) = %v, want %v", tt.m, got, tt.want)
		}
	}
}
