package mcpservers

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/secretbox"
)

func testRegistry(t *testing.T, s *testStore) Registry {
	t.Helper()
	g, err := netguard.New(netguard.Options{Allow: []string{"mcp.internal"}})
	if err != nil {
		t.Fatal(err)
	}
	box, err := secretbox.New(bytes.Repeat([]byte{9}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return Registry{Pool: s.Pool, Guard: g, Box: box}
}

func ptr[T any](v T) *T { return &v }

func wantCode(t *testing.T, what string, err error, code errcode.Code) {
	t.Helper()
	if errcode.Of(err) != code || err == nil {
		t.Fatalf("%s: %v, want %s", what, err, code)
	}
}

func TestMCPServers(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	reg := testRegistry(t, s)
	ana, _ := s.EnsureUser(ctx, "mcp-ana")
	bob, _ := s.EnsureUser(ctx, "mcp-bob")

	crm, err := reg.Create(ctx, ana.ID, Input{
		Name: "crm", URL: "https://crm.example.com/mcp", Transport: TransportSSE,
		AuthType: AuthBearer, Secret: ptr("s3cret-token"), Enabled: true,
		AllowedTools: []string{"search_contacts", "get_deal", "search_contacts"}, TimeoutMS: 5000,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !crm.HasSecret || crm.Transport != TransportSSE || crm.Timeout() != 5*time.Second ||
		strings.Join(crm.AllowedTools, ",") != "search_contacts,get_deal" {
		t.Fatalf("created %+v", crm)
	}
	wiki, err := reg.Create(ctx, ana.ID, Input{Name: "wiki", URL: "http://mcp.internal/mcp", Enabled: false})
	if err != nil {
		t.Fatal(err)
	}
	if wiki.Transport != TransportStreamableHTTP || wiki.AuthType != AuthNone || wiki.TimeoutMS != 10000 || wiki.HasSecret {
		t.Fatalf("defaults not filled in: %+v", wiki)
	}

	// The secret is sealed in the database and never listed.
	var stored []byte
	if err := s.Pool.QueryRow(ctx, `SELECT secret FROM mcp_servers WHERE id = $1`, crm.ID).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if len(stored) == 0 || bytes.Contains(stored, []byte("s3cret-token")) {
		t.Fatalf("the stored secret is %q", stored)
	}
	list, err := reg.List(ctx, ana.ID)
	if err != nil || len(list) != 2 || list[0].Name != "crm" || list[1].Name != "wiki" {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if listed, _ := json.Marshal(list); bytes.Contains(listed, []byte("s3cret")) {
		t.Fatalf("the list shows the secret: %s", listed)
	}

	// Only enabled servers reach the bridge, with their secret opened.
	enabled, err := reg.Enabled(ctx, ana.ID)
	if err != nil || len(enabled) != 1 || enabled[0].ID != crm.ID || enabled[0].Secret != "s3cret-token" {
		t.Fatalf("Enabled = %+v, %v", enabled, err)
	}

	if h := enabled[0].Headers(); len(h) != 1 || h["Authorization"] != "Bearer s3cret-token" {
		t.Fatalf("bearer headers = %v", h)
	}
	for _, tt := range []struct {
		m    WithSecret
		want map[string]string
	}{
		{WithSecret{Server: Server{AuthType: AuthHeader, AuthHeader: "X-API-Key"}, Secret: "k"}, map[string]string{"X-API-Key": "k"}},
		{WithSecret{Server: Server{AuthType: AuthNone}}, nil},
	} {
		if got := tt.m.Headers(); !maps.Equal(got, tt.want) {
			t.Errorf("Headers(%+v) = %v, want %v", tt.m, got, tt.want)
		}
	}

	// Another user sees none of it.
	if l, err := reg.List(ctx, bob.ID); err != nil || len(l) != 0 {
		t.Fatalf("bob lists %+v, %v", l, err)
	}
	if e, err := reg.Enabled(ctx, bob.ID); err != nil || len(e) != 0 {
		t.Fatalf("bob's enabled servers: %+v, %v", e, err)
	}
	_, err = reg.Get(ctx, bob.ID, crm.ID)
	wantCode(t, "bob gets ana's server", err, errcode.NotFound)
	_, err = reg.Update(ctx, bob.ID, crm.ID, Input{Name: "x", URL: "https://x.example.com/"})
	wantCode(t, "bob updates ana's server", err, errcode.NotFound)
	wantCode(t, "bob deletes ana's server", reg.Delete(ctx, bob.ID, crm.ID), errcode.NotFound)
	_, err = reg.Get(ctx, ana.ID, "not-a-uuid")
	wantCode(t, "a malformed id", err, errcode.NotFound)

	// Names are unique per user.
	_, err = reg.Create(ctx, ana.ID, Input{Name: "crm", URL: "https://other.example.com/"})
	wantCode(t, "a second crm for ana", err, errcode.Conflict)
	if _, err := reg.Create(ctx, bob.ID, Input{Name: "crm", URL: "https://crm.example.com/mcp"}); err != nil {
		t.Fatalf("bob's own crm: %v", err)
	}

	// An update without a secret keeps it; auth type none drops it.
	upd := Input{Name: "crm2", URL: "https://crm.example.com/v2", AuthType: AuthHeader, AuthHeader: "X-API-Key", Enabled: true}
	got, err := reg.Update(ctx, ana.ID, crm.ID, upd)
	if err != nil || got.Name != "crm2" || got.AuthHeader != "X-API-Key" || !got.HasSecret || !got.UpdatedAt.After(got.CreatedAt) {
		t.Fatalf("Update = %+v, %v", got, err)
	}
	if e, _ := reg.Enabled(ctx, ana.ID); len(e) != 1 || e[0].Secret != "s3cret-token" {
		t.Fatalf("the secret was not kept: %+v", e)
	}
	upd.Secret = ptr("n3w")
	if _, err := reg.Update(ctx, ana.ID, crm.ID, upd); err != nil {
		t.Fatal(err)
	}
	if e, _ := reg.Enabled(ctx, ana.ID); len(e) != 1 || e[0].Secret != "n3w" {
		t.Fatalf("the secret was not replaced: %+v", e)
	}
	if got, err := reg.Update(ctx, ana.ID, crm.ID, Input{Name: "crm2", URL: "https://crm.example.com/v2", Enabled: true}); err != nil || got.HasSecret {
		t.Fatalf("auth type none kept a secret: %+v, %v", got, err)
	}
	_, err = reg.Update(ctx, ana.ID, crm.ID, Input{Name: "crm2", URL: "https://crm.example.com/v2", AuthType: AuthBearer})
	wantCode(t, "bearer with no secret stored or given", err, errcode.BadRequest)

	// A sealed secret copied into another row does not open there: that
	// server is left out, the others still come.
	if _, err := reg.Update(ctx, ana.ID, wiki.ID, Input{Name: "wiki", URL: "http://mcp.internal/mcp", Enabled: true,
		AuthType: AuthBearer, Secret: ptr("wiki-token")}); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Update(ctx, ana.ID, crm.ID, Input{Name: "crm2", URL: "https://crm.example.com/v2", Enabled: true,
		AuthType: AuthBearer, Secret: ptr("crm-token")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pool.Exec(ctx, `UPDATE mcp_servers SET secret = (SELECT secret FROM mcp_servers WHERE id = $1) WHERE id = $2`, crm.ID, wiki.ID); err != nil {
		t.Fatal(err)
	}
	if e, err := reg.Enabled(ctx, ana.ID); err != nil || len(e) != 1 || e[0].ID != crm.ID || e[0].Secret != "crm-token" {
		t.Fatalf("Enabled after moving a sealed secret = %+v, %v", e, err)
	}

	// Without a key, servers with secrets cannot be added.
	noKey := reg
	noKey.Box = nil
	_, err = noKey.Create(ctx, bob.ID, Input{Name: "k", URL: "https://k.example.com/", AuthType: AuthBearer, Secret: ptr("x")})
	wantCode(t, "a secret with no key", err, errcode.Unavailable)
	if _, err := noKey.Create(ctx, bob.ID, Input{Name: "k", URL: "https://k.example.com/"}); err != nil {
		t.Fatalf("a server without a secret needs no key: %v", err)
	}

	if err := reg.Delete(ctx, ana.ID, crm.ID); err != nil {
		t.Fatal(err)
	}
	_, err = reg.Get(ctx, ana.ID, crm.ID)
	wantCode(t, "a deleted server", err, errcode.NotFound)
	wantCode(t, "deleting twice", reg.Delete(ctx, ana.ID, crm.ID), errcode.NotFound)
	_, err = reg.Create(ctx, "00000000-0000-0000-0000-000000000000", Input{Name: "x", URL: "https://x.example.com/"})
	wantCode(t, "a server for no user", err, errcode.NotFound)
}

func TestMCPServerValidation(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	reg := testRegistry(t, s)
	u, _ := s.EnsureUser(ctx, "mcp-validation")
	valid := func(edit func(*Input)) Input {
		in := Input{Name: "ok", URL: "https://mcp.example.com/mcp", Enabled: true}
		edit(&in)
		return in
	}
	bad := []struct {
		name string
		in   Input
	}{
		{"stdio transport", valid(func(in *Input) { in.Transport = "stdio" })},
		{"a command", valid(func(in *Input) { in.Transport = "command"; in.URL = "/usr/bin/server" })},
		{"unknown transport", valid(func(in *Input) { in.Transport = "websocket" })},
		{"no URL", valid(func(in *Input) { in.URL = "" })},
		{"not a URL", valid(func(in *Input) { in.URL = "mcp.example.com/mcp" })},
		{"ftp", valid(func(in *Input) { in.URL = "ftp://mcp.example.com/" })},
		{"no host", valid(func(in *Input) { in.URL = "https:///mcp" })},
		{"credentials in the URL", valid(func(in *Input) { in.URL = "https://u:p@mcp.example.com/" })},
		{"a fragment", valid(func(in *Input) { in.URL = "https://mcp.example.com/mcp#x" })},
		{"a long URL", valid(func(in *Input) { in.URL = "https://mcp.example.com/" + strings.Repeat("a", 2048) })},
		{"cloud metadata", valid(func(in *Input) { in.URL = "http://169.254.169.254/latest/meta-data/" })},
		{"a private address", valid(func(in *Input) { in.URL = "http://10.0.0.1/mcp" })},
		{"a mapped loopback", valid(func(in *Input) { in.URL = "http://[::ffff:127.0.0.1]/mcp" })},
		{"localhost", valid(func(in *Input) { in.URL = "http://localhost:8081/mcp" })},
		{"no name", valid(func(in *Input) { in.Name = "" })},
		{"a name with spaces", valid(func(in *Input) { in.Name = "My CRM" })},
		{"a long name", valid(func(in *Input) { in.Name = strings.Repeat("n", 41) })},
		{"unknown auth", valid(func(in *Input) { in.AuthType = "oauth"; in.Secret = ptr("x") })},
		{"bearer without secret", valid(func(in *Input) { in.AuthType = AuthBearer })},
		{"secret without auth", valid(func(in *Input) { in.Secret = ptr("x") })},
		{"empty secret", valid(func(in *Input) { in.AuthType = AuthBearer; in.Secret = ptr("") })},
		{"secret with a newline", valid(func(in *Input) { in.AuthType = AuthBearer; in.Secret = ptr("a\r\nX-Evil: 1") })},
		{"header auth without header", valid(func(in *Input) { in.AuthType = AuthHeader; in.Secret = ptr("x") })},
		{"header auth on Host", valid(func(in *Input) { in.AuthType = AuthHeader; in.AuthHeader = "Host"; in.Secret = ptr("x") })},
		{"header auth on the session id", valid(func(in *Input) {
			in.AuthType = AuthHeader
			in.AuthHeader = "mcp-session-id"
			in.Secret = ptr("x")
		})},
		{"a header name with bearer", valid(func(in *Input) { in.AuthType = AuthBearer; in.AuthHeader = "X-Key"; in.Secret = ptr("x") })},
		{"a bad tool name", valid(func(in *Input) { in.AllowedTools = []string{"drop table"} })},
		{"too many tools", valid(func(in *Input) {
			for i := range 101 {
				in.AllowedTools = append(in.AllowedTools, "t"+strings.Repeat("x", i))
			}
		})},
		{"a short timeout", valid(func(in *Input) { in.TimeoutMS = 50 })},
		{"a long timeout", valid(func(in *Input) { in.TimeoutMS = 120_001 })},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := reg.Create(ctx, u.ID, tt.in)
			wantCode(t, tt.name, err, errcode.BadRequest)
			if msg := errcode.Message(err); strings.Contains(msg, "pgx") || strings.Contains(msg, "SQL") {
				t.Fatalf("the message shows internals: %q", msg)
			}
		})
	}
	if l, _ := reg.List(ctx, u.ID); len(l) != 0 {
		t.Fatalf("invalid configs were stored: %+v", l)
	}
	good := []Input{
		valid(func(in *Input) {}),
		valid(func(in *Input) { in.Name = "internal"; in.URL = "http://mcp.internal:8081/mcp" }), // on the operator's allow-list
		valid(func(in *Input) {
			in.Name = "keyed"
			in.AuthType = AuthHeader
			in.AuthHeader = "X-API-Key"
			in.Secret = ptr("k")
			in.TimeoutMS = 120_000
		}),
	}
	for _, in := range good {
		if _, err := reg.Create(ctx, u.ID, in); err != nil {
			t.Errorf("Create(%+v) = %v", in, err)
		}
	}
	m, err := reg.Create(ctx, u.ID, valid(func(in *Input) { in.Name = "upper"; in.URL = " HTTPS://MCP.example.com/Path?q=1 " }))
	if err != nil || m.URL != "https://MCP.example.com/Path?q=1" {
		t.Fatalf("an upper-case scheme: %+v, %v; want it stored in lower case", m, err)
	}
}

func TestMCPSettings(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	reg := testRegistry(t, s)
	ana, _ := s.EnsureUser(ctx, "settings-ana")
	bob, _ := s.EnsureUser(ctx, "settings-bob")
	got, err := reg.Settings(ctx, ana.ID)
	if err != nil || got.ToolMCP || len(got.ToolMCPServers) != 0 {
		t.Fatalf("default settings = %+v, %v; want off", got, err)
	}
	a1, _ := reg.Create(ctx, ana.ID, Input{Name: "a1", URL: "https://a1.example.com/", Enabled: true})
	a2, _ := reg.Create(ctx, ana.ID, Input{Name: "a2", URL: "https://a2.example.com/", Enabled: true})
	b1, _ := reg.Create(ctx, bob.ID, Input{Name: "b1", URL: "https://b1.example.com/", Enabled: true})

	if err := reg.SetSettings(ctx, ana.ID, Settings{ToolMCP: true, ToolMCPServers: []string{a2.ID, a1.ID, a2.ID}}); err != nil {
		t.Fatal(err)
	}
	got, err = reg.Settings(ctx, ana.ID)
	if err != nil || !got.ToolMCP || strings.Join(got.ToolMCPServers, ",") != a2.ID+","+a1.ID {
		t.Fatalf("settings = %+v, %v", got, err)
	}
	for _, ids := range [][]string{{b1.ID}, {a1.ID, "not-a-uuid"}} {
		err := reg.SetSettings(ctx, ana.ID, Settings{ToolMCP: true, ToolMCPServers: ids})
		wantCode(t, "settings naming a server that is not ana's", err, errcode.NotFound)
	}
	if got, _ := reg.Settings(ctx, ana.ID); len(got.ToolMCPServers) != 2 {
		t.Fatalf("a refused update changed the settings: %+v", got)
	}
	if b, _ := reg.Settings(ctx, bob.ID); b.ToolMCP {
		t.Fatal("ana's settings turned bob's on")
	}
	if err := reg.Delete(ctx, ana.ID, a2.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := reg.Settings(ctx, ana.ID); strings.Join(got.ToolMCPServers, ",") != a1.ID {
		t.Fatalf("a deleted server stays in the settings: %+v", got)
	}
	if err := reg.SetSettings(ctx, ana.ID, Settings{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := reg.Settings(ctx, ana.ID); got.ToolMCP || len(got.ToolMCPServers) != 0 {
		t.Fatalf("settings after turning off = %+v", got)
	}
}

// Modify changes a server from its stored config, in one transaction, for
// its owner only.
func TestMCPServerModify(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	reg := testRegistry(t, s)
	ana, _ := s.EnsureUser(ctx, "modify-ana")
	bob, _ := s.EnsureUser(ctx, "modify-bob")
	m, err := reg.Create(ctx, ana.ID, Input{Name: "crm", URL: "https://crm.example.com/mcp",
		AuthType: AuthBearer, Secret: ptr("tok"), Enabled: true, TimeoutMS: 3000})
	if err != nil {
		t.Fatal(err)
	}
	disable := func(cur Server) Input {
		return Input{Name: cur.Name, URL: cur.URL, Transport: cur.Transport, AuthType: cur.AuthType,
			TimeoutMS: cur.TimeoutMS + 1000, AllowedTools: cur.AllowedTools}
	}
	_, err = reg.Modify(ctx, bob.ID, m.ID, disable)
	wantCode(t, "modifying another user's server", err, errcode.NotFound)
	got, err := reg.Modify(ctx, ana.ID, m.ID, disable)
	if err != nil {
		t.Fatal(err)
	}
	if got.Enabled || got.TimeoutMS != 4000 || !got.HasSecret || got.Name != "crm" {
		t.Fatalf("modified to %+v", got)
	}
	_, err = reg.Modify(ctx, ana.ID, m.ID, func(cur Server) Input {
		in := disable(cur)
		in.URL = "http://10.1.2.3/mcp"
		return in
	})
	wantCode(t, "modifying to a private address", err, errcode.BadRequest)
	if after, _ := reg.Get(ctx, ana.ID, m.ID); after.URL != m.URL || after.TimeoutMS != 4000 {
		t.Fatalf("a refused change was stored: %+v", after)
	}
}
