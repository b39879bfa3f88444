package ui

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/locale"
	"github.com/tripgraph/tripgraph/nodes"
)

// TestDOMID checks that ids are kept as they are when safe, and that
// distinct ids stay distinct when they are not.
func TestDOMID(t *testing.T) {
	tests := []struct{ in, want string }{
		{"call_abc-123", "ui-call_abc-123"},
		{"a b", "ui-a.20b"},
		{"a.20b", "ui-a.2e20b"},
		{`"><x`, "ui-.22.3e.3cx"},
		{"", "ui-"},
	}
	for _, tt := range tests {
		if got := DOMID(tt.in); got != tt.want {
			t.Errorf("DOMID(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if MessageDOMID("m 1") != "msg-m.201" {
		t.Errorf("MessageDOMID = %q", MessageDOMID("m 1"))
	}
}

func TestNumbersAndPlurals(t *testing.T) {
	en, pt := WithLanguage(context.Background(), "en-GB"), WithLanguage(context.Background(), "pt-BR")
	tests := []struct{ got, want string }{
		{money(en, 1234.5, "EUR"), "€1,234.50"},
		{money(pt, 1234.5, "EUR"), "€ 1.234,50"},
		{money(en, 1000000, "BRL"), "R$1,000,000"},
		{money(pt, 12, "CHF"), "CHF 12"},
		{money(en, -5, "usd"), "$-5"},
		{plural(en, "n.nights", 1), "1 night"},
		{plural(en, "n.nights", 0), "0 nights"},
		{plural(pt, "n.guests", 2), "2 hóspedes"},
		{plural(pt, "n.albums", 1), "1 álbum"},
		{plural(en, "n.photos", 12345), "12,345 photos"},
		{decimal(pt, 4.55), "4,5"},
		{day(pt, "2026-12-19"), "19 dez 2026"},
		{day(en, "not a date"), "not a date"},
		{dateRange(en, "2026-05-04", "2026-05-04"), "4 May 2026"},
		{fmt.Sprint(nightsBetween("2026-03-28", "2026-04-02")), "5"},
		{fmt.Sprint(nightsBetween("2026-04-02", "2026-03-28")), "0"},
		{text(context.Background(), "send"), "Send"},
		{text(pt, "no.such.key"), "no.such.key"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}

// TestCatalogComplete checks that every label has every language and that
// plurals have both forms.
func TestCatalogComplete(t *testing.T) {
	for key, entry := range catalog {
		for _, l := range locale.All {
			if entry[l] == "" {
				t.Errorf("%s has no %s text", key, l)
			}
			if strings.HasPrefix(key, "n.") && strings.Count(entry[l], "|") != 1 {
				t.Errorf("%s (%s) is not singular|plural", key, l)
			}
		}
	}
}

// TestCuisineSlotsFiltered checks that the stylesheet hides other cuisines
// for every chip slot the restaurants list can give out, and that
// cuisines beyond the last slot get none.
func TestCuisineSlotsFiltered(t *testing.T) {
	css, err := fs.ReadFile(Assets(), StylesheetPath)
	if err != nil {
		t.Fatal(err)
	}
	for slot := 1; slot <= maxCuisineChips; slot++ {
		rule := fmt.Sprintf(`.restaurants:has(input[data-slot="%d"]:checked) .card:not([data-slot="%d"])`, slot, slot)
		if !strings.Contains(string(css), rule) {
			t.Errorf("app.css has no filtering rule for slot %d: %s", slot, rule)
		}
	}
	var rs []nodes.Restaurant
	for i := range maxCuisineChips + 3 {
		rs = append(rs, nodes.Restaurant{Cuisine: fmt.Sprint("c", i)})
	}
	if n := len(cuisines(rs)); n != maxCuisineChips {
		t.Errorf("%d chips, want %d", n, maxCuisineChips)
	}
	if s := cuisineSlot(rs, "c13"); s != 0 {
		t.Errorf("cuisine past the last chip has slot %d, want 0", s)
	}
	if s := cuisineSlot(rs, "c11"); s != maxCuisineChips {
		t.Errorf("last chip's slot = %d", s)
	}
}

// TestAssets checks that the stylesheet is embedded, and the scripts too
// when `make assets` ran before the build.
func TestAssets(t *testing.T) {
	if _, err := fs.Stat(Assets(), StylesheetPath); err != nil {
		t.Fatal(err)
	}
	_, htmxErr := fs.Stat(Assets(), HTMXPath)
	_, sseErr := fs.Stat(Assets(), SSEPath)
	if ScriptsEmbedded() != (htmxErr == nil && sseErr == nil) {
		t.Errorf("ScriptsEmbedded() = %v with htmx %v and sse %v", ScriptsEmbedded(), htmxErr, sseErr)
	}
	if ScriptsEmbedded() {
		data, _ := fs.ReadFile(Assets(), HTMXPath)
		if !strings.Contains(string(data), "htmx") {
			t.Error("the embedded htmx is not htmx")
		}
	}
}
