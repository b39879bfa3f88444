package offline

import (
	"slices"
	"testing"
	"time"
)

// maxAskRate is the share of a set's requests on which the planner may
// ask before searching (a place two readings compete for, two dates
// offered, a party counted two ways).
const maxAskRate = 0.05

// The model asks only when two readings compete: on each set, the share
// of requests with a field marked unsure, and with the place so marked,
// is logged and kept low.
func TestAskRate(t *testing.T) {
	sets := []struct{ path, today string }{
		{"../../testdata/requests.jsonl", corpusToday},
		{"testdata/blind.jsonl", blindToday},
		{"testdata/typed.jsonl", typedToday},
	}
	for _, s := range sets {
		today, err := time.Parse(time.DateOnly, s.today)
		if err != nil {
			t.Fatal(err)
		}
		cases := loadCases(t, s.path)
		asked, place := 0, 0
		for _, c := range cases {
			e := Understand(c.Turns, today)
			if len(e.Unsure) > 0 {
				asked++
			}
			if slices.Contains(e.Unsure, "location") {
				place++
				t.Logf("%s asks about the place: %q", c.ID, c.Turns)
			}
		}
		rate := float64(asked) / float64(len(cases))
		t.Logf("%s: asks on %d of %d requests (%.1f%%), about the place on %d", s.path, asked, len(cases), 100*rate, place)
		if rate > maxAskRate {
			t.Errorf("%s: asks on %.1f%% of requests, more than %.0f%%", s.path, 100*rate, 100*maxAskRate)
		}
	}
}
