package tenanttest

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store/mcpservers"
)

// testServers is the MCP servers users add: vetted by the SSRF guard and
// the config's rules, their secrets sealed and opened for the bridge only,
// named once per user, changed, deleted, each user's apart; and the
// enrichment settings that name them. The backend's guard has no allow
// list, and its box a key.
func testServers(t *testing.T, b Backend) {
	subtests(t, b, []subtest{
		{"secrets", serversSecrets},
		{"vetting", serversVetting},
		{"names", serversNames},
		{"modify", serversModify},
		{"owner rule", serversOwnerRule},
		{"settings", serversSettings},
	})
}

// newServer adds a server of the user's.
func newServer(t *testing.T, r tenant.Records, in mcpservers.Input) mcpservers.Server {
	t.Helper()
	m, err := r.Servers.Create(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// replace is a Modify's change that replaces the config with in.
func replace(in mcpservers.Input) func(mcpservers.Server) mcpservers.Input {
	return func(mcpservers.Server) mcpservers.Input { return in }
}

// A server's secret is sealed: it is never listed nor read back, only
// whether there is one; the bridge gets it, opened, for the enabled
// servers only. A change without a secret keeps it, one with a secret
// replaces it, auth type none drops it.
func serversSecrets(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t))
	crm := newServer(t, mine, mcpservers.Input{Name: "crm", URL: "https://crm.example.com/mcp", Transport: mcpservers.TransportSSE,
		AuthType: mcpservers.AuthBearer, Secret: ptr("s3cret-token"), Enabled: true,
		AllowedTools: []string{"search_contacts", "get_deal", "search_contacts"}, TimeoutMS: 5000})
	if !crm.HasSecret || crm.Transport != mcpservers.TransportSSE || crm.TimeoutMS != 5000 || !crm.Enabled ||
		strings.Join(crm.AllowedTools, ",") != "search_contacts,get_deal" || crm.URL != "https://crm.example.com/mcp" {
		t.Fatalf("created %+v", crm)
	}
	wiki := newServer(t, mine, mcpservers.Input{Name: "wiki", URL: "https://wiki.example.com/mcp"})
	if wiki.Transport != mcpservers.TransportStreamableHTTP || wiki.AuthType != mcpservers.AuthNone || wiki.TimeoutMS != 10000 ||
		wiki.HasSecret || wiki.Enabled || wiki.AllowedTools == nil || len(wiki.AllowedTools) != 0 {
		t.Fatalf("defaults not filled in: %+v", wiki)
	}
	list, err := mine.Servers.List(ctx)
	if err != nil || len(list) != 2 || list[0].ID != crm.ID || list[1].ID != wiki.ID {
		t.Fatalf("List = %+v, %v", list, err)
	}
	got, _ := mine.Servers.Get(ctx, crm.ID)
	for what, v := range map[string]any{"the list": list, "a read": got, "the created server": crm} {
		if shown, _ := json.Marshal(v); bytes.Contains(shown, []byte("s3cret")) {
			t.Errorf("%s shows the secret: %s", what, shown)
		}
	}
	enabled, err := mine.Servers.Enabled(ctx)
	if err != nil || len(enabled) != 1 || enabled[0].ID != crm.ID || enabled[0].Secret != "s3cret-token" {
		t.Fatalf("Enabled = %+v, %v", enabled, err)
	}
	if h := enabled[0].Headers(); len(h) != 1 || h["Authorization"] != "Bearer s3cret-token" {
		t.Errorf("the bridge's headers: %v", h)
	}

	keyed := mcpservers.Input{Name: "crm", URL: "https://crm.example.com/v2", AuthType: mcpservers.AuthHeader, AuthHeader: "X-API-Key", Enabled: true}
	if got, err := mine.Servers.Modify(ctx, crm.ID, replace(keyed)); err != nil || !got.HasSecret || got.AuthHeader != "X-API-Key" {
		t.Fatalf("a change without a secret: %+v, %v", got, err)
	}
	if e, _ := mine.Servers.Enabled(ctx); len(e) != 1 || e[0].Secret != "s3cret-token" || e[0].Headers()["X-API-Key"] != "s3cret-token" {
		t.Fatalf("the secret was not kept: %+v", e)
	}
	keyed.Secret = ptr("n3w")
	if _, err := mine.Servers.Modify(ctx, crm.ID, replace(keyed)); err != nil {
		t.Fatal(err)
	}
	if e, _ := mine.Servers.Enabled(ctx); len(e) != 1 || e[0].Secret != "n3w" {
		t.Fatalf("the secret was not replaced: %+v", e)
	}
	if got, err := mine.Servers.Modify(ctx, crm.ID, replace(mcpservers.Input{Name: "crm", URL: "https://crm.example.com/v2", Enabled: true})); err != nil || got.HasSecret {
		t.Fatalf("auth type none kept a secret: %+v, %v", got, err)
	}
	if e, _ := mine.Servers.Enabled(ctx); len(e) != 1 || e[0].Secret != "" || e[0].Headers() != nil {
		t.Fatalf("a server without a secret reaches the bridge as %+v", e)
	}
	_, err = mine.Servers.Modify(ctx, crm.ID, replace(mcpservers.Input{Name: "crm", URL: "https://crm.example.com/v2", AuthType: mcpservers.AuthBearer}))
	wantCode(t, "bearer with no secret stored or given", err, errcode.BadRequest)
}

// A config the rules refuse, or a URL the SSRF guard refuses (private,
// loopback, link-local, cloud metadata), is a BAD_REQUEST that shows no
// internals, and nothing is stored.
func serversVetting(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t))
	valid := func(edit func(*mcpservers.Input)) mcpservers.Input {
		in := mcpservers.Input{Name: "ok", URL: "https://mcp.example.com/mcp", Enabled: true}
		edit(&in)
		return in
	}
	for _, tt := range []struct {
		name string
		in   mcpservers.Input
	}{
		{"stdio transport", valid(func(in *mcpservers.Input) { in.Transport = "stdio" })},
		{"a command", valid(func(in *mcpservers.Input) { in.Transport = "command"; in.URL = "/usr/bin/server" })},
		{"unknown transport", valid(func(in *mcpservers.Input) { in.Transport = "websocket" })},
		{"no URL", valid(func(in *mcpservers.Input) { in.URL = "" })},
		{"not a URL", valid(func(in *mcpservers.Input) { in.URL = "mcp.example.com/mcp" })},
		{"ftp", valid(func(in *mcpservers.Input) { in.URL = "ftp://mcp.example.com/" })},
		{"no host", valid(func(in *mcpservers.Input) { in.URL = "https:///mcp" })},
		{"credentials in the URL", valid(func(in *mcpservers.Input) { in.URL = "https://u:p@mcp.example.com/" })},
		{"a fragment", valid(func(in *mcpservers.Input) { in.URL = "https://mcp.example.com/mcp#x" })},
		{"a long URL", valid(func(in *mcpservers.Input) { in.URL = "https://mcp.example.com/" + strings.Repeat("a", 2048) })},
		{"cloud metadata", valid(func(in *mcpservers.Input) { in.URL = "http://169.254.169.254/latest/meta-data/" })},
		{"a private address", valid(func(in *mcpservers.Input) { in.URL = "http://10.0.0.1/mcp" })},
		{"loopback", valid(func(in *mcpservers.Input) { in.URL = "http://127.0.0.1:8081/mcp" })},
		{"IPv6 loopback", valid(func(in *mcpservers.Input) { in.URL = "http://[::1]/mcp" })},
		{"a mapped loopback", valid(func(in *mcpservers.Input) { in.URL = "http://[::ffff:127.0.0.1]/mcp" })},
		{"localhost", valid(func(in *mcpservers.Input) { in.URL = "http://localhost:8081/mcp" })},
		{"no name", valid(func(in *mcpservers.Input) { in.Name = "" })},
		{"a name with spaces", valid(func(in *mcpservers.Input) { in.Name = "My CRM" })},
		{"a long name", valid(func(in *mcpservers.Input) { in.Name = strings.Repeat("n", 41) })},
		{"unknown auth", valid(func(in *mcpservers.Input) { in.AuthType = "oauth"; in.Secret = ptr("x") })},
		{"bearer without secret", valid(func(in *mcpservers.Input) { in.AuthType = mcpservers.AuthBearer })},
		{"secret without auth", valid(func(in *mcpservers.Input) { in.Secret = ptr("x") })},
		{"empty secret", valid(func(in *mcpservers.Input) { in.AuthType = mcpservers.AuthBearer; in.Secret = ptr("") })},
		{"secret with a newline", valid(func(in *mcpservers.Input) {
			in.AuthType = mcpservers.AuthBearer
			in.Secret = ptr("a\r\nX-Evil: 1")
		})},
		{"header auth without header", valid(func(in *mcpservers.Input) { in.AuthType = mcpservers.AuthHeader; in.Secret = ptr("x") })},
		{"header auth on Host", valid(func(in *mcpservers.Input) {
			in.AuthType, in.AuthHeader, in.Secret = mcpservers.AuthHeader, "Host", ptr("x")
		})},
		{"header auth on the session id", valid(func(in *mcpservers.Input) {
			in.AuthType, in.AuthHeader, in.Secret = mcpservers.AuthHeader, "mcp-session-id", ptr("x")
		})},
		{"a header name with bearer", valid(func(in *mcpservers.Input) {
			in.AuthType, in.AuthHeader, in.Secret = mcpservers.AuthBearer, "X-Key", ptr("x")
		})},
		{"a bad tool name", valid(func(in *mcpservers.Input) { in.AllowedTools = []string{"drop table"} })},
		{"too many tools", valid(func(in *mcpservers.Input) {
			for i := range 101 {
				in.AllowedTools = append(in.AllowedTools, "t"+strings.Repeat("x", i))
			}
		})},
		{"a short timeout", valid(func(in *mcpservers.Input) { in.TimeoutMS = 50 })},
		{"a long timeout", valid(func(in *mcpservers.Input) { in.TimeoutMS = 120_001 })},
	} {
		_, err := mine.Servers.Create(ctx, tt.in)
		if wantCode(t, tt.name, err, errcode.BadRequest) {
			if msg := errcode.Message(err); strings.Contains(msg, "pgx") || strings.Contains(msg, "SQL") {
				t.Errorf("%s: the message shows internals: %q", tt.name, msg)
			}
		}
	}
	if l, _ := mine.Servers.List(ctx); len(l) != 0 {
		t.Fatalf("refused configs were stored: %+v", l)
	}
	for _, in := range []mcpservers.Input{
		valid(func(in *mcpservers.Input) {}),
		valid(func(in *mcpservers.Input) {
			in.Name, in.AuthType, in.AuthHeader, in.Secret, in.TimeoutMS = "keyed", mcpservers.AuthHeader, "X-API-Key", ptr("k"), 120_000
		}),
		valid(func(in *mcpservers.Input) { in.Name = "public-ip"; in.URL = "http://93.184.215.14:8080/mcp" }),
	} {
		if _, err := mine.Servers.Create(ctx, in); err != nil {
			t.Errorf("Create(%+v) = %v", in, err)
		}
	}
	m, err := mine.Servers.Create(ctx, valid(func(in *mcpservers.Input) { in.Name = " upper "; in.URL = " HTTPS://MCP.example.com/Path?q=1 " }))
	if err != nil || m.URL != "https://MCP.example.com/Path?q=1" || m.Name != "upper" {
		t.Fatalf("an upper-case scheme: %+v, %v; want it stored in lower case, the name trimmed", m, err)
	}
}

// A user's servers have names of their own: a name taken, by creation or
// by a change, is a CONFLICT; another user may take it.
func serversNames(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, theirs, _, _ := two(t, b)
	newServer(t, mine, mcpservers.Input{Name: "crm", URL: "https://crm.example.com/mcp"})
	wiki := newServer(t, mine, mcpservers.Input{Name: "wiki", URL: "https://wiki.example.com/mcp"})
	_, err := mine.Servers.Create(ctx, mcpservers.Input{Name: "crm", URL: "https://other.example.com/"})
	wantCode(t, "a second crm", err, errcode.Conflict)
	_, err = mine.Servers.Modify(ctx, wiki.ID, replace(mcpservers.Input{Name: "crm", URL: "https://wiki.example.com/mcp"}))
	wantCode(t, "renaming to a name taken", err, errcode.Conflict)
	if got, err := mine.Servers.Modify(ctx, wiki.ID, replace(mcpservers.Input{Name: "wiki", URL: "https://wiki.example.com/v2"})); err != nil || got.URL != "https://wiki.example.com/v2" {
		t.Errorf("a change that keeps the name: %+v, %v", got, err)
	}
	if _, err := theirs.Servers.Create(ctx, mcpservers.Input{Name: "crm", URL: "https://crm.example.com/mcp"}); err != nil {
		t.Errorf("another user's own crm: %v", err)
	}
	if l, _ := mine.Servers.List(ctx); len(l) != 2 || l[1].Name != "wiki" {
		t.Errorf("after the conflicts: %+v", l)
	}
}

// Modify changes a server from its stored config; a change the vetting
// refuses stores nothing; a deleted server is gone.
func serversModify(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t))
	m := newServer(t, mine, mcpservers.Input{Name: "crm", URL: "https://crm.example.com/mcp",
		AuthType: mcpservers.AuthBearer, Secret: ptr("tok"), Enabled: true, TimeoutMS: 3000})
	disable := func(cur mcpservers.Server) mcpservers.Input {
		return mcpservers.Input{Name: cur.Name, URL: cur.URL, Transport: cur.Transport, AuthType: cur.AuthType,
			TimeoutMS: cur.TimeoutMS + 1000, AllowedTools: cur.AllowedTools}
	}
	got, err := mine.Servers.Modify(ctx, m.ID, disable)
	if err != nil {
		t.Fatal(err)
	}
	if got.Enabled || got.TimeoutMS != 4000 || !got.HasSecret || got.Name != "crm" || !got.CreatedAt.Equal(m.CreatedAt) || got.UpdatedAt.Before(m.UpdatedAt) {
		t.Fatalf("modified to %+v", got)
	}
	if e, _ := mine.Servers.Enabled(ctx); len(e) != 0 {
		t.Errorf("a disabled server reaches the bridge: %+v", e)
	}
	for _, url := range []string{"http://10.1.2.3/mcp", "http://127.0.0.1/mcp"} {
		_, err = mine.Servers.Modify(ctx, m.ID, func(cur mcpservers.Server) mcpservers.Input {
			in := disable(cur)
			in.URL = url
			return in
		})
		wantCode(t, "modifying to "+url, err, errcode.BadRequest)
	}
	if after, _ := mine.Servers.Get(ctx, m.ID); after.URL != m.URL || after.TimeoutMS != 4000 {
		t.Fatalf("a refused change was stored: %+v", after)
	}
	if err := mine.Servers.Delete(ctx, m.ID); err != nil {
		t.Fatal(err)
	}
	_, err = mine.Servers.Get(ctx, m.ID)
	wantCode(t, "a deleted server", err, errcode.NotFound)
	_, err = mine.Servers.Modify(ctx, m.ID, disable)
	wantCode(t, "modifying a deleted server", err, errcode.NotFound)
	wantCode(t, "deleting twice", mine.Servers.Delete(ctx, m.ID), errcode.NotFound)
}

// Another user sees none of my servers: their lists and the bridge's are
// empty, and my ids are NOT_FOUND through them, changes included.
func serversOwnerRule(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, theirs, _, _ := two(t, b)
	m := newServer(t, mine, mcpservers.Input{Name: "crm", URL: "https://crm.example.com/mcp", AuthType: mcpservers.AuthBearer,
		Secret: ptr("tok"), Enabled: true})
	if l, err := theirs.Servers.List(ctx); err != nil || len(l) != 0 {
		t.Errorf("another user lists %+v, %v", l, err)
	}
	if e, err := theirs.Servers.Enabled(ctx); err != nil || len(e) != 0 {
		t.Errorf("another user's bridge gets %+v, %v", e, err)
	}
	changed := false
	for name, err := range map[string]error{
		"get": second(theirs.Servers.Get(ctx, m.ID)),
		"modify": second(theirs.Servers.Modify(ctx, m.ID, func(mcpservers.Server) mcpservers.Input {
			changed = true
			return mcpservers.Input{Name: "x", URL: "https://x.example.com/"}
		})),
		"delete":      theirs.Servers.Delete(ctx, m.ID),
		"a malformed": second(mine.Servers.Get(ctx, "not-a-uuid")),
	} {
		wantCode(t, name+" of another user's server", err, errcode.NotFound)
	}
	if changed {
		t.Error("another user's change was asked for my server's config")
	}
	if e, _ := mine.Servers.Enabled(ctx); len(e) != 1 || e[0].Name != "crm" || e[0].Secret != "tok" {
		t.Errorf("my server after another user's attempts: %+v", e)
	}
}

// Enrichment is off until set; the settings name the user's own servers
// only (another's, or one that is not there, is NOT_FOUND and changes
// nothing), each once, in order; a deleted server leaves them.
func serversSettings(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, theirs, _, _ := two(t, b)
	got, err := mine.Servers.Settings(ctx)
	if err != nil || got.ToolMCP || got.ToolMCPServers == nil || len(got.ToolMCPServers) != 0 {
		t.Fatalf("default settings = %+v, %v; want off", got, err)
	}
	a1 := newServer(t, mine, mcpservers.Input{Name: "a1", URL: "https://a1.example.com/", Enabled: true})
	a2 := newServer(t, mine, mcpservers.Input{Name: "a2", URL: "https://a2.example.com/", Enabled: true})
	b1 := newServer(t, theirs, mcpservers.Input{Name: "b1", URL: "https://b1.example.com/", Enabled: true})
	if err := mine.Servers.SetSettings(ctx, mcpservers.Settings{ToolMCP: true, ToolMCPServers: []string{a2.ID, a1.ID, a2.ID}}); err != nil {
		t.Fatal(err)
	}
	got, err = mine.Servers.Settings(ctx)
	if err != nil || !got.ToolMCP || strings.Join(got.ToolMCPServers, ",") != a2.ID+","+a1.ID {
		t.Fatalf("settings = %+v, %v", got, err)
	}
	for _, ids := range [][]string{{b1.ID}, {a1.ID, "not-a-uuid"}, {a1.ID, "00000000-0000-0000-0000-000000000001"}} {
		err := mine.Servers.SetSettings(ctx, mcpservers.Settings{ToolMCP: true, ToolMCPServers: ids})
		wantCode(t, "settings naming a server that is not mine", err, errcode.NotFound)
	}
	if got, _ := mine.Servers.Settings(ctx); len(got.ToolMCPServers) != 2 {
		t.Fatalf("a refused change changed the settings: %+v", got)
	}
	if s, _ := theirs.Servers.Settings(ctx); s.ToolMCP || len(s.ToolMCPServers) != 0 {
		t.Fatalf("my settings changed another user's: %+v", s)
	}
	if err := mine.Servers.Delete(ctx, a2.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := mine.Servers.Settings(ctx); strings.Join(got.ToolMCPServers, ",") != a1.ID || !got.ToolMCP {
		t.Fatalf("after deleting a server the settings named: %+v", got)
	}
	if err := mine.Servers.SetSettings(ctx, mcpservers.Settings{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := mine.Servers.Settings(ctx); got.ToolMCP || len(got.ToolMCPServers) != 0 {
		t.Fatalf("settings after turning off = %+v", got)
	}
}
