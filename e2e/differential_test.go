package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/mcpserver/memory"
	"github.com/tripgraph/tripgraph/media"
	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/offline"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/storetest"
	"github.com/tripgraph/tripgraph/tripdata"
)

// differentialRequests cover every kind of answer: stays, restaurants with
// and without a cuisine, photos, album stats, a city the catalog does not
// cover, and a place name two places share.
var differentialRequests = []struct {
	text   string
	wantUI []string // components the answer must have, so that the
	// comparison is not between two empty answers
}{
	{"4 nights in Lisbon in May, 3 of us", []string{"accommodations-list", "restaurants-list"}},
	{"quero ir para Lisboa de 3 a 7 de maio, somos 3", []string{"accommodations-list"}},
	{"3 nights in Tokyo from June 10 for two", []string{"accommodations-list"}},
	{"italian restaurants in Rome", []string{"restaurants-list"}},
	{"restaurantes japoneses em São Paulo", []string{"restaurants-list"}},
	{"where can we eat in Porto?", []string{"restaurants-list"}},
	{"mostre fotos do aniversário da Vivi", []string{"photo-grid"}},
	{"beach photos", []string{"photo-grid"}},
	{"mostre fotos da praia", []string{"photo-grid"}},
	{"stats of my Japan trip", []string{"trip-stats"}},
	{"estatísticas da minha viagem ao Japão", []string{"album-list", "trip-stats"}},
	{"2 nights in Reykjavik next week", []string{"accommodations-list", "restaurants-list"}},
	{"2 nights in Paris, Texas in May", []string{"accommodations-list"}},
	{"hotéis em Paris, Texas para 2 pessoas em maio", []string{"accommodations-list"}},
	{"3 nights in Paris in May, 2 of us", []string{"accommodations-list"}},
	{"I want to travel next month", nil},
}

// differentialCities are the catalog both backends are seeded with.
var differentialCities = []string{"Lisbon", "Porto", "Paris", "Rome", "Tokyo", "São Paulo", "Dallas", "New York", "Madrid"}

// The whole planner, on the offline model and through the MCP bridge,
// answers the same requests the same way on the in-memory backend as on
// PostgreSQL seeded by the same generator, at the same fixed time: the
// final assistant message, and every UI component's name and props. Photo
// links are compared without their query (the signature and expiry,
// which are made from the wall clock), and component and message ids are
// left out.
func TestPlannerSameOnBothBackends(t *testing.T) {
	st, demoID, cities := seededStore(t)
	mem := memory.NewDemo(cities, demoID)
	for _, req := range differentialRequests {
		t.Run(req.text, func(t *testing.T) {
			onMem := answer(t, mem, demoID, req.text)
			onPG := answer(t, st.Catalog, demoID, req.text)
			if d := diff(onMem, onPG); d != "" {
				t.Fatalf("the backends answer differently:\n%s", d)
			}
			for _, name := range req.wantUI {
				if !slices.ContainsFunc(onMem.ui, func(c shownComponent) bool { return c.Name == name }) {
					t.Fatalf("no %s in the answer: %+v", name, onMem)
				}
			}
		})
	}
	// The comparison sees a difference: the same backend with its
	// restaurants in another order.
	onMem := answer(t, mem, demoID, "italian restaurants in Rome")
	onReordered := answer(t, reversedRestaurants{mem}, demoID, "italian restaurants in Rome")
	if diff(onMem, onReordered) == "" {
		t.Fatal("restaurants in another order went unnoticed")
	}
}

// seededStore is a fresh database seeded with differentialCities and the
// demo user's albums; it returns the demo user's id and the cities.
func seededStore(t *testing.T) (*store.Store, string, []seed.City) {
	t.Helper()
	ctx := context.Background()
	st := storetest.Open(t, "e2e_differential")
	var cities []seed.City
	for _, name := range differentialCities {
		c, ok := gazetteer.Lookup(name)
		if !ok {
			t.Fatalf("the gazetteer lacks %s", name)
		}
		cities = append(cities, seed.City{Name: c.Name, GeoName: c.GeoName, Country: c.Country, Population: c.Population, Lat: c.Lat, Lng: c.Lon})
	}
	slices.SortStableFunc(cities, func(a, b seed.City) int { return b.Population - a.Population })
	if err := seed.Run(ctx, st, seed.Options{Cities: cities, DemoUser: "demo"}); err != nil {
		t.Fatal(err)
	}
	demo, err := st.Accounts.UserByName(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	return st, demo.ID, cities
}

// shown is what a traveller sees of one answer.
type shown struct {
	text string
	ui   []shownComponent
}

type shownComponent struct {
	Name  string
	Props string
}

// differentialBase is the public URL of the photo links.
const differentialBase = "http://tripgraph.test/"

// differentialNow is the clock of the model, the planner and the tools.
func differentialNow() time.Time { return time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC) }

// answer runs one request on a new thread of a planner whose tools are
// tripgraph's MCP server on backend, reached through the bridge.
func answer(t *testing.T, backend mcpserver.Backend, userID, text string) shown {
	t.Helper()
	cfg := mcpserver.Config{
		Backend: backend,
		URLs:    media.URLs{Base: strings.TrimSuffix(differentialBase, "/"), Secret: []byte("differential-secret"), TTL: time.Hour},
		Resolve: func(s string) (mcpserver.Place, bool) { p, ok := gazetteer.Resolve(s); return mcpserver.Place(p), ok },
		Now:     differentialNow,
	}
	bridge, err := mcpbridge.New(mcpbridge.Options{Servers: []mcpbridge.ServerConfig{{
		Name: "tripgraph", Transport: mcpbridge.Memory, Enabled: true, Builtin: true,
		NewServer: func(user string) *mcp.Server { c := cfg; c.User = user; return mcpserver.New(c) },
	}}})
	if err != nil {
		t.Fatal(err)
	}
	defer bridge.Close()
	m, err := offline.New(offline.WithClock(differentialNow))
	if err != nil {
		t.Fatal(err)
	}
	p, err := nodes.Build(nodes.Deps{Model: m, Now: differentialNow})
	if err != nil {
		t.Fatal(err)
	}
	g := p.For(nodes.Traveller{Tools: bridge.For(mcpbridge.User{ID: userID})}, graph.NewMemorySaver())
	in := nodes.Update{Messages: []nodes.Message{{ID: "0190c0de-0000-7000-8000-000000000001", Type: nodes.Human, Content: text}}}
	var state nodes.State
	for ev, err := range g.Run(context.Background(), graph.RunConfig[nodes.Update]{ThreadID: "0190c0de-0000-7000-8000-0000000000aa", Input: in}) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == graph.RunFinished {
			state = ev.State
		}
	}
	var out shown
	if n := len(state.Messages); n > 0 && state.Messages[n-1].Type == nodes.AI {
		out.text = state.Messages[n-1].Content
	}
	for _, c := range state.UI {
		out.ui = append(out.ui, shownComponent{Name: c.Name, Props: normalizeProps(c.Props)})
	}
	return out
}

// normalizeProps drops what legitimately differs between two runs: the
// toolCallId the model makes up for each call, and the query of photo
// links, whose signature and expiry come from the wall clock.
func normalizeProps(props json.RawMessage) string {
	var v any
	if err := json.Unmarshal(props, &v); err != nil {
		return string(props)
	}
	out, _ := json.Marshal(normalized(v))
	return string(out)
}

func normalized(v any) any {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "toolCallId")
		for k, x := range v {
			v[k] = normalized(x)
		}
	case []any:
		for i, x := range v {
			v[i] = normalized(x)
		}
	case string:
		if link, _, ok := strings.Cut(v, "?"); ok && strings.HasPrefix(v, differentialBase) {
			return link
		}
	}
	return v
}

// diff describes how two answers differ, or is empty.
func diff(a, b shown) string {
	var d []string
	if a.text != b.text {
		d = append(d, fmt.Sprintf("message:\n  memory:     %q\n  postgresql: %q", a.text, b.text))
	}
	if len(a.ui) != len(b.ui) {
		d = append(d, fmt.Sprintf("components: memory %d, postgresql %d", len(a.ui), len(b.ui)))
	}
	for i := range min(len(a.ui), len(b.ui)) {
		if a.ui[i] != b.ui[i] {
			d = append(d, fmt.Sprintf("component %d:\n  memory:     %s %s\n  postgresql: %s %s", i, a.ui[i].Name, a.ui[i].Props, b.ui[i].Name, b.ui[i].Props))
		}
	}
	return strings.Join(d, "\n")
}

// reversedRestaurants is a backend that lists restaurants in reverse.
type reversedRestaurants struct{ mcpserver.Backend }

func (r reversedRestaurants) Restaurants(ctx context.Context, f tripdata.RestaurantFilter) ([]tripdata.Restaurant, error) {
	list, err := r.Backend.Restaurants(ctx, f)
	slices.Reverse(list)
	return list, err
}

// diff sees each kind of difference and nothing else.
func TestDiffSeesEachDifference(t *testing.T) {
	base := shown{text: "Found 2 restaurants.", ui: []shownComponent{{"trip-details", `{"nights":2}`}, {"restaurants-list", `{"restaurants":[1,2]}`}}}
	tests := []struct {
		name  string
		other shown
		want  bool
	}{
		{"the same", shown{text: base.text, ui: slices.Clone(base.ui)}, false},
		{"another message", shown{text: "Found 3 restaurants.", ui: base.ui}, true},
		{"other props", shown{text: base.text, ui: []shownComponent{base.ui[0], {"restaurants-list", `{"restaurants":[2,1]}`}}}, true},
		{"another component", shown{text: base.text, ui: []shownComponent{base.ui[0], {"accommodations-list", base.ui[1].Props}}}, true},
		{"a missing component", shown{text: base.text, ui: base.ui[:1]}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := diff(base, tt.other) != ""; got != tt.want {
				t.Fatalf("diff found a difference: %v, want %v", got, tt.want)
			}
		})
	}
}
