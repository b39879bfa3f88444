package nodes

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/tripgraph/tripgraph/card"
)

// AppendJSON writes what json.Marshal writes, byte for byte, for states
// and updates with and without their lists, strings that need escaping,
// and props that are not compact in updates (a state's components are
// added by Reduce, which compacts their props); only faster.
func TestAppendJSONIsJSONMarshal(t *testing.T) {
	props := json.RawMessage(`{"hotels":[{"name":"Casa \u003cAzul\u003e","price":120.5}],"note":"a \"b\""}`)
	loose := json.RawMessage("{ \"nights\" : [ 1, 2 ],\n\"city\": \"São Paulo\" }")
	comps := []UIComponent{
		{ID: "u1", Name: card.TripDetails, Props: props, MessageID: "m1"},
		{ID: "u\"2\u2028", Name: "x<y>&", Props: loose, MessageID: ""},
		{ID: "u3", Name: "empty"},
	}
	full := State{
		Messages:       []Message{{ID: "m1", Type: Human, Content: "4 nights in \"Lisbon\" <now> & then\n\tPorto\u00e9"}, {ID: "m2", Type: AI, Content: ""}},
		UI:             Reduce(State{}, Update{UI: []UIUpsert{{UIComponent: comps[0]}, {UIComponent: comps[1]}, {UIComponent: comps[2]}}}).UI,
		Timestamp:      1700000000123,
		TripDetails:    &TripDetails{Location: "Lisbon", StartDate: "2027-05-01", EndDate: "2027-05-05", NumberOfGuests: 3},
		Intent:         IntentAccommodations,
		Language:       "pt",
		Assumed:        []string{FieldGuests},
		Recalled:       &Recalled{Guests: 3, HomeCity: "São Paulo"},
		Forgotten:      true,
		Enrichments:    []Enrichment{{Server: "s", Tool: "t", Result: json.RawMessage(`{"a": 1}`), MessageID: "m2"}},
		BookingRequest: &BookingRequest{AccommodationID: "h1", StartDate: "2027-05-01", EndDate: "2027-05-05", Guests: 2, After: "m2"},
		SetAside:       []BookingRequest{{AccommodationID: "h0", StartDate: "2027-04-01", EndDate: "2027-04-03", Guests: 1}},
	}
	legs := &TripDetails{Location: "Lisbon", Country: "Portugal", StartDate: "2027-05-01", EndDate: "2027-05-09", NumberOfGuests: 2,
		Legs: []Leg{{Location: "Lisbon", Country: "Portugal", StartDate: "2027-05-01", EndDate: "2027-05-05"}, {Location: "Porto", StartDate: "2027-05-05", EndDate: "2027-05-09"}}}
	everyMemberSet(t, full)
	for name, s := range map[string]State{"empty": {}, "empty lists": {Messages: []Message{}, UI: []UIComponent{}}, "full": full, "legs": {TripDetails: legs}} {
		t.Run("state "+name, func(t *testing.T) { sameAsMarshal(t, s) })
	}
	upserts := []UIUpsert{{UIComponent: comps[0], Merge: true}, {UIComponent: comps[1]}}
	every := Update{
		Messages: full.Messages, UI: upserts, Timestamp: 7, TripDetails: legs, Assumed: full.Assumed, Recalled: full.Recalled,
		Forgotten: true, ClearTripDetails: true, Intent: IntentTrip, Language: "en", Enrichments: full.Enrichments,
		BookingRequest: full.BookingRequest, ClearBookingRequest: true, ClearSetAside: true,
	}
	everyMemberSet(t, every)
	for name, u := range map[string]Update{
		"empty":        {},
		"messages":     {Messages: full.Messages},
		"ui":           {UI: upserts},
		"ui and rest":  {UI: upserts, Timestamp: 5, ClearTripDetails: true},
		"rest":         {Timestamp: 5, Language: "en"},
		"all":          {Messages: full.Messages, UI: upserts, TripDetails: full.TripDetails, Enrichments: full.Enrichments, ClearSetAside: true},
		"empty slices": {Messages: []Message{}, UI: []UIUpsert{}},
		"legs":         {TripDetails: legs},
		"every member": every,
	} {
		t.Run("update "+name, func(t *testing.T) { sameAsMarshal(t, u) })
	}
}

// Reduce compacts the props of the components it adds, and keeps props
// that are not JSON as they are: the update that brought them fails to
// encode, and so does the step.
func TestReduceCompactsProps(t *testing.T) {
	loose := json.RawMessage("{ \"nights\" : [ 1, 2 ],\n\"city\": \"São Paulo\" }")
	s := Reduce(State{}, Update{UI: []UIUpsert{{UIComponent: UIComponent{ID: "u1", Name: "n", Props: loose}}}})
	if got, want := string(s.UI[0].Props), `{"nights":[1,2],"city":"São Paulo"}`; got != want {
		t.Errorf("props added by Reduce: %s, want %s", got, want)
	}
	if string(loose) != "{ \"nights\" : [ 1, 2 ],\n\"city\": \"São Paulo\" }" {
		t.Error("Reduce wrote into the update's props")
	}
	bad := Update{UI: []UIUpsert{{UIComponent: UIComponent{ID: "u2", Name: "n", Props: json.RawMessage("{ not json")}}}}
	if s := Reduce(State{}, bad); string(s.UI[0].Props) != "{ not json" {
		t.Errorf("props that are not JSON became %s, want them as they were", s.UI[0].Props)
	}
	if _, err := bad.AppendJSON(nil); err == nil {
		t.Error("an update whose props are not JSON encoded")
	}
}

// everyMemberSet fails the test when a field of v is its zero value, so
// that a member added to State or Update is written by AppendJSON too.
func everyMemberSet(t *testing.T, v any) {
	t.Helper()
	rv := reflect.ValueOf(v)
	for i := range rv.NumField() {
		if rv.Field(i).IsZero() {
			t.Fatalf("%T's %s is not set in the test: set it, so that AppendJSON is checked to write it", v, rv.Type().Field(i).Name)
		}
	}
}

// appendString writes what encoding/json writes for any string: escapes,
// HTML's characters, U+2028 and U+2029, invalid UTF-8.
func TestAppendStringIsJSONMarshal(t *testing.T) {
	for _, s := range []string{"", "plain", "Aqui estão 5 lugares", "\"\\/", "\b\f\n\r\t\x00\x1f\x7f", "<a&b>", "\u2028x\u2029", "bad \xff\xfe utf-8 \xe2\x82", "emoji 🧳 ok", "\u00e9\u0301"} {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); string(got) != string(want) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("Aqui estão <5> \"lugares\"\n\u2028\xff")
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); string(got) != string(want) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}

func sameAsMarshal(t *testing.T, v interface {
	AppendJSON([]byte) ([]byte, error)
}) {
	t.Helper()
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := v.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	// encoding/json escapes <, > and & in props it compacts; props the
	// planner made are escaped already. The loose props here are not.
	var compacted []byte
	compacted = append(compacted, got...)
	if string(escapeHTML(compacted)) != string(escapeHTML(want)) {
		t.Fatalf("AppendJSON\n got %s\nwant %s", got, want)
	}
	if !json.Valid(got) {
		t.Fatalf("AppendJSON wrote invalid JSON: %s", got)
	}
}

// escapeHTML escapes <, > and & as encoding/json does, so that texts that
// differ only there compare equal.
func escapeHTML(b []byte) []byte {
	var out []byte
	for _, c := range b {
		switch c {
		case '<':
			out = append(out, `\u003c`...)
		case '>':
			out = append(out, `\u003e`...)
		case '&':
			out = append(out, `\u0026`...)
		default:
			out = append(out, c)
		}
	}
	return out
}
