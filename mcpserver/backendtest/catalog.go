package backendtest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
)

// stay is list-accommodations' arguments for a stay starting days after
// Today, with changes.
func stay(location string, days, nights, guests int) map[string]any {
	return map[string]any{"location": location, "startDate": day(days), "endDate": day(days + nights), "guests": guests}
}

// day is the date days after Today.
func day(days int) string { return Today.AddDate(0, 0, days).Format("2006-01-02") }

func list(v map[string]any, key string) []map[string]any {
	raw, _ := v[key].([]any)
	out := make([]map[string]any, len(raw))
	for i, x := range raw {
		out[i], _ = x.(map[string]any)
	}
	return out
}

func num(v any) float64 { f, _ := v.(float64); return f }

func (s *suite) want(t *testing.T, r Result, code errcode.Code) {
	t.Helper()
	if r.Code != code {
		t.Fatalf("code %q (%s), want %q; result %v", r.Code, r.Message, code, r.Value)
	}
}

func (s *suite) accommodations(t *testing.T) {
	r := Call(t, s.user, "list-accommodations", stay("Lisbon", 30, 3, 2))
	s.want(t, r, "")
	got := list(r.Value, "accommodations")
	if r.Value["covered"] != true || r.Value["location"] != "Lisbon" || r.Value["nights"] != 3.0 || len(got) == 0 {
		t.Fatalf("Lisbon = %v", r.Value)
	}
	areas := []string{"centre", "north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"}
	for i, a := range got {
		if num(a["capacity"]) < 2 {
			t.Errorf("%s holds %v guests, fewer than 2", a["name"], a["capacity"])
		}
		if km := num(a["centreKm"]); !slices.Contains(areas, fmt.Sprint(a["area"])) || (a["area"] == "centre") != (km < 1) || km > 50 {
			t.Errorf("%s is %v km from the centre, in the area %q", a["name"], a["centreKm"], a["area"])
		}
		if want := math.Round(num(a["nightlyPrice"])*3*100) / 100; a["totalPrice"] != want {
			t.Errorf("%s: totalPrice %v, want %v (3 nights, in cents)", a["name"], a["totalPrice"], want)
		}
		if i > 0 {
			p := got[i-1]
			if num(p["rating"]) < num(a["rating"]) || (p["rating"] == a["rating"] && num(p["nightlyPrice"]) > num(a["nightlyPrice"])) {
				t.Errorf("%s comes before %s: not best rated, then cheapest, first", p["name"], a["name"])
			}
		}
	}
	for _, name := range []string{"Lisboa", "LISBON", "lisbon", "Lisbon, Portugal"} {
		other := Call(t, s.user, "list-accommodations", stay(name, 30, 3, 2))
		if other.Value["location"] != "Lisbon" || len(list(other.Value, "accommodations")) != len(got) {
			t.Errorf("%q = %v, want Lisbon's %d places", name, other.Value, len(got))
		}
	}
	big := Call(t, s.user, "list-accommodations", stay("Lisbon", 30, 3, 6))
	if n := len(list(big.Value, "accommodations")); n >= len(got) {
		t.Errorf("6 guests: %d places, not fewer than for 2 (%d)", n, len(got))
	}
	for _, tc := range []struct {
		name string
		args map[string]any
		code errcode.Code
	}{
		{"no guests", stay("Lisbon", 30, 3, 0), errcode.BadRequest},
		{"too many guests", stay("Lisbon", 30, 3, 21), errcode.BadRequest},
		{"most guests", stay("Lisbon", 30, 3, 20), ""},
		{"no nights", stay("Lisbon", 30, 0, 2), errcode.BadRequest},
		{"end before start", stay("Lisbon", 30, -2, 2), errcode.BadRequest},
		{"90 nights", stay("Lisbon", 30, 90, 2), ""},
		{"91 nights", stay("Lisbon", 30, 91, 2), errcode.BadRequest},
		{"no location", stay(" ", 30, 3, 2), errcode.BadRequest},
		{"location too long", stay(strings.Repeat("é", 201), 30, 3, 2), errcode.BadRequest},
		{"location of 200 characters", stay(strings.Repeat("é", 200), 30, 3, 2), ""},
		{"not a date", map[string]any{"location": "Lisbon", "startDate": "tomorrow", "endDate": day(3), "guests": 2}, errcode.BadRequest},
		{"impossible date", map[string]any{"location": "Lisbon", "startDate": "2031-02-30", "endDate": "2031-03-03", "guests": 2}, errcode.BadRequest},
		{"guests as text", map[string]any{"location": "Lisbon", "startDate": day(1), "endDate": day(3), "guests": "two"}, errcode.BadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) { s.want(t, Call(t, s.user, "list-accommodations", tc.args), tc.code) })
	}
	first := got[0]
	one := Call(t, s.user, "get-accommodation", map[string]any{"id": first["id"]})
	s.want(t, one, "")
	for _, k := range []string{"id", "name", "city", "kind", "nightlyPrice", "currency", "rating", "imageUrl", "capacity"} {
		if one.Value[k] != first[k] {
			t.Errorf("get-accommodation %s = %v, list-accommodations said %v", k, one.Value[k], first[k])
		}
	}
	if _, ok := one.Value["totalPrice"]; ok {
		t.Errorf("get-accommodation without dates has a totalPrice: %v", one.Value)
	}
	for _, id := range []string{"nope", "00000000-0000-0000-0000-000000000000"} {
		s.want(t, Call(t, s.user, "get-accommodation", map[string]any{"id": id}), errcode.NotFound)
	}
}

func (s *suite) places(t *testing.T) {
	texas := Call(t, s.user, "list-accommodations", stay("Paris, Texas", 10, 2, 1))
	place, _ := texas.Value["place"].(map[string]any)
	if texas.Value["covered"] != false || len(list(texas.Value, "accommodations")) != 0 {
		t.Errorf("Paris, Texas is answered with another city's places: %v", texas.Value)
	}
	if place["name"] != "Paris" || place["region"] != "TX" || place["country"] != "US" {
		t.Errorf("Paris, Texas was understood as %v", place)
	}
	nearby := list(texas.Value, "nearby")
	if len(nearby) == 0 || nearby[0]["name"] != "Dallas" || !strings.Contains(fmt.Sprint(texas.Value["message"]), "Dallas") {
		t.Errorf("Paris, Texas: nearest covered cities %v, message %q; want Dallas first", nearby, texas.Value["message"])
	}
	france := Call(t, s.user, "list-accommodations", stay("Paris", 10, 2, 1))
	if fr, _ := france.Value["place"].(map[string]any); france.Value["covered"] != true || fr["country"] != "FR" {
		t.Errorf("Paris = %v, want Paris, France, covered", france.Value)
	}
	for _, tc := range []struct{ location, region, nearest string }{
		{"Gramado", "", "Porto Alegre"}, {"Braga", "", "Porto"}, {"Sintra", "", "Lisbon"},
		{"Springfield, Illinois", "IL", "Dallas"}, {"Springfield, MA", "MA", "New York"},
	} {
		r := Call(t, s.user, "list-restaurants", map[string]any{"location": tc.location})
		near := list(r.Value, "nearby")
		place, _ := r.Value["place"].(map[string]any)
		if r.Value["covered"] != false || len(near) == 0 || near[0]["name"] != tc.nearest || fmt.Sprint(place["region"]) != fmt.Sprint(orNil(tc.region)) {
			t.Errorf("%s: covered %v, understood as %v, nearby %v; want %s nearest", tc.location, r.Value["covered"], place, near, tc.nearest)
			continue
		}
		for i := 1; i < len(near); i++ {
			home, prevHome := near[i]["country"] == place["country"], near[i-1]["country"] == place["country"]
			if home && !prevHome || home == prevHome && num(near[i]["distanceKm"]) < num(near[i-1]["distanceKm"]) {
				t.Errorf("%s: nearby cities not those of its country first, nearest first: %v", tc.location, near)
			}
		}
	}
	unknown := Call(t, s.user, "list-restaurants", map[string]any{"location": "Xyzzyville"})
	if unknown.Value["covered"] != false || unknown.Value["message"] == "" {
		t.Errorf("an unknown place = %v, want not covered, with a message", unknown.Value)
	}
}

func (s *suite) dates(t *testing.T) {
	tools, err := s.user.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if !slices.Contains([]string{"list-accommodations", "get-accommodation", "book-accommodation"}, tool.Name) {
			continue
		}
		schema, _ := json.Marshal(tool.InputSchema)
		if !strings.Contains(string(schema), "from today (UTC) to 730 days ahead") || !strings.Contains(string(schema), "1 to 90 nights") {
			t.Errorf("%s's input schema does not give the date bounds: %s", tool.Name, schema)
		}
	}
	today := Today.Format("2006-01-02")
	id := s.placeIn(t, "London", 2)
	for _, tc := range []struct {
		name, start string
		code        errcode.Code
	}{
		{"today", today, ""},
		{"yesterday", day(-1), errcode.BadRequest},
		{"2001", "2001-05-01", errcode.BadRequest},
		{"year 0000", "0000-01-01", errcode.BadRequest},
		{"730 days ahead", day(730), ""},
		{"731 days ahead", day(731), errcode.BadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			end := nextDay(tc.start)
			r := Call(t, s.user, "list-accommodations", map[string]any{"location": "London", "startDate": tc.start, "endDate": end, "guests": 2})
			s.want(t, r, tc.code)
			if tc.code != "" && !strings.Contains(r.Message, today) {
				t.Errorf("the refusal %q does not name today, %s", r.Message, today)
			}
			b := Call(t, s.user, "book-accommodation", map[string]any{"id": id, "startDate": tc.start, "endDate": end,
				"guests": 1, "idempotencyKey": "dates-" + tc.name})
			s.want(t, b, tc.code)
			g := Call(t, s.user, "get-accommodation", map[string]any{"id": id, "startDate": tc.start, "endDate": end})
			s.want(t, g, tc.code)
		})
	}
}

// nextDay is the day after a YYYY-MM-DD date.
func nextDay(date string) string {
	d, _ := time.Parse(time.DateOnly, date)
	return d.AddDate(0, 0, 1).Format(time.DateOnly)
}

// placeIn returns the id of one of the city's places holding guests,
// different for each call, so that booking cases do not meet.
func (s *suite) placeIn(t *testing.T, city string, guests int) string {
	t.Helper()
	r := Call(t, s.user, "list-accommodations", stay(city, 700, 1, guests))
	got := list(r.Value, "accommodations")
	s.used++
	if len(got) <= s.used%len(got) {
		t.Fatalf("%s has no places for %d guests: %v", city, guests, r.Value)
	}
	return got[len(got)-1-s.used%len(got)]["id"].(string)
}

// listed is the place with this id as list-accommodations lists the
// city's places far ahead (as placeIn finds them).
func (s *suite) listed(t *testing.T, city, id string) map[string]any {
	t.Helper()
	for _, a := range list(Call(t, s.user, "list-accommodations", stay(city, 700, 1, 1)).Value, "accommodations") {
		if a["id"] == id {
			return a
		}
	}
	t.Fatalf("%s does not list %s", city, id)
	return nil
}

func (s *suite) restaurants(t *testing.T) {
	r := Call(t, s.user, "list-restaurants", map[string]any{"location": "Tokyo"})
	s.want(t, r, "")
	got := list(r.Value, "restaurants")
	if r.Value["covered"] != true || len(got) == 0 {
		t.Fatalf("Tokyo = %v", r.Value)
	}
	for i := 1; i < len(got); i++ {
		p, c := got[i-1], got[i]
		if (p["popular"] == false && c["popular"] == true) || (p["popular"] == c["popular"] && num(p["rating"]) < num(c["rating"])) {
			t.Errorf("%s comes before %s: not popular, then best rated, first", p["name"], c["name"])
		}
	}
	for _, price := range []string{"$", "$$", "$$$", "$$$$"} {
		for _, x := range list(Call(t, s.user, "list-restaurants", map[string]any{"location": "Tokyo", "priceRange": price}).Value, "restaurants") {
			if x["priceRange"] != price {
				t.Errorf("priceRange %s gave %v", price, x)
			}
		}
	}
	s.want(t, Call(t, s.user, "list-restaurants", map[string]any{"location": "Tokyo", "priceRange": "cheap"}), errcode.BadRequest)
	s.want(t, Call(t, s.user, "list-restaurants", map[string]any{"location": "Tokyo", "cuisine": strings.Repeat("a", 201)}), errcode.BadRequest)
	s.want(t, Call(t, s.user, "list-restaurants", map[string]any{}), errcode.BadRequest)
}

func (s *suite) cuisines(t *testing.T) {
	for _, tc := range []struct{ city, cuisine, want string }{
		{"Lisbon", "portuguesa", "Portuguese"}, {"Porto", "Portuguese", "Portuguese"}, {"Porto", "portugueses", "Portuguese"},
		{"São Paulo", "brasileira", "Brazilian"}, {"Rio de Janeiro", "comida brasileira", ""}, {"Tokyo", "japonesa", "Japanese"},
		{"Tokyo", "JAPONESES", "Japanese"}, {"Tokyo", "japan", "Japanese"}, {"Paris", "francesa", "French"}, {"London", "britânica", "British"},
	} {
		r := Call(t, s.user, "list-restaurants", map[string]any{"location": tc.city, "cuisine": tc.cuisine})
		got := list(r.Value, "restaurants")
		if tc.want == "" {
			continue
		}
		if len(got) == 0 {
			t.Errorf("%s, cuisine %q: no restaurants (%v)", tc.city, tc.cuisine, r.Value)
		}
		for _, x := range got {
			if x["cuisine"] != tc.want {
				t.Errorf("%s, cuisine %q: %s serves %v", tc.city, tc.cuisine, x["name"], x["cuisine"])
			}
		}
	}
	all := Call(t, s.user, "list-restaurants", map[string]any{"location": "Tokyo"})
	var served []string
	for _, x := range list(all.Value, "restaurants") {
		if !slices.Contains(served, x["cuisine"].(string)) {
			served = append(served, x["cuisine"].(string))
		}
	}
	slices.Sort(served)
	if fmt.Sprint(all.Value["cuisines"]) != fmt.Sprint(served) {
		t.Errorf("Tokyo's cuisines = %v, its restaurants serve %v", all.Value["cuisines"], served)
	}
	none := Call(t, s.user, "list-restaurants", map[string]any{"location": "Tokyo", "cuisine": "peruana"})
	if slices.Contains(served, "Peruvian") {
		t.Skip("the test data has Peruvian food in Tokyo")
	}
	if len(list(none.Value, "restaurants")) != 0 || fmt.Sprint(none.Value["cuisines"]) != fmt.Sprint(served) ||
		!strings.Contains(fmt.Sprint(none.Value["message"]), served[0]) {
		t.Errorf("no Peruvian food in Tokyo = %v; want no restaurants, the cuisines there are, and a message naming them", none.Value)
	}
}

// orNil is what a JSON object holds for an omitted string field.
func orNil(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// priceCaps checks that list-accommodations keeps to a price cap per night
// or for the stay, in the places' currency or another, converted.
func (s *suite) priceCaps(t *testing.T) {
	all := list(Call(t, s.user, "list-accommodations", stay("Lisbon", 30, 3, 2)).Value, "accommodations")
	if len(all) < 2 {
		t.Fatalf("Lisbon has %d places, want 2 or more to cap", len(all))
	}
	prices := make([]float64, len(all))
	for i, a := range all {
		prices[i] = num(a["nightlyPrice"])
	}
	slices.Sort(prices)
	capAt := prices[0] // only the cheapest (and those as cheap)
	under := 0
	for _, p := range prices {
		if p <= capAt {
			under++
		}
	}
	cur, _ := all[0]["currency"].(string)
	for _, tc := range []struct {
		name string
		cap  map[string]any
		want int
	}{
		{"per night, in the places' currency", map[string]any{"maxNightlyPrice": capAt}, under},
		{"per night, named", map[string]any{"maxNightlyPrice": capAt, "currency": cur}, under},
		{"for the stay", map[string]any{"maxTotalPrice": capAt * 3}, under},
		{"per night, in another currency", map[string]any{"maxNightlyPrice": math.Ceil(capAt*1.1*100) / 100, "currency": "USD"}, under},
		{"below every place", map[string]any{"maxNightlyPrice": prices[0] / 2}, 0},
		{"above every place", map[string]any{"maxNightlyPrice": prices[len(prices)-1] * 2}, len(all)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := stay("Lisbon", 30, 3, 2)
			for k, v := range tc.cap {
				args[k] = v
			}
			r := Call(t, s.user, "list-accommodations", args)
			s.want(t, r, "")
			got := list(r.Value, "accommodations")
			if len(got) != tc.want {
				t.Fatalf("%d places, want %d: %v", len(got), tc.want, r.Value)
			}
			if tc.want == 0 && !strings.Contains(fmt.Sprint(r.Value["message"]), "price cap") {
				t.Errorf("message %q does not say the cap left nothing", r.Value["message"])
			}
		})
	}
	for _, tc := range []struct {
		name string
		cap  map[string]any
	}{
		{"negative", map[string]any{"maxNightlyPrice": -1}},
		{"unknown currency", map[string]any{"maxNightlyPrice": 100, "currency": "XYZ"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := stay("Lisbon", 30, 3, 2)
			for k, v := range tc.cap {
				args[k] = v
			}
			s.want(t, Call(t, s.user, "list-accommodations", args), errcode.BadRequest)
		})
	}
}
