package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/secretbox"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/mcpservers"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// userMCPServer is a loopback MCP server, over both HTTP transports, that
// wants "Authorization: Bearer tok" and counts the requests it gets.
func userMCPServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "crm", Version: "1"}, nil)
	for _, name := range []string{"search_contacts", "get_deal", "dump"} {
		srv.AddTool(&mcp.Tool{Name: name, Description: "The " + name + " tool.\nMore text.", InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
	}
	get := func(*http.Request) *mcp.Server { return srv }
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(get, nil))
	mux.Handle("/sse", mcp.NewSSEHandler(get, nil))
	var hits atomic.Int64
	h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.Header.Get("Authorization") != "Bearer tok" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(h.Close)
	return h, &hits
}

func TestServersCommand(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	st := storetest.Open(t, "cmd")
	if _, err := st.Accounts.EnsureUser(ctx, "ana"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Accounts.EnsureUser(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	mcpSrv, hits := userMCPServer(t)
	allowing, err := netguard.New(netguard.Options{Allow: []string{"127.0.0.1"}}) // the operator's allow-list
	if err != nil {
		t.Fatal(err)
	}
	box, err := secretbox.New(bytes.Repeat([]byte{3}, 32))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CRM_TOKEN", "tok")
	run := func(guard *netguard.Guard, stdin string, args ...string) (string, error) {
		var out bytes.Buffer
		env := serversEnv{users: st.Accounts, reg: mcpservers.Registry{Pool: st.Pool, Guard: guard, Box: box}, out: &out, stdin: strings.NewReader(stdin)}
		err := env.run(ctx, args)
		return out.String(), err
	}
	must := func(args ...string) string {
		t.Helper()
		out, err := run(allowing, "", args...)
		if err != nil {
			t.Fatalf("servers %s: %v", strings.Join(args, " "), err)
		}
		return out
	}

	must("add", "--user", "ana", "--name", "crm", "--url", mcpSrv.URL+"/mcp", "--auth", "bearer", "--secret-env", "CRM_TOKEN",
		"--tools", "search_contacts,get_deal")
	if _, err := run(allowing, "tok\n", "add", "--user", "ana", "--name", "crm-sse", "--url", mcpSrv.URL+"/sse",
		"--transport", "sse", "--auth", "bearer", "--secret-stdin"); err != nil {
		t.Fatal(err)
	}
	must("add", "--user", "ana", "--name", "off", "--url", "https://off.example.com/mcp", "--disabled")

	list := must("list", "--user", "ana")
	for _, want := range []string{"enrichment: off", "crm ", "bearer (secret set)", "search_contacts,get_deal", "crm-sse", "sse", "false"} {
		if !strings.Contains(list, want) {
			t.Errorf("list lacks %q:\n%s", want, list)
		}
	}
	if strings.Contains(list, "tok") {
		t.Fatalf("list shows the secret:\n%s", list)
	}
	if out := must("list", "--user", "bob"); strings.Contains(out, "crm") {
		t.Fatalf("bob sees ana's servers:\n%s", out)
	}

	// tools: over both transports, with the credential, through the guard.
	for _, server := range []string{"crm", "crm-sse"} {
		out := must("tools", "--user", "ana", server)
		for _, want := range []string{"search_contacts", "get_deal", "dump", "The dump tool."} {
			if !strings.Contains(out, want) {
				t.Errorf("tools of %s lack %q:\n%s", server, want, out)
			}
		}
		if strings.Contains(out, "More text") {
			t.Errorf("tools of %s show more than a description's first line:\n%s", server, out)
		}
		seen := map[string]string{}
		for _, line := range strings.Split(out, "\n")[1:] {
			if f := strings.Fields(line); len(f) >= 2 {
				seen[f[0]] = f[1]
			}
		}
		wantSeen := map[string]string{"search_contacts": "true", "get_deal": "true", "dump": "false"}
		if server == "crm-sse" {
			wantSeen["dump"] = "true" // no allow-list: every tool
		}
		for tool, want := range wantSeen {
			if seen[tool] != want {
				t.Errorf("%s/%s: model sees it = %q, want %s", server, tool, seen[tool], want)
			}
		}
	}

	// Without the operator's allow-list the guard refuses the loopback
	// server before sending it anything.
	strict, _ := netguard.New(netguard.Options{})
	hits.Store(0)
	if _, err := run(strict, "", "tools", "--user", "ana", "crm"); !errors.Is(err, netguard.ErrBlocked) {
		t.Fatalf("tools without the allow-list: %v, want ErrBlocked", err)
	}
	if hits.Load() != 0 {
		t.Fatalf("the refused server got %d requests", hits.Load())
	}

	// Refusals: a stdio command, a private URL, a secret on no key, a
	// second server of the same name, another user's server.
	refusals := []struct {
		args []string
		code errcode.Code
	}{
		{[]string{"add", "--user", "ana", "--name", "sh", "--url", "file:///bin/sh", "--transport", "stdio"}, errcode.BadRequest},
		{[]string{"add", "--user", "ana", "--name", "meta", "--url", "http://169.254.169.254/latest/meta-data/"}, errcode.BadRequest},
		{[]string{"add", "--user", "ana", "--name", "crm", "--url", "https://crm.example.com/mcp"}, errcode.Conflict},
		{[]string{"remove", "--user", "bob", "crm"}, errcode.NotFound},
		{[]string{"tools", "--user", "bob", "crm"}, errcode.NotFound},
		{[]string{"list", "--user", "nobody"}, errcode.NotFound},
	}
	for _, r := range refusals {
		if _, err := run(strict, "", r.args...); errcode.Of(err) != r.code || err == nil {
			t.Errorf("servers %s: %v, want %s", strings.Join(r.args, " "), err, r.code)
		}
	}
	var noBox bytes.Buffer
	env := serversEnv{users: st.Accounts, reg: mcpservers.Registry{Pool: st.Pool, Guard: allowing}, out: &noBox}
	if err := env.run(ctx, []string{"add", "--user", "ana", "--name", "k", "--url", "https://k.example.com/", "--auth", "bearer", "--secret-env", "CRM_TOKEN"}); err == nil ||
		!strings.Contains(err.Error(), "TRIPGRAPH_SECRET_KEY") {
		t.Fatalf("a secret with no key: %v, want a hint to set %s", err, "TRIPGRAPH_SECRET_KEY")
	}

	// enrich turns the setting on, for all or named servers, and off.
	if out := must("enrich", "--user", "ana", "--only", "crm-sse", "on"); !strings.Contains(out, "on, crm-sse") {
		t.Fatalf("enrich on: %s", out)
	}
	if out := must("list", "--user", "ana"); !strings.Contains(out, "enrichment: on, crm-sse") {
		t.Fatalf("list after enrich:\n%s", out)
	}
	if out := must("enrich", "--user", "ana", "on"); !strings.Contains(out, "on, every enabled server") {
		t.Fatalf("enrich on for all: %s", out)
	}
	must("enrich", "--user", "ana", "off")
	if s, _ := (mcpservers.Registry{Pool: st.Pool}).Settings(ctx, mustUserID(t, st, "ana")); s.ToolMCP {
		t.Fatal("enrich off left it on")
	}

	must("remove", "--user", "ana", "crm")
	if out := must("list", "--user", "ana"); strings.Contains(out, "crm ") {
		t.Fatalf("crm is still listed after remove:\n%s", out)
	}
}

func mustUserID(t *testing.T, st *store.Store, name string) string {
	t.Helper()
	u, err := st.Accounts.UserByName(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

type recordingTransport struct{ got map[string]string }

func (r recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r.got[req.URL.Host] = req.Header.Get("X-API-Key")
	return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Request: req}, nil
}

// A server's credential goes to its own host only, not to where a redirect
// or an SSE endpoint event points.
func TestServerCredentialStaysWithItsHost(t *testing.T) {
	rec := recordingTransport{got: map[string]string{}}
	c := &http.Client{Transport: serverCredential{base: rec, host: "crm.example.com", headers: map[string]string{"X-API-Key": "k"}}}
	for _, u := range []string{"https://crm.example.com/mcp", "https://CRM.example.com/other", "https://evil.example.net/steal", "https://crm.example.com:8443/mcp"} {
		resp, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	want := map[string]string{"crm.example.com": "k", "CRM.example.com": "k", "evil.example.net": "", "crm.example.com:8443": ""}
	for host, v := range want {
		if rec.got[host] != v {
			t.Errorf("request to %s carried %q, want %q", host, rec.got[host], v)
		}
	}
}
