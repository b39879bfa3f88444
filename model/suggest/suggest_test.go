package suggest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/intent"
)

// Suggestions fit what was asked: three to five of them, a beach warm
// enough to swim, snow in its cold season, near enough for a weekend.
func TestForFitsTheWish(t *testing.T) {
	sp, _ := gazetteer.Lookup("São Paulo")
	beach, ski := []intent.PlaceKind{intent.Beach}, []intent.PlaceKind{intent.Ski}
	tests := []struct {
		name string
		q    Query
		ok   func(Destination) bool
	}{
		{"warm in December", Query{Month: time.December, Wish: intent.DestinationWish{Climates: []intent.Climate{intent.Warm}}},
			func(d Destination) bool { return d.High >= 24 }},
		{"beach in July", Query{Month: time.July, Wish: intent.DestinationWish{Kinds: beach}},
			func(d Destination) bool { return d.is(intent.Beach) && d.High >= 25 }},
		{"an island in July", Query{Month: time.July, Wish: intent.DestinationWish{Kinds: []intent.PlaceKind{intent.Island}}},
			func(d Destination) bool { return d.is(intent.Island) }},
		{"snow in July", Query{Month: time.July, Wish: intent.DestinationWish{Climates: []intent.Climate{intent.Snow}}},
			func(d Destination) bool { return d.is(intent.Ski) && d.coldSeason }},
		{"skiing in January", Query{Month: time.January, Wish: intent.DestinationWish{Kinds: ski}},
			func(d Destination) bool { return d.is(intent.Ski) && d.High <= 10 }},
		{"a beach near São Paulo", Query{Month: time.December, Wish: intent.DestinationWish{Kinds: beach, Near: "SP"}, From: &sp},
			func(d Destination) bool { return d.DistanceKm <= 800 }},
		{"a beach for a weekend from São Paulo", Query{Month: time.December, Wish: intent.DestinationWish{Kinds: beach, Nights: 2}, From: &sp},
			func(d Destination) bool { return d.DistanceKm <= 800 }},
		{"mild in August", Query{Month: time.August, Wish: intent.DestinationWish{Climates: []intent.Climate{intent.Mild}}},
			func(d Destination) bool { return d.High >= 10 && d.High <= 24 }},
		{"cold in July", Query{Month: time.July, Wish: intent.DestinationWish{Climates: []intent.Climate{intent.Cold}}},
			func(d Destination) bool { return d.High <= 18 }},
		{"snow in July near São Paulo", Query{Month: time.July, Wish: intent.DestinationWish{Kinds: ski, Near: "SP"}, From: &sp},
			func(d Destination) bool { return d.is(intent.Ski) }},
		{"a beach in Brazil in July", Query{Month: time.July, Wish: intent.DestinationWish{Kinds: beach}, Country: "BR"},
			func(d Destination) bool { return d.Country == "BR" && d.is(intent.Beach) }},
	}
	for _, tt := range tests {
		got := For(tt.q, 5)
		if len(got) < 3 {
			t.Errorf("%s: %d suggestions, want 3 to 5", tt.name, len(got))
		}
		for _, d := range got {
			if !tt.ok(d) {
				t.Errorf("%s: %s (%d °C, %.0f km) does not fit", tt.name, d.Name, d.High, d.DistanceKm)
			}
		}
	}
}

// A wish that asks nothing destinations are ranked by gets none: the
// model restates it and asks for a city instead.
func TestForNothingToRankBy(t *testing.T) {
	for _, w := range []intent.DestinationWish{
		{},
		{Kinds: []intent.PlaceKind{intent.Romantic}},
		{Climates: []intent.Climate{intent.Dry}, Months: []time.Month{time.May}},
	} {
		if got := For(Query{Month: time.May, Wish: w}, 5); len(got) != 0 {
			t.Errorf("For(%+v) = %d suggestions, want none", w, len(got))
		}
	}
}

// A destination is proposed for the kind the wish asked for.
func TestKind(t *testing.T) {
	got := For(Query{Month: time.July, Wish: intent.DestinationWish{Kinds: []intent.PlaceKind{intent.Mountain}}}, 5)
	for _, d := range got {
		if d.Kind != intent.Mountain {
			t.Errorf("a wish for mountains: %s is proposed for %q", d.Name, d.Kind)
		}
	}
	got = For(Query{Month: time.July, Wish: intent.DestinationWish{Climates: []intent.Climate{intent.Warm}}}, 5)
	for _, d := range got {
		if d.Kind == "" || !d.is(d.Kind) {
			t.Errorf("a wish for warmth: %s is proposed for %q, a kind it does not have", d.Name, d.Kind)
		}
	}
}

func TestChoice(t *testing.T) {
	tests := []struct {
		text string
		want int
		ok   bool
	}{
		{"the second one", 1, true}, {"a 3", 2, true}, {"opção 4", 3, true}, {"first", 0, true}, {"a terceira", 2, true},
		{"I'll take the 2nd please", 1, true}, {"a 2ª, por favor, somos 4", 1, true},
		{"we are 2 adults and a kid", 0, false}, {"the sixth", 0, false}, {"Recife", 0, false},
	}
	for _, tt := range tests {
		got, ok := Choice(tt.text, 5)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("Choice(%q) = %d, %v; want %d, %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
}

// Every destination suggested is a city the catalog covers: one of the
// 500 most populous cities or of the destinations added to them (read
// from the command that seeds the catalog).
func TestDestinationsAreCovered(t *testing.T) {
	if len(places()) == 0 {
		t.Fatalf("the climate table did not load: %v", placesErr)
	}
	covered := map[string]bool{}
	for _, c := range gazetteer.Largest(500) {
		covered[c.Name+"|"+c.Country] = true
	}
	names := catalogNames(t, "../../cmd/tripgraph/seed.go")
	for _, n := range names {
		name, cc, ok := strings.Cut(n, "|")
		var c gazetteer.City
		if ok {
			c, ok = gazetteer.LookupIn(name, cc)
		} else {
			c, ok = gazetteer.Lookup(name)
		}
		if ok {
			covered[c.Name+"|"+c.Country] = true
		}
	}
	for _, p := range places() {
		if !covered[p.name+"|"+p.country] {
			t.Errorf("%s, %s is suggested but the catalog does not cover it", p.name, p.country)
		}
	}
}

// catalogNames reads the string lists of the seed command's source: the
// names of the destinations it adds to the most populous cities.
func catalogNames(t *testing.T, path string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Skipf("the seed command's source is not where it was: %v", err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				out = append(out, s)
			}
		}
		return true
	})
	return out
}
