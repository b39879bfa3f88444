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
)

var today = time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)

func TestRead(t *testing.T) {
	tests := []struct {
		text, lang string
		ok         bool
		wishes     []Wish
		month      time.Month
		from       string
		near       bool
	}{
		{"somewhere warm in December?", "en", true, []Wish{Warm}, time.December, "", false},
		{"praia perto de SP pra um fds", "pt", true, []Wish{Beach}, time.December, "São Paulo", true},
		{"quero esquiar em julho", "pt", true, []Wish{Snow}, time.July, "", false},
		{"a cheap city break in march, near Lisbon", "en", true, []Wish{Cheap, City}, time.March, "Lisbon", true},
		{"3 nights from friday in Quebec City", "en", false, nil, 0, "", false},
		{"beach in Salvador in May", "en", false, nil, 0, "", false},
		{"book the table for 8", "en", false, nil, 0, "", false},
	}
	for _, tt := range tests {
		q, ok := Read(tt.text, tt.lang, today)
		if ok != tt.ok {
			t.Errorf("Read(%q) ok = %v, want %v", tt.text, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		from := ""
		if q.From != nil {
			from = q.From.Name
		}
		if strings.Join(wishNames(q.Wishes), ",") != strings.Join(wishNames(tt.wishes), ",") || q.Month != tt.month || from != tt.from || q.Near != tt.near {
			t.Errorf("Read(%q) = %v %v from %q near %v; want %v %v from %q near %v", tt.text, q.Wishes, q.Month, from, q.Near, tt.wishes, tt.month, tt.from, tt.near)
		}
	}
}

func wishNames(ws []Wish) []string {
	var out []string
	for _, w := range ws {
		out = append(out, string(w))
	}
	return out
}

// Suggestions fit what was asked: three to five of them, a beach warm
// enough to swim, snow in its cold season, near enough for a weekend.
func TestForFitsTheWish(t *testing.T) {
	sp, _ := gazetteer.Lookup("São Paulo")
	tests := []struct {
		name string
		q    Query
		ok   func(Destination) bool
	}{
		{"warm in December", Query{Month: time.December, Wishes: []Wish{Warm}}, func(d Destination) bool { return d.High >= 24 }},
		{"beach in July", Query{Month: time.July, Wishes: []Wish{Beach}}, func(d Destination) bool { return d.is(Beach) && d.High >= 25 }},
		{"snow in July", Query{Month: time.July, Wishes: []Wish{Snow}}, func(d Destination) bool { return d.is(Snow) && d.coldSeason }},
		{"snow in January", Query{Month: time.January, Wishes: []Wish{Snow}}, func(d Destination) bool { return d.is(Snow) && d.High <= 10 }},
		{"a beach near São Paulo", Query{Month: time.December, Wishes: []Wish{Beach}, From: &sp, Near: true}, func(d Destination) bool { return d.DistanceKm <= 800 }},
		{"cool in August", Query{Month: time.August, Wishes: []Wish{Cool}}, func(d Destination) bool { return d.High >= 10 && d.High <= 24 }},
		{"snow in July near São Paulo", Query{Month: time.July, Wishes: []Wish{Snow}, From: &sp, Near: true}, func(d Destination) bool { return d.is(Snow) }},
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

func TestReason(t *testing.T) {
	sp, _ := gazetteer.Lookup("São Paulo")
	got := For(Query{Month: time.December, Wishes: []Wish{Beach}, From: &sp, Near: true}, 1)
	if len(got) != 1 {
		t.Fatalf("no suggestion")
	}
	if r := got[0].Reason("pt"); !strings.Contains(r, "praias") || !strings.Contains(r, "dezembro") || !strings.Contains(r, "km de São Paulo") {
		t.Errorf("reason %q does not say beach, month and distance", r)
	}
}

func TestChoice(t *testing.T) {
	tests := []struct {
		text string
		want int
		ok   bool
	}{
		{"the second one", 1, true}, {"a 3", 2, true}, {"opção 4", 3, true}, {"first", 0, true},
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
