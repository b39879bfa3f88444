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
