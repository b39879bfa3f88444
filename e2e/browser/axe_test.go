package browser

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tripgraph/tripgraph/testing/npmtest"
)

// axeScript is axe-core's browser script, read once from node_modules.
var axeScript struct {
	once sync.Once
	src  string
	err  error
}

func loadAxe(t testing.TB) string {
	t.Helper()
	npmtest.Install(t, ".")
	axeScript.once.Do(func() {
		data, err := os.ReadFile(filepath.Join("node_modules", "axe-core", "axe.min.js"))
		axeScript.src, axeScript.err = string(data), err
	})
	if axeScript.err != nil {
		t.Fatalf("reading axe-core: %v", axeScript.err)
	}
	return axeScript.src
}

// axeViolation is one rule axe-core found broken, with where.
type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

func (v axeViolation) String() string {
	return fmt.Sprintf("%s (%s): %s\n    %s", v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n    "))
}

// axeRun runs every axe-core rule on the document and keeps the serious
// and critical violations.
const axeRun = `axe.run(document, {resultTypes: ['violations']}).then(r => r.violations
	.filter(v => v.impact === 'serious' || v.impact === 'critical')
	.map(v => ({id: v.id, impact: v.impact, help: v.help,
		nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.html.slice(0, 160))})))`

// checkAccessibility injects axe-core into the page the tab shows and fails
// the test with every serious or critical violation, listed.
func checkAccessibility(p *tab) {
	p.t.Helper()
	src := loadAxe(p.t)
	if _, err := run(p, chromedp.Evaluate[chromedp.Void](src)); err != nil {
		p.t.Fatalf("injecting axe-core: %v", err)
	}
	violations := eval[[]axeViolation](p, axeRun)
	if len(violations) == 0 {
		return
	}
	var b strings.Builder
	for _, v := range violations {
		b.WriteString("\n  " + v.String())
	}
	p.t.Errorf("axe-core found %d serious or critical violations on %s:%s", len(violations), eval[string](p, "location.pathname"), b.String())
}
