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
		{"more than 30 guests ask", extractArgs{NumberOfGuests: 31}, "en", "", "", 0, "30 at most"},
		{"30 guests are fine", extractArgs{NumberOfGuests: 30}, "en", "2026-12-19", "2026-12-26", 30, ""},
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
