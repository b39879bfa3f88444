package mcpserver

import (
	"slices"
	"testing"

	"github.com/tripgraph/tripgraph/tripdata"
)

// The covered cities suggested for a place the catalog does not cover are
// those of its country first, nearest first, then those abroad: for Foz do
// Iguaçu, Curitiba before Ciudad del Este across the river.
func TestNearestSameCountryFirst(t *testing.T) {
	cities := []tripdata.City{
		{Name: "Ciudad del Este", Country: "PY", Lat: -25.51, Lng: -54.61},
		{Name: "Asunción", Country: "PY", Lat: -25.28, Lng: -57.63},
		{Name: "Curitiba", Country: "BR", Lat: -25.43, Lng: -49.27},
		{Name: "São Paulo", Country: "BR", Lat: -23.55, Lng: -46.63},
	}
	var got []string
	for _, c := range nearest(cities, "BR", -25.55, -54.58, 3) {
		got = append(got, c.Name)
	}
	if want := []string{"Curitiba", "São Paulo", "Ciudad del Este"}; !slices.Equal(got, want) {
		t.Fatalf("nearest = %v, want %v", got, want)
	}
}

// A place is in the centre within a kilometre of it, else in the
// direction it lies from it, with its distance to 0.1 km.
func TestWhereInCity(t *testing.T) {
	lisbon := tripdata.City{Name: "Lisbon", Lat: 38.7223, Lng: -9.1393}
	tests := []struct {
		name     string
		lat, lng float64
		km       float64
		area     string
	}{
		{"at the centre", 38.7223, -9.1393, 0, "centre"},
		{"half a kilometre away", 38.7268, -9.1393, 0.5, "centre"},
		{"2 km north", 38.7403, -9.1393, 2, "north"},
		{"east", 38.7223, -9.1163, 2, "east"},
		{"south-west", 38.7100, -9.1550, 1.9, "south-west"},
		{"north-west", 38.7400, -9.1620, 2.8, "north-west"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			km, area := whereInCity(lisbon, tt.lat, tt.lng)
			if km != tt.km || area != tt.area {
				t.Fatalf("whereInCity = %v km, %q; want %v km, %q", km, area, tt.km, tt.area)
			}
		})
	}
	if km, area := whereInCity(tripdata.City{}, 38.7, -9.1); km != 0 || area != "" {
		t.Fatalf("a city with no position gives %v km, %q", km, area)
	}
}
