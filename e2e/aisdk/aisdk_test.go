// Package aisdk reads tripgraph's POST /api/chat with the AI SDK's own chat
// transport and UI message stream reader, against a `tripgraph serve` the
// test starts. It needs node and npm; the npm packages are installed from
// package-lock.json on first use.
package aisdk

import (
	"bytes"
	"context"
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

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "aisdk", &testURL)) }

func TestChatWithTheAISDK(t *testing.T) {
	npmtest.Install(t, ".")
	key := prepare(t, context.Background())
	addr := freeAddr(t)
	serve(t, addr)
	cmd := exec.Command("node", "chat.mjs")
	cmd.Env = append(os.Environ(), "TRIPGRAPH_URL=http://"+addr, "TRIPGRAPH_API_KEY="+key)
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("the AI SDK script failed (%v):\n%s", err, out)
	}
}

// prepare migrates the database, seeds a small catalog (so that serve does
// not seed its own) and makes a user with a key.
func prepare(t *testing.T, ctx context.Context) string {
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
	u, err := st.EnsureUser(ctx, "chat-traveller")
	if err != nil {
		t.Fatal(err)
	}
	key, err := st.CreateAPIKey(ctx, u.ID, "ai sdk test")
	if err != nil {
		t.Fatal(err)
	}
	return key
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
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if resp, err := http.Get("http://" + addr + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("serve on %s was not ready within a minute", addr)
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
