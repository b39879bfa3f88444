package gazetteer

import (
	"fmt"
	"math"
	"slices"
	"strconv"
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
	if _, err := p.add(City{Name: "Nowhere", GeoName: "Nowhere", Country: "PT", Lat: 38.123456}); err == nil {
		t.Error("a latitude finer than a hundred-thousandth of a degree: no error")
	}
	p.doneLoading()
	for i, c := range cities {
		if i != 1 && p.city(int32(i)) != c {
			t.Errorf("after loading, city(%d) = %+v, want %+v", i, p.city(int32(i)), c)
		}
	}
}

// Every coordinate of five decimals or fewer comes back as the very
// float64 it was read as.
func TestCoordinatesComeBackExactly(t *testing.T) {
	for v := int32(-18_000_000); v <= 18_000_000; v += 997 {
		for _, s := range []string{fmt.Sprintf("%.5f", float64(v)/1e5), fmt.Sprintf("%.4f", float64(v/10)/1e4)} {
			deg, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			steps, ok := toSteps(deg)
			if !ok || fromSteps(steps) != deg {
				t.Fatalf("%s: toSteps = %d, %v; fromSteps gives %v", s, steps, ok, fromSteps(steps))
			}
		}
	}
	if _, ok := toSteps(0.000001); ok {
		t.Error("a millionth of a degree was kept")
	}
	if _, ok := toSteps(math.Copysign(0, -1)); ok {
		t.Error("-0 was kept, to come back as 0")
	}
}

// A name gives its places in the order they were added, whether one place
// has it or several; a name of none gives none.
func TestNameIndex(t *testing.T) {
	var n nameIndex
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

// A first word gives the most words of a name it begins, is no name of
// its own for that, and turns into one when a place takes it.
func TestNameIndexFirstWords(t *testing.T) {
	var n nameIndex
	n.add("rio de janeiro", 4)
	n.noteWords("rio", 3)
	n.noteWords("rio", 2)
	n.noteWords("sao", 2)
	n.add("sao paulo", 5)
	n.noteWords("sao", 2)
	for _, tc := range []struct {
		first string
		want  int
	}{{"rio", 3}, {"sao", 2}, {"paulo", 0}, {"rio de janeiro", 0}} {
		if got := n.longest(tc.first); got != tc.want {
			t.Errorf("longest(%q) = %d, want %d", tc.first, got, tc.want)
		}
	}
	if got := n.get("rio"); got != nil {
		t.Errorf("get(rio) = %v: a first word alone named a place", got)
	}
	var names []string
	n.each(func(k string, _ []int32) { names = append(names, k) })
	if !slices.Equal(names, []string{"rio de janeiro", "sao paulo"}) {
		t.Errorf("each saw %v, want the two names in order", names)
	}
	n.add("rio", 9)
	n.doneLoading()
	if got := n.get("rio"); !slices.Equal(got, []int32{9}) || n.longest("rio") != 3 {
		t.Errorf("after adding the town of Rio: get = %v, longest = %d", got, n.longest("rio"))
	}
}

// groupBy lists each value's indexes, in order, and none for a value no
// index has.
func TestGroupBy(t *testing.T) {
	starts, list := groupBy([]int32{2, 0, 2, 3, 0, 2}, 5)
	want := [][]int32{{1, 4}, nil, {0, 2, 5}, {3}, nil}
	for v, w := range want {
		if got := list[starts[v]:starts[v+1]]; !slices.Equal(got, w) {
			t.Errorf("value %d: %v, want %v", v, got, w)
		}
	}
}

// A line of the data is six or seven tab-separated fields, the seventh
// the flags ("w": the name is also a common word).
func TestParseCity(t *testing.T) {
	c, err := parseCity("Reading\tGB\tENG\t244070\t51.45625\t-0.97113\tw")
	want := City{Name: "Reading", GeoName: "Reading", Country: "GB", Admin1: "ENG", Population: 244070, Lat: 51.45625, Lon: -0.97113, Word: true}
	if err != nil || c != want {
		t.Fatalf("parseCity = %+v, %v; want %+v", c, err, want)
	}
	c, err = parseCity("Lagos\tPT\t08\t22094\t37.10202\t-8.67422")
	if err != nil || c.Name != "Lagos" || c.Admin1 != "08" || c.Lon != -8.67422 || c.Word {
		t.Fatalf("six fields: %+v, %v", c, err)
	}
	if c, err := parseCity("Lagos\tPT\t08\t22094\t37.10202\t-8.67422\t\t"); err == nil {
		t.Errorf("eight fields read as %+v", c)
	}
	if c, err := parseCity("Lagos\tPT\t08\t22094\t37.10202"); err == nil {
		t.Errorf("five fields read as %+v", c)
	}
	if _, err := parseCity("Lagos\tPT\t08\tmany\t37.1\t-8.6"); err == nil {
		t.Error("a population that is no number: no error")
	}
}
