package gazetteer

import (
	"slices"
	"testing"
)

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		text, name, region, country string
		isCountry                   bool
		names                       []string // among its names
		span                        string   // the text's part that named it
	}{
		{"Paris, Texas", "Paris", "TX", "US", false, nil, "Paris, Texas"},
		{"Paris", "Paris", "", "FR", false, nil, "Paris"},
		{"San José, Costa Rica", "San José", "", "CR", false, nil, "San José, Costa Rica"},
		{"Córdoba, Argentina", "Córdoba", "", "AR", false, nil, "Córdoba, Argentina"},
		{"Springfield, Illinois", "Springfield", "IL", "US", false, nil, "Springfield, Illinois"},
		{"Lisboa 2024", "Lisbon", "", "PT", false, []string{"Lisbon", "lisboa"}, "Lisboa"},
		{"Londres", "London", "", "GB", false, []string{"London", "londres"}, "Londres"},
		{"Nova York", "New York", "NY", "US", false, []string{"New York", "New York City", "nova york"}, "Nova York"},
		{"Japão", "Japan", "", "JP", true, []string{"Japan", "Japão"}, "Japão"},
		{"Japan 2025", "Japan", "", "JP", true, []string{"Japan", "Japão"}, "Japan"},
		{"lisbon", "Lisbon", "", "PT", false, nil, "lisbon"},
	} {
		p, ok := Resolve(tc.text)
		if !ok || p.Name != tc.name || p.Region != tc.region || p.Country != tc.country || p.IsCountry != tc.isCountry {
			t.Errorf("Resolve(%q) = %+v, %v; want %s, %s, %s", tc.text, p, ok, tc.name, tc.region, tc.country)
			continue
		}
		for _, n := range tc.names {
			if !slices.Contains(p.Names, n) {
				t.Errorf("Resolve(%q): names %v lack %q", tc.text, p.Names, n)
			}
		}
		if got := tc.text[p.Start:p.End]; got != tc.span {
			t.Errorf("Resolve(%q) names it in %q, want %q", tc.text, got, tc.span)
		}
	}
	if p, ok := Resolve("Xyzzyville"); ok {
		t.Errorf("Resolve(Xyzzyville) = %+v", p)
	}
}
