package nodes

import (
	"strings"
	"testing"
	"time"
)

func TestResolveTrip(t *testing.T) {
	today := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name      string
		args      extractArgs
		lang      string
		wantStart string
		wantEnd   string
		wantGuest int
		question  string // a part of the clarifying question, if one is expected
	}{
		{"no dates: in four weeks, for a week", extractArgs{}, "en", "2026-12-19", "2026-12-26", 2, ""},
		{"start only: a week", extractArgs{StartDate: "2027-05-03"}, "en", "2027-05-03", "2027-05-10", 2, ""},
		{"end only: the week before", extractArgs{EndDate: "2027-05-10"}, "en", "2027-05-03", "2027-05-10", 2, ""},
		{"both dates", extractArgs{StartDate: "2027-05-03", EndDate: "2027-05-07", NumberOfGuests: 3}, "en", "2027-05-03", "2027-05-07", 3, ""},
		{"nights from the start", extractArgs{StartDate: "2027-05-03", Nights: 5}, "en", "2027-05-03", "2027-05-08", 2, ""},
		{"nights with no start", extractArgs{Nights: 4}, "en", "2026-12-19", "2026-12-23", 2, ""},
		{"nights back from the end", extractArgs{EndDate: "2027-05-10", Nights: 3}, "en", "2027-05-07", "2027-05-10", 2, ""},
		{"zero guests become two", extractArgs{NumberOfGuests: 0}, "en", "2026-12-19", "2026-12-26", 2, ""},
		{"negative guests become two", extractArgs{NumberOfGuests: -3}, "en", "2026-12-19", "2026-12-26", 2, ""},
		{"end before start asks", extractArgs{StartDate: "2027-05-07", EndDate: "2027-05-03"}, "en", "", "", 0, "before it starts"},
		{"same day asks", extractArgs{StartDate: "2027-05-07", EndDate: "2027-05-07"}, "en", "", "", 0, "before it starts"},
		{"past dates ask", extractArgs{StartDate: "2025-05-03", EndDate: "2025-05-07"}, "en", "", "", 0, "in the past"},
		{"past dates ask in Portuguese", extractArgs{StartDate: "2025-05-03"}, "pt", "", "", 0, "já passaram"},
		// The planner's limits are the tools' (tripdata): a party of 25 or a
		// 200-night stay is asked about, not sent to a tool that refuses it.
		{"more guests than the tools take ask", extractArgs{NumberOfGuests: 21}, "en", "", "", 0, "20 at most"},
		{"as many guests as the tools take are fine", extractArgs{NumberOfGuests: 20}, "en", "2026-12-19", "2026-12-26", 20, ""},
		{"a stay longer than the tools take asks", extractArgs{StartDate: "2027-05-03", Nights: 200}, "en", "", "", 0, "up to 90 nights"},
		{"the longest stay is fine", extractArgs{StartDate: "2027-05-03", Nights: 90}, "en", "2027-05-03", "2027-08-01", 2, ""},
		{"a start too far ahead asks", extractArgs{StartDate: "2029-01-03"}, "pt", "", "", 0, "até 730 dias"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.args.Location = "Lisbon"
			td, q := resolveTrip(tt.args, today, tt.lang)
			if tt.question != "" {
				if !strings.Contains(q, tt.question) {
					t.Fatalf("question = %q, want one containing %q", q, tt.question)
				}
				return
			}
			if q != "" {
				t.Fatalf("unexpected question %q", q)
			}
			if td.StartDate != tt.wantStart || td.EndDate != tt.wantEnd || td.NumberOfGuests != tt.wantGuest {
				t.Fatalf("got %s..%s for %d, want %s..%s for %d", td.StartDate, td.EndDate, td.NumberOfGuests,
					tt.wantStart, tt.wantEnd, tt.wantGuest)
			}
			if err := validate.Struct(td); err != nil {
				t.Fatalf("resolved details do not validate: %v", err)
			}
		})
	}
}

func TestIsToolCallChunk(t *testing.T) {
	tests := []struct {
		chunk string
		want  bool
	}{
		{`[{"index":0,"id":"call_1","type":"function","function":{"name":"extract","arguments":""}}]`, true},
		{`[{"index":0,"function":{"arguments":"{\"loc"}}]`, true},
		{`{"name":"extract","arguments":"{}"}`, true},
		{"Here are", false},
		{"[1, 2]", false},
		{`{"a":1}`, false},
		{"[see below]", false},
	}
	for _, tt := range tests {
		if got := isToolCallChunk([]byte(tt.chunk)); got != tt.want {
			t.Errorf("isToolCallChunk(%s) = %v, want %v", tt.chunk, got, tt.want)
		}
	}
}
