package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/testing/apptest"
)

// secretValue is the credential the tests send; no answer may hold it.
const secretValue = "s3cret-token-never-echoed"

// noSecret fails when an answer shows the secret.
func noSecret(t *testing.T, r apptest.Response) {
	t.Helper()
	if strings.Contains(string(r.Body), secretValue) || strings.Contains(string(r.Body), `"secret"`) {
		t.Fatalf("an answer shows the secret: %s", r.Body)
	}
}

// createServer adds a server for the user with key and returns it.
func createServer(h *apptest.Server, key, body string) wire.MCPServer {
	h.T().Helper()
	var m wire.MCPServer
	r := h.Must(http.StatusCreated, http.MethodPost, "/mcp-servers", key, body)
	r.Decode(h.T(), &m)
	return m
}

func TestMCPServerCreate(t *testing.T) {
	h := apptest.New(t)
	r := h.Must(http.StatusCreated, http.MethodPost, "/mcp-servers", h.AliceKey,
		`{"name":"crm","url":"https://crm.example.com/mcp","transport":"sse","authType":"bearer","secret":"`+secretValue+`","allowedTools":["search","search","get"],"timeoutMs":5000}`)
	noSecret(t, r)
	var crm wire.MCPServer
	r.Decode(t, &crm)
	if !crm.HasSecret || !crm.Enabled || crm.Transport != "sse" || crm.TimeoutMS != 5000 || !slices.Equal(crm.AllowedTools, []string{"search", "get"}) {
		t.Fatalf("created %+v", crm)
	}
	// The secret was stored, sealed, for the bridge: the only way it comes back.
	enabled, err := h.Tenant(h.Alice.ID).Servers.Enabled(t.Context())
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
			h := h.With(t)
			r := h.Must(c.want, http.MethodPost, "/mcp-servers", h.AliceKey, c.body)
			var e wire.Error
			r.Decode(t, &e)
			var fields []string
			for _, f := range e.Fields {
				fields = append(fields, f.Field)
			}
			if e.Message == "" || !slices.Equal(fields, c.fields) {
				t.Fatalf("body %s, want fields %v", r.Body, c.fields)
			}
			if strings.Contains(e.Message, "netguard") || strings.Contains(e.Message, "SQLSTATE") {
				t.Fatalf("internal text reaches the client: %s", r.Body)
			}
		})
	}
	// Another user may use the same name; nothing failed was stored.
	createServer(h, h.BobKey, `{"name":"crm","url":"https://crm.example.com/mcp"}`)
	var list []wire.MCPServer
	h.Must(http.StatusOK, http.MethodGet, "/mcp-servers", h.AliceKey, "").Decode(t, &list)
	if len(list) != 1 || list[0].ID != crm.ID {
		t.Fatalf("alice lists %+v", list)
	}
	h.Must(http.StatusUnauthorized, http.MethodGet, "/mcp-servers", "", "")
}

// A process without a secret key refuses servers with a secret, and takes
// the others.
func TestMCPServerWithoutKey(t *testing.T) {
	h := apptest.New(t, apptest.NoSecretKey())
	r := h.Must(http.StatusServiceUnavailable, http.MethodPost, "/mcp-servers", h.AliceKey,
		`{"name":"crm","url":"https://crm.example.com/mcp","authType":"bearer","secret":"`+secretValue+`"}`)
	if r.ErrorCode(t) != "UNAVAILABLE" {
		t.Fatalf("body %s", r.Body)
	}
	if m := createServer(h, h.AliceKey, `{"name":"crm","url":"https://crm.example.com/mcp","enabled":false}`); m.HasSecret || m.Enabled {
		t.Fatalf("created %+v", m)
	}
}

func TestMCPServerReadPatchDelete(t *testing.T) {
	h := apptest.New(t)
	crm := createServer(h, h.AliceKey, `{"name":"crm","url":"https://crm.example.com/mcp","authType":"header","authHeader":"X-Key","secret":"`+secretValue+`"}`)
	path := "/mcp-servers/" + crm.ID

	t.Run("get", func(t *testing.T) {
		h := h.With(t)
		var got wire.MCPServer
		r := h.Must(http.StatusOK, http.MethodGet, path, h.AliceKey, "")
		noSecret(t, r)
		r.Decode(t, &got)
		if got.ID != crm.ID || got.AuthHeader != "X-Key" || !got.HasSecret {
			t.Fatalf("got %+v", got)
		}
		for _, p := range []string{path, "/mcp-servers/" + uuid.NewString(), "/mcp-servers/not-a-uuid"} {
			h.Must(http.StatusNotFound, http.MethodGet, p, h.BobKey, "")
		}
		h.Must(http.StatusNotFound, http.MethodGet, "/mcp-servers/"+uuid.NewString(), h.AliceKey, "")
	})

	t.Run("patch", func(t *testing.T) {
		cases := []struct {
			name, key, body string
			want            int
			check           func(wire.MCPServer) bool
		}{
			{"another user's", h.BobKey, `{"enabled":false}`, http.StatusNotFound, nil},
			{"malformed JSON", h.AliceKey, `{"enabled":`, http.StatusBadRequest, nil},
			{"unknown member", h.AliceKey, `{"enabled":false,"owner":"bob"}`, http.StatusUnprocessableEntity, nil},
			{"wrong type", h.AliceKey, `{"allowedTools":"all"}`, http.StatusUnprocessableEntity, nil},
			{"private address", h.AliceKey, `{"url":"http://192.168.1.1/mcp"}`, http.StatusBadRequest, nil},
			{"stdio transport", h.AliceKey, `{"transport":"stdio"}`, http.StatusBadRequest, nil},
			{"members sent change, the secret stays", h.AliceKey, `{"enabled":false,"timeoutMs":2500,"allowedTools":["search"]}`, http.StatusOK,
				func(m wire.MCPServer) bool {
					return !m.Enabled && m.TimeoutMS == 2500 && m.HasSecret && m.AuthHeader == "X-Key" && m.URL == crm.URL && slices.Equal(m.AllowedTools, []string{"search"})
				}},
			{"to bearer with a new secret, the header name goes", h.AliceKey, `{"authType":"bearer","secret":"other-` + secretValue + `"}`, http.StatusOK,
				func(m wire.MCPServer) bool {
					return m.AuthType == "bearer" && m.AuthHeader == "" && m.HasSecret && !m.Enabled
				}},
			{"no auth drops the secret", h.AliceKey, `{"authType":"none","enabled":true}`, http.StatusOK,
				func(m wire.MCPServer) bool { return m.AuthType == "none" && !m.HasSecret && m.Enabled }},
			{"unknown id", h.AliceKey, `{"enabled":true}`, http.StatusNotFound, nil},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				h := h.With(t)
				p := path
				if c.name == "unknown id" {
					p = "/mcp-servers/" + uuid.NewString()
				}
				r := h.Must(c.want, http.MethodPatch, p, c.key, c.body)
				noSecret(t, r)
				if c.check == nil {
					return
				}
				var m wire.MCPServer
				r.Decode(t, &m)
				if !c.check(m) {
					t.Fatalf("patched to %+v", m)
				}
			})
		}
	})

	t.Run("delete", func(t *testing.T) {
		h := h.With(t)
		h.Must(http.StatusOK, http.MethodPut, "/mcp-servers/settings", h.AliceKey, `{"toolMcp":true,"toolMcpServers":["`+crm.ID+`"]}`)
		h.Must(http.StatusNotFound, http.MethodDelete, path, h.BobKey, "")
		h.Must(http.StatusNoContent, http.MethodDelete, path, h.AliceKey, "")
		h.Must(http.StatusNotFound, http.MethodGet, path, h.AliceKey, "")
		h.Must(http.StatusNotFound, http.MethodDelete, path, h.AliceKey, "")
		var set wire.MCPSettings
		h.Must(http.StatusOK, http.MethodGet, "/mcp-servers/settings", h.AliceKey, "").Decode(t, &set)
		if !set.ToolMCP || len(set.ToolMCPServers) != 0 {
			t.Fatalf("settings after the delete: %+v", set)
		}
	})
}

func TestMCPSettingsRoutes(t *testing.T) {
	h := apptest.New(t)
	crm := createServer(h, h.AliceKey, `{"name":"crm","url":"https://crm.example.com/mcp"}`)
	wiki := createServer(h, h.AliceKey, `{"name":"wiki","url":"https://wiki.example.com/mcp"}`)
	bobs := createServer(h, h.BobKey, `{"name":"mine","url":"https://bob.example.com/mcp"}`)
	get := func(key string) string {
		return string(h.Must(http.StatusOK, http.MethodGet, "/mcp-servers/settings", key, "").Body)
	}
	if got := get(h.AliceKey); !sameJSONBytes(json.RawMessage(got), json.RawMessage(`{"toolMcp":false,"toolMcpServers":[]}`)) {
		t.Fatalf("settings never set: %s", got)
	}
	cases := []struct {
		name, key, body string
		want            int
		after           string // alice's settings afterwards
	}{
		{"on, two servers", h.AliceKey, `{"toolMcp":true,"toolMcpServers":["` + wiki.ID + `","` + crm.ID + `","` + wiki.ID + `"]}`, http.StatusOK,
			`{"toolMcp":true,"toolMcpServers":["` + wiki.ID + `","` + crm.ID + `"]}`},
		{"another user's server", h.AliceKey, `{"toolMcp":true,"toolMcpServers":["` + bobs.ID + `"]}`, http.StatusNotFound, ""},
		{"unknown server", h.AliceKey, `{"toolMcp":true,"toolMcpServers":["` + uuid.NewString() + `"]}`, http.StatusNotFound, ""},
		{"not an id", h.AliceKey, `{"toolMcp":true,"toolMcpServers":["crm"]}`, http.StatusUnprocessableEntity, ""},
		{"toolMcp missing", h.AliceKey, `{"toolMcpServers":[]}`, http.StatusUnprocessableEntity, ""},
		{"empty body", h.AliceKey, ``, http.StatusUnprocessableEntity, ""},
		{"wrong type", h.AliceKey, `{"toolMcp":"on"}`, http.StatusUnprocessableEntity, ""},
		{"unknown member", h.AliceKey, `{"toolMcp":false,"tool_mcp":true}`, http.StatusUnprocessableEntity, ""},
		{"bob's own change", h.BobKey, `{"toolMcp":true}`, http.StatusOK, ""},
		{"off, every server", h.AliceKey, `{"toolMcp":false}`, http.StatusOK, `{"toolMcp":false,"toolMcpServers":[]}`},
	}
	want := `{"toolMcp":false,"toolMcpServers":[]}`
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := h.With(t)
			r := h.Must(c.want, http.MethodPut, "/mcp-servers/settings", c.key, c.body)
			if c.after != "" {
				want = c.after
				if !sameJSONBytes(r.Body, json.RawMessage(want)) {
					t.Fatalf("answered %s, want %s", r.Body, want)
				}
			}
			if got := get(h.AliceKey); !sameJSONBytes(json.RawMessage(got), json.RawMessage(want)) {
				t.Fatalf("alice's settings %s, want %s", got, want)
			}
		})
	}
	if got := get(h.BobKey); !sameJSONBytes(json.RawMessage(got), json.RawMessage(`{"toolMcp":true,"toolMcpServers":[]}`)) {
		t.Fatalf("bob's settings %s", got)
	}
}

func TestToolOutputRoute(t *testing.T) {
	h := apptest.New(t)
	data := json.RawMessage(`{"items":[1,2,3],"note":"ação"}`)
	id, err := h.Tenant(h.Alice.ID).SaveToolOutput(t.Context(), "crm", "search", data)
	if err != nil {
		t.Fatal(err)
	}
	var o wire.ToolOutput
	h.Must(http.StatusOK, http.MethodGet, "/tool-outputs/"+id, h.AliceKey, "").Decode(t, &o)
	if o.ID != id || o.Server != "crm" || o.Tool != "search" || !sameJSONBytes(o.Data, data) || o.CreatedAt.IsZero() {
		t.Fatalf("got %+v", o)
	}
	cases := []struct{ name, key, id string }{
		{"another user's", h.BobKey, id},
		{"unknown id", h.AliceKey, uuid.NewString()},
		{"not an id", h.AliceKey, "not-a-uuid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := h.With(t)
			if r := h.Must(http.StatusNotFound, http.MethodGet, "/tool-outputs/"+c.id, c.key, ""); r.ErrorCode(t) != "NOT_FOUND" {
				t.Fatalf("body %s", r.Body)
			}
		})
	}
	h.Must(http.StatusUnauthorized, http.MethodGet, "/tool-outputs/"+id, "", "")
}
