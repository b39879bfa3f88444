// Package langgraphsdk drives tripgraph's REST API with the official
// LangGraph JavaScript client, against a `tripgraph serve` the test starts.
// It needs node and npm; the npm packages are installed from
// package-lock.json on first use.
package langgraphsdk

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/internal/npmtest"

	"github.com/tripgraph/tripgraph/internal/pgtest"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/store"
)

var testURL string

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "langgraphsdk", &testURL)) }

func TestOfficialClient(t *testing.T) {
	ctx := context.Background()
	npmtest.Install(t, ".")
	key, otherKey := prepare(t, ctx)
	addr := freeAddr(t)
	serve(t, addr)

	t.Run("mounted routes keep their handlers", func(t *testing.T) { mountedRoutes(t, addr, key) })

	cmd := exec.Command("node", "client.mjs")
	cmd.Env = append(os.Environ(), "TRIPGRAPH_URL=http://"+addr, "TRIPGRAPH_API_KEY="+key, "TRIPGRAPH_OTHER_KEY="+otherKey)
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("the LangGraph client script failed (%v):\n%s", err, out)
	}
}

// prepare migrates the database, seeds a small catalog (so that serve does
// not seed its own) and makes two users with a key each.
func prepare(t *testing.T, ctx context.Context) (string, string) {
	t.Helper()
	if err := migrations.Up(ctx, testURL); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, testURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cities := []seed.City{{Name: "Lisbon", GeoName: "Lisboa", Country: "PT", Population: 550_000, Lat: 38.72, Lng: -9.14}}
	if err := seed.Run(ctx, st, seed.Options{Cities: cities}); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, name := range []string{"sdk-traveller", "sdk-other"} {
		u, err := st.EnsureUser(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		k, err := st.CreateAPIKey(ctx, u.ID, "sdk test")
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	return keys[0], keys[1]
}

// serve builds tripgraph and runs `serve` on addr until the test ends.
func serve(t *testing.T, addr string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tripgraph")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/tripgraph/tripgraph/cmd/tripgraph").CombinedOutput(); err != nil {
		t.Fatalf("building tripgraph: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "serve", "--addr", addr)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+testURL, "TRIPGRAPH_MEDIA_ROOT="+t.TempDir(), "MCP_SECRET=", "TRIPGRAPH_MODEL=")
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("serve log:\n%s", log.String())
		}
	})
	waitReady(t, addr)
}

// freeAddr returns a loopback address with a port nothing listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// waitReady waits until /readyz answers 200, for at most a minute.
func waitReady(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		resp, err := http.Get("http://" + addr + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("serve on %s was not ready within a minute", addr)
}

// mountedRoutes checks that /mcp and /media, served through the API's
// router, still answer with their own handlers: their own auth challenge,
// their own error bodies, an MCP session for an API key.
func mountedRoutes(t *testing.T, addr, key string) {
	base := "http://" + addr
	cases := []struct {
		name, method, path, auth, body string
		want                           int
		wantHeader, wantBody           string
	}{
		{"mcp without a credential", "POST", "/mcp", "", `{}`, http.StatusUnauthorized, `Bearer realm="tripgraph-mcp"`, ""},
		{"mcp initialize with an API key", "POST", "/mcp", key,
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
			http.StatusOK, "", `"serverInfo"`},
		{"media photo unknown", "GET", "/media/photos/0198a5c4-0000-7000-8000-000000000000", "", "", http.StatusNotFound, "", `"error":{"code":"NOT_FOUND"`},
		{"media picture unknown kind", "GET", "/media/pictures/nothing/x.png", "", "", http.StatusNotFound, "", `"error":{"code"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
			if c.body != "" {
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
			}
			if c.auth != "" {
				req.Header.Set("Authorization", "Bearer "+c.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != c.want {
				t.Fatalf("status %d %s, want %d", resp.StatusCode, body, c.want)
			}
			if c.wantHeader != "" && resp.Header.Get("WWW-Authenticate") != c.wantHeader {
				t.Errorf("WWW-Authenticate %q, want %q", resp.Header.Get("WWW-Authenticate"), c.wantHeader)
			}
			if !strings.Contains(string(body), c.wantBody) {
				t.Errorf("body %s lacks %s", body, c.wantBody)
			}
			if resp.Header.Get("X-Request-Id") == "" {
				t.Error("no request id on a mounted route")
			}
		})
	}
}
