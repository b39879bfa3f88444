package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sony/gobreaker/v2"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/nodes"
)

// entry is one tool as the model sees it, and where it comes from.
type entry struct {
	name      string // the name the model uses
	server    ServerConfig
	tool      *mcp.Tool
	described nodes.Tool // the tool as the model sees it (describe), made with the catalog
}

// catalog is a user's tools, ranked and named, and when it was made.
type catalog struct {
	entries []entry
	byName  map[string]entry
	at      time.Time
}

// userCatalog returns the user's tools, cached for the tool list TTL.
func (b *Bridge) userCatalog(ctx context.Context, u User) (*catalog, error) {
	user := u.ID
	b.mu.Lock()
	c, ok := b.catalogs[user]
	b.mu.Unlock()
	if ok && time.Since(c.at) < b.opts.ToolListTTL {
		return c, nil
	}
	servers, err := b.servers(ctx, u)
	if err != nil {
		return nil, err
	}
	// The servers are listed at once: a slow one costs its own deadline,
	// not the sum of all.
	lists := make([][]*mcp.Tool, len(servers))
	errs := make([]error, len(servers))
	var wg sync.WaitGroup
	for i, cfg := range servers {
		wg.Go(func() { lists[i], errs[i] = b.listServer(ctx, user, cfg) })
	}
	wg.Wait()
	failed := 0
	for _, err := range errs {
		if err != nil {
			failed++
		}
	}
	if failed > 0 && failed == len(servers) {
		return nil, unavailable(servers[0].Name, "")
	}
	c = buildCatalog(servers, lists)
	if failed == 0 {
		b.mu.Lock()
		b.catalogs[user] = c
		b.mu.Unlock()
	}
	return c, nil
}

// listServer lists one server's tools under its deadline and breaker,
// logging a failure once.
func (b *Bridge) listServer(ctx context.Context, user string, cfg ServerConfig) ([]*mcp.Tool, error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout())
	defer cancel()
	s := b.acquire(user, cfg)
	defer s.release()
	tools, err := guarded(parent, b, user, cfg, func() ([]*mcp.Tool, error) { return s.listTools(ctx) })
	if err != nil && !errors.Is(err, gobreaker.ErrOpenState) && !errors.Is(err, gobreaker.ErrTooManyRequests) {
		b.logFailure(ctx, "listing the tools of an MCP server", cfg, "", err) // an open breaker was logged when it opened
	}
	return tools, err
}

// servers are the built-in and operator servers, then the user's own
// enabled ones.
func (b *Bridge) servers(ctx context.Context, u User) ([]ServerConfig, error) {
	out := slices.Clone(b.opts.Servers)
	if u.Servers == nil || u.ID == "" {
		return out, nil
	}
	mine, err := u.Servers.Servers(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the user's MCP servers: %w", err)
	}
	for _, cfg := range mine {
		cfg.Builtin, cfg.fromOperator = false, false
		if !cfg.Enabled {
			continue
		}
		if err := cfg.check(); err != nil {
			b.log.Warn("skipping an unusable MCP server", "user", u.ID, "err", err)
			continue
		}
		out = append(out, cfg)
	}
	return out, nil
}

// buildCatalog names and ranks the servers' tools. Built-in tools keep
// their names; another tool whose name is already taken, or used by more
// than one server, is named server__tool. Recommended tools come first,
// heavy utilities last, otherwise in the servers' order.
func buildCatalog(servers []ServerConfig, lists [][]*mcp.Tool) *catalog {
	uses := map[string]int{}
	for i := range servers {
		for _, t := range allowed(servers[i], lists[i]) {
			uses[t.Name]++
		}
	}
	c := &catalog{byName: map[string]entry{}, at: time.Now()}
	for i, cfg := range servers {
		for _, t := range allowed(cfg, lists[i]) {
			name := t.Name
			if _, taken := c.byName[name]; taken || (!cfg.Builtin && uses[name] > 1) {
				name = namespaced(cfg.Name, t.Name)
			}
			if _, taken := c.byName[name]; taken {
				continue
			}
			e := entry{name: name, server: cfg, tool: t}
			e.described = e.describe()
			c.entries = append(c.entries, e)
			c.byName[name] = e
		}
	}
	slices.SortStableFunc(c.entries, func(a, b entry) int { return rank(a) - rank(b) })
	return c
}

// allowed filters a server's tools by its allow-list.
func allowed(cfg ServerConfig, tools []*mcp.Tool) []*mcp.Tool {
	if len(cfg.AllowedTools) == 0 {
		return tools
	}
	var out []*mcp.Tool
	for _, t := range tools {
		if slices.Contains(cfg.AllowedTools, t.Name) {
			out = append(out, t)
		}
	}
	return out
}

var unsafeNameChars = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// namespaced is server__tool in the characters model APIs accept, at most
// 64 of them.
func namespaced(server, tool string) string {
	name := unsafeNameChars.ReplaceAllString(server, "_") + "__" + unsafeNameChars.ReplaceAllString(tool, "_")
	if len(name) > 64 {
		name = name[:64]
	}
	return name
}

// heavyWords mark utilities that return whole data sets and fill the
// model's context.
var heavyWords = []string{"dump", "listall", "getall", "exportall", "fetchall", "export", "backup"}

// rank orders tools: recommended 0, others 1, heavy utilities 2.
func rank(e entry) int {
	if slices.Contains(e.server.Recommended, e.tool.Name) {
		return 0
	}
	folded := strings.ToLower(strings.NewReplacer("_", "", "-", "", ".", "").Replace(e.tool.Name))
	for _, w := range heavyWords {
		if strings.Contains(folded, w) {
			return 2
		}
	}
	return 1
}

// describe is the tool as the model sees it: without the userId
// parameter, which the bridge fills in itself.
func (e entry) describe() nodes.Tool {
	return nodes.Tool{Name: e.name, Description: e.tool.Description, InputSchema: withoutUserID(e.tool.InputSchema), Card: e.card()}
}

// card is the card that shows the tool's results, as a built-in server
// names it in the tool's metadata; "" for any other server's tool, whose
// results no card of ours is made for.
func (e entry) card() string {
	if !e.server.Builtin {
		return ""
	}
	name, _ := e.tool.Meta[card.Meta].(string)
	return name
}

// withoutUserID removes userId from a JSON Schema's properties and
// required list.
func withoutUserID(schema any) json.RawMessage {
	data, err := json.Marshal(schema)
	if err != nil || firstByte(data) != '{' {
		return nil
	}
	var s map[string]json.RawMessage
	if json.Unmarshal(data, &s) != nil {
		return data
	}
	var props map[string]json.RawMessage
	if json.Unmarshal(s["properties"], &props) == nil && props[userIDArg] != nil {
		delete(props, userIDArg)
		s["properties"], _ = json.Marshal(props)
	}
	var required []string
	if json.Unmarshal(s["required"], &required) == nil && slices.Contains(required, userIDArg) {
		required = slices.DeleteFunc(required, func(r string) bool { return r == userIDArg })
		s["required"], _ = json.Marshal(required)
	}
	out, _ := json.Marshal(s)
	return out
}

// takesUserID reports whether a tool's schema declares userId.
func takesUserID(t *mcp.Tool) bool {
	m, ok := t.InputSchema.(map[string]any)
	if !ok {
		return false
	}
	props, ok := m["properties"].(map[string]any)
	return ok && props[userIDArg] != nil
}

const userIDArg = "userId"
