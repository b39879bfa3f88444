// Package langgraphsdk drives tripgraph's REST API with the official
// LangGraph JavaScript client, against a `tripgraph serve` the test starts:
// threads, state and runs (client.mjs), the long-term store and crons
// (memory.mjs).
// It needs node and npm; the npm packages are installed from
// package-lock.json on first use.
package langgraphsdk

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/testing/servetest"

	"github.com/tripgraph/tripgraph/testing/npmtest"

	"github.com/tripgraph/tripgraph/testing/pgtest"
)

var testURL string

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "langgraphsdk", &testURL)) }

func TestOfficialClient(t *testing.T) {
	pgtest.Skip(t)
	npmtest.Install(t, ".")
	keys := servetest.Prepare(t, testURL, "sdk-traveller", "sdk-other", "compat-traveller", "compat-other", "memory-traveller", "memory-other")
	addr := servetest.FreeAddr(t)
	// The scripts send requests as fast as they can, streams among them,
	// which the client does not send again after a 429.
	servetest.Serve(t, servetest.Build(t), addr, testURL, "TRIPGRAPH_RATE_LIMIT=1000", "TRIPGRAPH_RATE_BURST=1000")

	t.Run("mounted routes keep their handlers", func(t *testing.T) { mountedRoutes(t, addr, keys[0]) })
	// client.mjs drives the API as a trip planner's client would;
	// compat.mjs checks what LangGraph's own clients and test suite rely
	// on; memory.mjs, the long-term store and crons. Each acts as users of
	// its own: they count what their users have.
	for i, script := range []string{"client.mjs", "compat.mjs", "memory.mjs"} {
		t.Run(script, func(t *testing.T) {
			cmd := exec.Command("node", script)
			cmd.Env = append(os.Environ(), "TRIPGRAPH_URL=http://"+addr, "TRIPGRAPH_API_KEY="+keys[2*i], "TRIPGRAPH_OTHER_KEY="+keys[2*i+1])
			out, err := cmd.CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != "ok" {
				t.Fatalf("%s failed (%v):\n%s", script, err, out)
			}
		})
	}
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
