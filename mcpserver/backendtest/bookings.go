package backendtest

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/tripdata"
)

// book books place id from days after Today for nights.
func book(t *testing.T, cs *mcp.ClientSession, id string, days, nights, guests int, key string) Result {
	t.Helper()
	return Call(t, cs, "book-accommodation", map[string]any{"id": id, "startDate": day(days), "endDate": day(days + nights),
		"guests": guests, "idempotencyKey": key})
}

func booking(r Result) map[string]any {
	b, _ := r.Value["booking"].(map[string]any)
	return b
}

func (s *suite) bookings(t *testing.T) {
	id := s.placeIn(t, "Porto", 2)
	place := Call(t, s.user, "get-accommodation", map[string]any{"id": id}).Value
	if listed := s.listed(t, "Porto", id); place["area"] != listed["area"] || place["centreKm"] != listed["centreKm"] || place["area"] == "" {
		t.Errorf("get-accommodation places %v in %v (%v km), list-accommodations in %v (%v km)", id, place["area"], place["centreKm"], listed["area"], listed["centreKm"])
	}
	first := book(t, s.user, id, 100, 3, 2, "porto-1")
	s.want(t, first, "")
	b := booking(first)
	if first.Value["replayed"] != false || b["accommodationId"] != id || b["nights"] != 3.0 || b["guests"] != 2.0 ||
		b["startDate"] != day(100) || b["endDate"] != day(103) || b["currency"] != place["currency"] ||
		b["totalPrice"] != math.Round(num(place["nightlyPrice"])*3*100)/100 || b["id"] == "" ||
		b["reference"] != tripdata.BookingReference(fmt.Sprint(b["id"])) || b["reference"] == "" {
		t.Errorf("booking = %v for place %v", first.Value, place)
	}
	for _, tc := range []struct {
		name         string
		cs           *mcp.ClientSession
		days, nights int
		key          string
		code         errcode.Code
	}{
		{"another user, overlapping", s.other, 101, 3, "porto-o1", errcode.Conflict},
		{"same user, another key, overlapping", s.user, 102, 1, "porto-2", errcode.Conflict},
		{"covering it", s.user, 99, 6, "porto-3", errcode.Conflict},
		{"right after", s.other, 103, 2, "porto-o2", ""},
		{"right before", s.user, 98, 2, "porto-4", ""},
		{"after those", s.other, 105, 1, "porto-o3", ""},
	} {
		t.Run(tc.name, func(t *testing.T) { s.want(t, book(t, tc.cs, id, tc.days, tc.nights, 2, tc.key), tc.code) })
	}
	s.want(t, book(t, s.user, "00000000-0000-0000-0000-000000000000", 100, 1, 1, "porto-none"), errcode.NotFound)
	s.want(t, book(t, s.user, id, 200, 1, 1, " "), errcode.BadRequest)
	s.want(t, book(t, s.user, id, 200, 1, 1, strings.Repeat("k", 201)), errcode.BadRequest)

	// Many travellers race for the same nights: exactly one gets them.
	race := s.placeIn(t, "Porto", 1)
	var wg sync.WaitGroup
	results := make([]Result, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = book(t, s.user, race, 150, 2, 1, fmt.Sprint("race-", i))
		}()
	}
	wg.Wait()
	won := 0
	for _, r := range results {
		switch r.Code {
		case "":
			won++
		case errcode.Conflict:
		default:
			t.Errorf("a racing booking = %v %s", r.Code, r.Message)
		}
	}
	if won != 1 {
		t.Errorf("%d of %d racing bookings of the same nights succeeded, want 1", won, len(results))
	}
}

func (s *suite) idempotency(t *testing.T) {
	id, other := s.placeIn(t, "Rio de Janeiro", 2), s.placeIn(t, "Rio de Janeiro", 2)
	first := book(t, s.user, id, 200, 2, 2, "rio")
	s.want(t, first, "")
	again := book(t, s.user, id, 200, 2, 2, "rio")
	s.want(t, again, "")
	if again.Value["replayed"] != true || fmt.Sprint(booking(again)) != fmt.Sprint(booking(first)) {
		t.Errorf("the same request again = %v, want the first booking %v, replayed", again.Value, first.Value)
	}
	firstID := booking(first)["id"].(string)
	for _, tc := range []struct {
		name                 string
		id                   string
		days, nights, guests int
	}{
		{"other dates", id, 210, 2, 2},
		{"other nights", id, 200, 3, 2},
		{"other guests", id, 200, 2, 1},
		{"other place", other, 200, 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := book(t, s.user, tc.id, tc.days, tc.nights, tc.guests, "rio")
			s.want(t, r, errcode.Conflict)
			if !strings.Contains(r.Message, firstID) {
				t.Errorf("the conflict %q does not name the first booking, %s", r.Message, firstID)
			}
		})
	}
	mine := book(t, s.other, id, 220, 1, 2, "rio")
	s.want(t, mine, "")
	if mine.Value["replayed"] != false || booking(mine)["id"] == firstID {
		t.Errorf("another user's key %q is her own: %v", "rio", mine.Value)
	}
}

func (s *suite) capacity(t *testing.T) {
	r := Call(t, s.user, "list-accommodations", stay("Houston", 600, 1, 1))
	var id string
	capacity := 0.0
	for _, a := range list(r.Value, "accommodations") {
		if c := num(a["capacity"]); c > 1 && c < 20 {
			id, capacity = a["id"].(string), c
			break
		}
	}
	if id == "" {
		t.Fatalf("Houston has no place for 2 to 19 guests: %v", r.Value)
	}
	n := int(capacity)
	s.want(t, book(t, s.user, id, 300, 1, n+1, "cap-1"), errcode.BadRequest)
	s.want(t, book(t, s.user, id, 300, 1, 0, "cap-2"), errcode.BadRequest)
	s.want(t, book(t, s.user, id, 300, 1, 21, "cap-3"), errcode.BadRequest)
	s.want(t, book(t, s.user, id, 300, 1, n, "cap-4"), "")
}

func (s *suite) availability(t *testing.T) {
	id := s.placeIn(t, "Dallas", 1)
	s.want(t, book(t, s.user, id, 300, 4, 1, "dallas"), "")
	for _, tc := range []struct {
		name         string
		days, nights int
		free         bool
	}{
		{"inside", 301, 2, false}, {"same nights", 300, 4, false}, {"overlapping the start", 298, 3, false},
		{"overlapping the end", 303, 3, false}, {"ending as it starts", 297, 3, true}, {"starting as it ends", 304, 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			listed := false
			for _, a := range list(Call(t, s.user, "list-accommodations", stay("Dallas", tc.days, tc.nights, 1)).Value, "accommodations") {
				listed = listed || a["id"] == id
			}
			if listed != tc.free {
				t.Errorf("listed %v, want %v", listed, tc.free)
			}
			g := Call(t, s.user, "get-accommodation", map[string]any{"id": id, "startDate": day(tc.days), "endDate": day(tc.days + tc.nights)})
			want := map[bool]string{true: "free", false: "booked"}[tc.free]
			if g.Value["availability"] != want || g.Value["totalPrice"] == nil {
				t.Errorf("get-accommodation = %v, want availability %s and a total price", g.Value, want)
			}
		})
	}
	if g := Call(t, s.user, "get-accommodation", map[string]any{"id": id}); g.Value["availability"] != nil {
		t.Errorf("get-accommodation without dates says %v", g.Value["availability"])
	}
	s.want(t, Call(t, s.user, "get-accommodation", map[string]any{"id": id, "startDate": day(3)}), errcode.BadRequest)
}
