package ui_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/ui"
)

// render renders a component in a language and returns its HTML.
func render(t *testing.T, lang string, c templ.Component) string {
	t.Helper()
	var b bytes.Buffer
	if err := c.Render(ui.WithLanguage(context.Background(), lang), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// component builds a UI record with props encoded as JSON.
func component(t testing.TB, id, name string, props any) nodes.UIComponent {
	t.Helper()
	data, err := json.Marshal(props)
	if err != nil {
		t.Fatal(err)
	}
	return nodes.UIComponent{ID: id, Name: name, Props: data, MessageID: "m1"}
}

// checkHTML asserts that html contains every want and none of the absent.
func checkHTML(t *testing.T, html string, want, absent []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(html, w) {
			t.Errorf("missing %q in\n%s", w, html)
		}
	}
	for _, a := range absent {
		if strings.Contains(html, a) {
			t.Errorf("unexpected %q in\n%s", a, html)
		}
	}
}
