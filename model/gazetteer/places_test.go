package gazetteer

import (
	"slices"
	"testing"
)

// A place gives back the City it was made from, English name, division,
// kind and word flag included.
func TestPlacesKeepTheCity(t *testing.T) {
	p := newPlaces(4)
	cities := []City{
		{Name: "Lisbon", GeoName: "Lisboa", Country: "PT", Admin1: "14", Population: 517802, Lat: 38.7167, Lon: -9.1333},
		{Name: "Reading", GeoName: "Reading", Country: "GB", Admin1: "ENG", Population: 244070, Lat: 51.45625, Lon: -0.97113, Word: true},
		{Name: "Algarve", GeoName: "Algarve", Country: "PT", Kind: "region", Lat: 37.1, Lon: -8.2},
	}
	for i, c := range cities {
		got, err := p.add(c)
		if err != nil {
			t.Fatal(err)
		}
		if got != int32(i) {
			t.Fatalf("add = %d, want %d", got, i)
		}
	}
	for i, c := range cities {
		if got := p.city(int32(i)); got != c {
			t.Errorf("city(%d) = %+v, want %+v", i, got, c)
		}
	}
	if !p.inCountry(0, "PT") || p.inCountry(0, "BR") || p.population(1) != 244070 {
		t.Error("inCountry or population disagree with the City")
	}
	p.rename(1, "Redding")
	if got := p.city(1).Name; got != "Redding" {
		t.Errorf("renamed city = %q, want Redding", got)
	}
	if _, err := p.add(City{Name: "Nowhere", GeoName: "Nowhere", Country: "XYZ"}); err == nil {
		t.Error("a three-letter country code: no error")
	}
}

// A name gives its places in the order they were added, whether one place
// has it or several; a name of none gives none.
func TestNameIndex(t *testing.T) {
	n := newNameIndex(4)
	n.add("porto", 3)
	n.add("paris", 0)
	n.add("paris", 7)
	n.add("paris", 2)
	for _, tc := range []struct {
		k    string
		want []int32
	}{{"porto", []int32{3}}, {"paris", []int32{0, 7, 2}}, {"rome", nil}} {
		if got := n.get(tc.k); !slices.Equal(got, tc.want) {
			t.Errorf("get(%q) = %v, want %v", tc.k, got, tc.want)
		}
	}
	seen := map[string]int{}
	n.each(func(k string, places []int32) { seen[k] = len(places) })
	if len(seen) != 2 || seen["paris"] != 3 || seen["porto"] != 1 {
		t.Errorf("each saw %v", seen)
	}
}
