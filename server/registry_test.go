package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/secretbox"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store/mcpservers"
)

// secretValue is the credential the tests send; no answer may hold it.
const secretValue = "s3cret-token-never-echoed"

// noSecret fails when an answer shows the secret.
func noSecret(t *testing.T, r response) {
	t.Helper()
	if strings.Contains(string(r.body), secretValue) || strings.Contains(string(r.body), `"secret"`) {
		t.Fatalf("an answer shows the secret: %s", r.body)
	}
}

// createServer adds a server for the user with key and returns it.
func (h *harness) createServer(key, body string) wire.MCPServer {
	h.t.Helper()
	var m wire.MCPServer
	r := h.must(http.StatusCreated, http.MethodPost, "/mcp-servers", key, body)
	r.decode(h.t, &m)
	return m
}

func TestMCPServerCreate(t *testing.T) {
	h := newHarness(t, testLimits())
	r := h.must(http.StatusCreated, http.MethodPost, "/mcp-servers", h.aliceKey,
		`{"name":"crm","url":"https://crm.example.com/mcp","transport":"sse","authType":"bearer","secret":"`+secretValue+`","allowedTools":["search","search","get"],"timeoutMs":5000}`)
	noSecret(t, r)
	var crm wire.MCPServer
	r.decode(t, &crm)
	if !crm.HasSecret || !crm.Enabled || crm.Transport != "sse" || crm.TimeoutMS != 5000 || !slices.Equal(crm.AllowedTools, []string{"search", "get"}) {
		t.Fatalf("created %+v", crm)
	}
	// The secret was stored, sealed, for the bridge: the only way it comes back.
	box, err := secretbox.New(testBoxKey)
	if err != nil {
		t.Fatal(err)
	}
	enabled, err := mcpservers.Registry{Pool: h.st.Pool, Box: box}.Enabled(t.Context(), h.alice.ID)
	if err != nil || len(enabled) != 1 || enabled[0].Secret != secretValue {
		t.Fatalf("the bridge reads %+v, %v", enabled, err)
	}

	cases := []struct {
		name, body string
		want       int
		fields     []string
	}{
		{"malformed JSON", `{"name":`, http.StatusBadRequest, nil},
		{"unknown member", `{"name":"a","url":"https://a.example.com/mcp","sekret":"x"}`, http.StatusUnprocessableEntity, []string{"sekret"}},
		{"wrong type", `{"name":"a","url":"https://a.example.com/mcp","enabled":"yes","timeoutMs":"5s"}`, http.StatusUnprocessableEntity, []string{"enabled", "timeoutMs"}},
		{"no url", `{"name":"a"}`, http.StatusUnprocessableEntity, []string{"url"}},
		{"private address", `{"name":"a","url":"http://10.0.0.5/mcp"}`, http.StatusBadRequest, nil},
		{"loopback", `{"name":"a","url":"http://127.0.0.1:8080/mcp"}`, http.StatusBadRequest, nil},
		{"cloud metadata", `{"name":"a","url":"http://169.254.169.254/latest/meta-data"}`, http.StatusBadRequest, nil},
		{"not http", `{"name":"a","url":"file:///etc/passwd"}`, http.StatusBadRequest, nil},
		{"credentials in the URL", `{"name":"a","url":"https://u:p@a.example.com/mcp"}`, http.StatusBadRequest, nil},
		{"stdio transport", `{"name":"a","url":"https://a.example.com/mcp","transport":"stdio"}`, http.StatusBadRequest, nil},
		{"unknown transport", `{"name":"a","url":"https://a.example.com/mcp","transport":"websocket"}`, http.StatusBadRequest, nil},
		{"secret without auth", `{"name":"a","url":"https://a.example.com/mcp","secret":"x"}`, http.StatusBadRequest, nil},
		{"bearer without secret", `{"name":"a","url":"https://a.example.com/mcp","authType":"bearer"}`, http.StatusBadRequest, nil},
		{"bad name", `{"name":"no spaces","url":"https://a.example.com/mcp"}`, http.StatusBadRequest, nil},
		{"name taken", `{"name":"crm","url":"https://b.example.com/mcp"}`, http.StatusConflict, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := h.with(t)
			r := h.must(c.want, http.MethodPost, "/mcp-servers", h.aliceKey, c.body)
			var e wire.Error
			r.decode(t, &e)
			var fields []string
			for _, f := range e.Fields {
				fields = append(fields, f.Field)
			}
			if e.Message == "" || !slices.Equal(fields, c.fields) {
				t.Fatalf("body %s, want fields %v", r.body, c.fields)
			}
			if strings.Contains(e.Message, "netguard") || strings.Contains(e.Message, "SQLSTATE") {
				t.Fatalf("internal text reaches the client: %s", r.body)
			}
		})
	}
	// Another user may use the same name; nothing failed was stored.
	h.createServer(h.bobKey, `{"name":"crm","url":"https://crm.example.com/mcp"}`)
	var list []wire.MCPServer
	h.must(http.StatusOK, http.MethodGet, "/mcp-servers", h.aliceKey, "").decode(t, &list)
	if len(list) != 1 || list[0].ID != crm.ID {
		t.Fatalf("alice lists %+v", list)
	}
	h.must(http.StatusUnauthorized, http.MethodGet, "/mcp-servers", "", "")
}

// A process without a secret key refuses servers with a secret, and takes
// the others.
func TestMCPServerWithoutKey(t *testing.T) {
	h := newHarness(t, testLimits())
	guard, err := netguard.New(netguard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	noBox := newServerTuned(t, h.st, h.planner, h.tools, io.Discard, func(cfg *Config) { cfg.Servers = mcpservers.Registry{Pool: h.st.Pool, Guard: guard} })
	ts := httptest.NewServer(noBox.Handler())
	t.Cleanup(ts.Close)
	h.url = ts.URL
	r := h.must(http.StatusServiceUnavailable, http.MethodPost, "/mcp-servers", h.aliceKey,
		`{"name":"crm","url":"https://crm.example.com/mcp","authType":"bearer","secret":"`+secretValue+`"}`)
	if r.errorCode(t) != "UNAVAILABLE" {
		t.Fatalf("body %s", r.body)
	}
	if m := h.createServer(h.aliceKey, `{"name":"crm","url":"https://crm.example.com/mcp","enabled":false}`); m.HasSecret || m.Enabled {
		t.Fatalf("created %+v", m)
	}
}

func TestMCPServerReadPatchDelete(t *testing.T) {
	h := newHarness(t, testLimits())
	crm := h.createServer(h.aliceKey, `{"name":"crm","url":"https://crm.example.com/mcp","authType":"header","authHeader":"X-Key","secret":"`+secretValue+`"}`)
	path := "/mcp-servers/" + crm.ID

	t.Run("get", func(t *testing.T) {
		h := h.with(t)
		var got wire.MCPServer
		r := h.must(http.StatusOK, http.MethodGet, path, h.aliceKey, "")
		noSecret(t, r)
		r.decode(t, &got)
		if got.ID != crm.ID || got.AuthHeader != "X-Key" || !got.HasSecret {
			t.Fatalf("got %+v", got)
		}
		for _, p := range []string{path, "/mcp-servers/" + uuid.NewString(), "/mcp-servers/not-a-uuid"} {
			h.must(http.StatusNotFound, http.MethodGet, p, h.bobKey, "")
		}
		h.must(http.StatusNotFound, http.MethodGet, "/mcp-servers/"+uuid.NewString(), h.aliceKey, "")
	})

	t.Run("patch", func(t *testing.T) {
		cases := []struct {
			name, key, body string
			want            int
			check           func(wire.MCPServer) bool
		}{
			{"another user's", h.bobKey, `{"enabled":false}`, http.StatusNotFound, nil},
			{"malformed JSON", h.aliceKey, `{"enabled":`, http.StatusBadRequest, nil},
			{"unknown member", h.aliceKey, `{"enabled":false,"owner":"bob"}`, http.StatusUnprocessableEntity, nil},
			{"wrong type", h.aliceKey, `{"allowedTools":"all"}`, http.StatusUnprocessableEntity, nil},
			{"private address", h.aliceKey, `{"url":"http://192.168.1.1/mcp"}`, http.StatusBadRequest, nil},
			{"stdio transport", h.aliceKey, `{"transport":"stdio"}`, http.StatusBadRequest, nil},
			{"members sent change, the secret stays", h.aliceKey, `{"enabled":false,"timeoutMs":2500,"allowedTools":["search"]}`, http.StatusOK,
				func(m wire.MCPServer) bool {
					return !m.Enabled && m.TimeoutMS == 2500 && m.HasSecret && m.AuthHeader == "X-Key" && m.URL == crm.URL && slices.Equal(m.AllowedTools, []string{"search"})
				}},
			{"to bearer with a new secret, the header name goes", h.aliceKey, `{"authType":"bearer","secret":"other-` + secretValue + `"}`, http.StatusOK,
				func(m wire.MCPServer) bool {
					return m.AuthType == "bearer" && m.AuthHeader == "" && m.HasSecret && !m.Enabled
				}},
			{"no auth drops the secret", h.aliceKey, `{"authType":"none","enabled":true}`, http.StatusOK,
				func(m wire.MCPServer) bool { return m.AuthType == "none" && !m.HasSecret && m.Enabled }},
			{"unknown id", h.aliceKey, `{"enabled":true}`, http.StatusNotFound, nil},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				h := h.with(t)
				p := path
				if c.name == "unknown id" {
					p = "/mcp-servers/" + uuid.NewString()
				}
				r := h.must(c.want, http.MethodPatch, p, c.key, c.body)
				noSecret(t, r)
				if c.check == nil {
					return
				}
				var m wire.MCPServer
				r.decode(t, &m)
				if !c.check(m) {
					t.Fatalf("patched to %+v", m)
				}
			})
		}
	})

	t.Run("delete", func(t *testing.T) {
		h := h.with(t)
		h.must(http.StatusOK, http.MethodPut, "/mcp-servers/settings", h.aliceKey, `{"toolMcp":true,"toolMcpServers":["`+crm.ID+`"]}`)
		h.must(http.StatusNotFound, http.MethodDelete, path, h.bobKey, "")
		h.must(http.StatusNoContent, http.MethodDelete, path, h.aliceKey, "")
		h.must(http.StatusNotFound, http.MethodGet, path, h.aliceKey, "")
		h.must(http.StatusNotFound, http.MethodDelete, path, h.aliceKey, "")
		var set wire.MCPSettings
		h.must(http.StatusOK, http.MethodGet, "/mcp-servers/settings", h.aliceKey, "").decode(t, &set)
		if !set.ToolMCP || len(set.ToolMCPServers) != 0 {
			t.Fatalf("settings after the delete: %+v", set)
		}
	})
}

func TestMCPSettingsRoutes(t *testing.T) {
	h := newHarness(t, testLimits())
	crm := h.createServer(h.aliceKey, `{"name":"crm","url":"https://crm.example.com/mcp"}`)
	wiki := h.createServer(h.aliceKey, `{"name":"wiki","url":"https://wiki.example.com/mcp"}`)
	bobs := h.createServer(h.bobKey, `{"name":"mine","url":"https://bob.example.com/mcp"}`)
	get := func(key string) string {
		return string(h.must(http.StatusOK, http.MethodGet, "/mcp-servers/settings", key, "").body)
	}
	if got := get(h.aliceKey); !sameJSONBytes(json.RawMessage(got), json.RawMessage(`{"toolMcp":false,"toolMcpServers":[]}`)) {
		t.Fatalf("settings never set: %s", got)
	}
	cases := []struct {
		name, key, body string
		want            int
		after           string // alice's settings afterwards
	}{
		{"on, two servers", h.aliceKey, `{"toolMcp":true,"toolMcpServers":["` + wiki.ID + `","` + crm.ID + `","` + wiki.ID + `"]}`, http.StatusOK,
			`{"toolMcp":true,"toolMcpServers":["` + wiki.ID + `","` + crm.ID + `"]}`},
		{"another user's server", h.aliceKey, `{"toolMcp":true,"toolMcpServers":["` + bobs.ID + `"]}`, http.StatusNotFound, ""},
		{"unknown server", h.aliceKey, `{"toolMcp":true,"toolMcpServers":["` + uuid.NewString() + `"]}`, http.StatusNotFound, ""},
		{"not an id", h.aliceKey, `{"toolMcp":true,"toolMcpServers":["crm"]}`, http.StatusUnprocessableEntity, ""},
		{"toolMcp missing", h.aliceKey, `{"toolMcpServers":[]}`, http.StatusUnprocessableEntity, ""},
		{"empty body", h.aliceKey, ``, http.StatusUnprocessableEntity, ""},
		{"wrong type", h.aliceKey, `{"toolMcp":"on"}`, http.StatusUnprocessableEntity, ""},
		{"unknown member", h.aliceKey, `{"toolMcp":false,"tool_mcp":true}`, http.StatusUnprocessableEntity, ""},
		{"bob's own change", h.bobKey, `{"toolMcp":true}`, http.StatusOK, ""},
		{"off, every server", h.aliceKey, `{"toolMcp":false}`, http.StatusOK, `{"toolMcp":false,"toolMcpServers":[]}`},
	}
	want := `{"toolMcp":false,"toolMcpServers":[]}`
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := h.with(t)
			r := h.must(c.want, http.MethodPut, "/mcp-servers/settings", c.key, c.body)
			if c.after != "" {
				want = c.after
				if !sameJSONBytes(r.body, json.RawMessage(want)) {
					t.Fatalf("answered %s, want %s", r.body, want)
				}
			}
			if got := get(h.aliceKey); !sameJSONBytes(json.RawMessage(got), json.RawMessage(want)) {
				t.Fatalf("alice's settings %s, want %s", got, want)
			}
		})
	}
	if got := get(h.bobKey); !sameJSONBytes(json.RawMessage(got), json.RawMessage(`{"toolMcp":true,"toolMcpServers":[]}`)) {
		t.Fatalf("bob's settings %s", got)
	}
}

func TestToolOutputRoute(t *testing.T) {
	h := newHarness(t, testLimits())
	data := json.RawMessage(`{"items":[1,2,3],"note":"ação"}`)
	id, err := h.st.ForOwner(h.alice.ID).SaveToolOutput(t.Context(), "crm", "search", data)
	if err != nil {
		t.Fatal(err)
	}
	var o wire.ToolOutput
	h.must(http.StatusOK, http.MethodGet, "/tool-outputs/"+id, h.aliceKey, "").decode(t, &o)
	if o.ID != id || o.Server != "crm" || o.Tool != "search" || !sameJSONBytes(o.Data, data) || o.CreatedAt.IsZero() {
		t.Fatalf("got %+v", o)
	}
	cases := []struct{ name, key, id string }{
		{"another user's", h.bobKey, id},
		{"unknown id", h.aliceKey, uuid.NewString()},
		{"not an id", h.aliceKey, "not-a-uuid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := h.with(t)
			if r := h.must(http.StatusNotFound, http.MethodGet, "/tool-outputs/"+c.id, c.key, ""); r.errorCode(t) != "NOT_FOUND" {
				t.Fatalf("body %s", r.body)
			}
		})
	}
	h.must(http.StatusUnauthorized, http.MethodGet, "/tool-outputs/"+id, "", "")
}
