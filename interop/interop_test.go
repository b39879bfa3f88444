// Package interop checks tripgraph's MCP server and bridge against the
// official MCP tooling: the conformance suite's server and client
// scenarios, the TypeScript SDK's client and the reference server
// (server-everything), over Streamable HTTP and stdio. It needs node and
// npm; the npm packages are installed from package-lock.json on first use.
package interop

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/testing/servetest"

	"github.com/tripgraph/tripgraph/testing/npmtest"

	"github.com/tripgraph/tripgraph/testing/pgtest"
)

var testURL string

func TestMain(m *testing.M) {
	os.Exit(pgtest.Run(m, "interop", &testURL))
}

// conformanceScenarios are the conformance suite's server scenarios the
// server must pass.
var conformanceScenarios = []string{"server-initialize", "ping", "tools-list", "dns-rebinding-protection"}

func TestInterop(t *testing.T) {
	pgtest.Skip(t)
	npmtest.Install(t, ".")
	servetest.Prepare(t, testURL)
	bin := servetest.Build(t)
	env := append(os.Environ(), "DATABASE_URL="+testURL, "TRIPGRAPH_MEDIA_ROOT="+t.TempDir(), "MCP_SECRET=")

	addr := servetest.FreeAddr(t)
	server := exec.Command(bin, "mcp", "--transport", "http", "--addr", addr, "--auth", "none", "--user", "demo")
	server.Env = env
	var serverLog bytes.Buffer
	server.Stdout, server.Stderr = &serverLog, &serverLog
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		server.Process.Kill()
		server.Wait()
		if t.Failed() {
			t.Logf("server log:\n%s", serverLog.String())
		}
	})
	waitListening(t, addr)
	url := "http://" + addr + "/mcp"

	for _, scenario := range conformanceScenarios {
		t.Run("conformance/"+scenario, func(t *testing.T) {
			out, err := npx(env, "conformance", "server", "--url", url, "--scenario", scenario)
			if err != nil || !strings.Contains(out, " 0 failed") {
				t.Fatalf("conformance scenario %s failed (%v):\n%s", scenario, err, out)
			}
		})
	}
	t.Run("inspector/strict-schemas", func(t *testing.T) {
		out, err := npx(env, "mcp-inspector", "--cli", "--transport", "http", "--server-url", url, "--method", "tools/list", "--strict")
		if err != nil || !strings.Contains(out, `"getUserAlbums"`) || strings.Contains(out, "Warning") || strings.Contains(out, "Error") {
			t.Fatalf("the Inspector's --strict schema check failed (%v):\n%s", err, out)
		}
	})
	t.Run("stdio/replies-before-exit", func(t *testing.T) {
		stdioRepliesBeforeExit(t, env, bin)
	})
	t.Run("typescript-sdk/http", func(t *testing.T) {
		if out, err := node(env, "client.mjs", "http", url); err != nil {
			t.Fatalf("the TypeScript SDK client failed over HTTP (%v):\n%s", err, out)
		}
	})
	t.Run("typescript-sdk/stdio", func(t *testing.T) {
		if out, err := node(env, "client.mjs", "stdio", bin, "mcp", "--transport", "stdio", "--user", "demo"); err != nil {
			t.Fatalf("the TypeScript SDK client failed over stdio (%v):\n%s", err, out)
		}
	})
}

// stdioRepliesBeforeExit pipes three requests into tripgraph mcp over
// stdio and closes its input at once, 20 times: every run must answer all
// three before the process exits.
func stdioRepliesBeforeExit(t *testing.T, env []string, bin string) {
	input := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"getUserAlbums","arguments":{}}}
{"jsonrpc":"2.0","id":3,"method":"ping"}
`
	for run := range 20 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, bin, "mcp", "--transport", "stdio", "--user", "demo")
		cmd.Env, cmd.Stdin = env, strings.NewReader(input)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Fatalf("run %d: %v\n%s", run, err, stderr.String())
		}
		if n := strings.Count(string(out), "\n"); n != 3 {
			t.Fatalf("run %d: %d replies, want 3:\n%s", run, n, out)
		}
	}
}

// waitListening waits until something accepts connections on addr.
func waitListening(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server never listened on %s: %v", addr, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func npx(env []string, args ...string) (string, error) {
	return run(env, "npx", append([]string{"--no-install"}, args...)...)
}

func node(env []string, args ...string) (string, error) { return run(env, "node", args...) }

func run(env []string, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return string(out), nil
}
