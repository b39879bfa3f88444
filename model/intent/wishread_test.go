package intent

import (
	"slices"
	"testing"
	"time"
)

func TestReadDestinationWish(t *testing.T) {
	tests := []struct {
		text     string
		ok       bool
		months   []time.Month
		season   Season
		nights   int
		climates []Climate
		kinds    []PlaceKind
		budget   Budget
		near     string
	}{
		{"Somewhere warm in December?", true, []time.Month{12}, "", 0, []Climate{Warm}, nil, "", ""},
		{"praia perto de SP pra um fim de semana", true, nil, "", 2, nil, []PlaceKind{Beach}, "", "SP"},
		{"any ideas for a cheap beach trip in March?", true, []time.Month{3}, "", 0, nil, []PlaceKind{Beach}, Cheap, ""},
		{"onde ir no inverno com neve?", true, nil, Winter, 0, []Climate{Snow}, nil, "", ""},
		{"mountains a short drive from Porto for a week", true, nil, "", 7, nil, []PlaceKind{Mountain}, "", "Porto"},
		{"sugestão de destino barato em julho", true, []time.Month{7}, "", 0, nil, nil, Cheap, ""},
		{"hmm, somewhere warmer instead?", true, nil, "", 0, []Climate{Warm}, nil, "", ""},
		{"hotel in Lisbon for 2", false, nil, "", 0, nil, nil, "", ""},
		{"city break", false, nil, "", 0, nil, []PlaceKind{City}, "", ""},
		{"cheap city break in April?", true, []time.Month{4}, "", 0, nil, []PlaceKind{City}, Cheap, ""},
		{"where's sunny in November?", true, []time.Month{11}, "", 0, []Climate{Sunny}, nil, "", ""},
	}
	for _, tt := range tests {
		w, ok := ReadDestinationWish(tt.text)
		if ok != tt.ok || !slices.Equal(w.Months, tt.months) || w.Season != tt.season || w.Nights != tt.nights ||
			!slices.Equal(w.Climates, tt.climates) || !slices.Equal(w.Kinds, tt.kinds) || w.Budget != tt.budget || w.Near != tt.near {
			t.Errorf("ReadDestinationWish(%q) = %+v, %v", tt.text, w, ok)
		}
	}
}
