package archtest

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rule forbids the packages a pattern matches to import what another
// matches, and says why.
type rule struct {
	packages  string // a package of ours, or a prefix ending in "/..."
	forbidden []string
	why       string
}

// rules are the boundaries docs/architecture.md draws between packages.
var rules = []rule{
	{"graph", []string{"...", "-internal/..."}, "the engine knows nothing of trips, HTTP, SQL or LLMs: it imports only internal helpers"},
	{"nodes", []string{"store/...", "server/...", "mcpbridge", "mcpserver/...", "net/http", "github.com/jackc/pgx/...",
		"github.com/modelcontextprotocol/...", "github.com/labstack/echo/..."}, "the planner talks no HTTP, SQL or MCP: tools come through its Tools interface"},
	{"mcpbridge", []string{"store/...", "server/...", "mcpserver/..."}, "the bridge takes each user's servers from its caller"},
	{"mcpserver/...", []string{"store/...", "-store/accounts", "server/...", "nodes", "mcpbridge"},
		"our MCP server reads its own Backend, which the store implements (and checks API keys against the accounts)"},
	{"store/...", []string{"server/...", "nodes", "mcpbridge", "mcpserver/...", "ui"}, "the store holds no business rules above it"},
	{"server/tenant", []string{"github.com/labstack/echo/...", "server/httpx", "server/api", "server/web", "server/runner"}, "the tenant is the port below HTTP: the runner uses it too"},
	{"server/runner", []string{"github.com/labstack/echo/...", "server/httpx", "server/api", "server/web"}, "the runner does not depend on the HTTP layer"},
	{"ui", []string{"server/...", "store/..."}, "the components render view values; they reach no server or store"},
	{"model/...", []string{"nodes", "server/...", "store/...", "mcpbridge", "mcpserver/..."}, "the models are what the planner calls, not the other way round"},
	{"...", []string{"model"}, "only the binary chooses the model (package model); the planner is given one"},
	{"telemetry", []string{"...", "-graph", "-internal/..."}, "tracing sits under every layer that traces: it knows only the engine's types"},
}

// The layers that trace do it through OpenTelemetry's API (and package
// telemetry); only telemetry and the binary set the SDK up and choose
// where spans go.
func init() {
	for _, pkg := range []string{"graph", "nodes", "model/...", "mcpbridge", "mcpserver/...", "server/...", "store/...", "ui"} {
		rules = append(rules, rule{pkg, []string{"go.opentelemetry.io/otel/sdk/...", "go.opentelemetry.io/otel/exporters/...",
			"github.com/exaring/otelpgx"}, "only telemetry and the binary set tracing up: the layers use OpenTelemetry's API"})
	}
}

// exempt are the packages that may break the rules whose packages match
// them: the binary, which wires everything, and what exists for tests.
func exempt(pkg string) bool {
	first, _, _ := strings.Cut(pkg, "/")
	return first == "cmd" || first == "testing" || first == "bench" || first == "e2e" || first == "interop" ||
		strings.HasSuffix(filepath.Base(pkg), "test")
}

// TestImportRules fails on any import a rule forbids, outside tests.
func TestImportRules(t *testing.T) {
	for pkg, imports := range allImports(t) {
		if exempt(pkg) {
			continue
		}
		for _, r := range rules {
			if !matches(r.packages, pkg) {
				continue
			}
			for _, imp := range imports {
				if forbids(r.forbidden, imp) {
					t.Errorf("%s imports %s: %s", pkg, imp, r.why)
				}
			}
		}
	}
}

// TestNoTestCodeInTheProduct fails when a package of the product imports
// the testing package or a helper under testing/: test helpers live in
// folders of their own.
func TestNoTestCodeInTheProduct(t *testing.T) {
	for pkg, imports := range allImports(t) {
		if exempt(pkg) {
			continue
		}
		for _, imp := range imports {
			if imp == "testing" || strings.HasPrefix(imp, "testing/") {
				t.Errorf("%s imports %s: the product's packages hold no test code", pkg, imp)
			}
		}
	}
}

// forbids reports whether the patterns forbid an import: the last pattern
// that matches decides, a leading "-" allowing it again.
func forbids(patterns []string, imp string) bool {
	out := false
	for _, p := range patterns {
		allow := strings.HasPrefix(p, "-")
		if matches(strings.TrimPrefix(p, "-"), imp) {
			out = !allow
		}
	}
	return out
}

// matches reports whether a pattern matches an import path: exactly, or
// as a prefix when it ends in "/..." ("..." alone is any package of ours).
func matches(pattern, path string) bool {
	switch {
	case pattern == "...":
		return !strings.Contains(strings.Split(path, "/")[0], ".") && !isStd(path)
	case strings.HasSuffix(pattern, "/..."):
		prefix := strings.TrimSuffix(pattern, "/...")
		return path == prefix || strings.HasPrefix(path, prefix+"/")
	}
	return path == pattern
}

// allImports are every package of the module (tests aside) with every
// package each imports: ours relative to the module, others as they are.
func allImports(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports", module+"/...")
	cmd.Dir = filepath.Join("..", "..")
	data, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	out := map[string][]string{}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		var imports []string
		for _, imp := range p.Imports {
			imports = append(imports, relative(imp))
		}
		out[relative(p.ImportPath)] = imports
	}
	return out
}

// stdPackages are the standard library's packages, found once.
var stdPackages map[string]bool

// isStd reports whether path is a package of the standard library.
func isStd(path string) bool {
	if stdPackages == nil {
		stdPackages = map[string]bool{}
		data, _ := exec.Command("go", "list", "std").Output()
		for _, p := range strings.Fields(string(data)) {
			stdPackages[p] = true
		}
	}
	return stdPackages[path]
}
