package main

import (
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/model/gazetteer"
)

// The catalog covers the destinations travellers plan trips to, small ones
// included, each in its own country.
func TestCatalogCities(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range catalogCities(catalogSize) {
		covered[c.Name+"|"+c.Country] = true
	}
	for _, d := range smallerDestinations {
		name, country, _ := strings.Cut(d, "|")
		c, ok := gazetteer.LookupIn(name, country)
		if !ok || !covered[c.Name+"|"+country] {
			t.Errorf("%s, %s: not in the catalog", name, country)
		}
	}
	for _, want := range []string{"Lisbon|PT", "Porto|PT", "Gramado|BR", "Paraty|BR", "Sintra|PT", "Lagos|PT", "Lagos|NG"} {
		if !covered[want] {
			t.Errorf("%s is not in the catalog", want)
		}
	}
}
