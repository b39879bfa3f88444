package tripdata

import (
	"math"
	"testing"
)

func TestDistanceKm(t *testing.T) {
	tests := []struct {
		name                   string
		lat1, lng1, lat2, lng2 float64
		want                   float64
	}{
		{"Lisbon to Porto", 38.7223, -9.1393, 41.1579, -8.6291, 274},
		{"London to Paris", 51.5074, -0.1278, 48.8566, 2.3522, 344},
		{"the same point", 10, 20, 10, 20, 0},
		{"antipodes", 0, 0, 0, 180, 20015},
	}
	for _, tt := range tests {
		if got := DistanceKm(tt.lat1, tt.lng1, tt.lat2, tt.lng2); math.Abs(got-tt.want) > 1 {
			t.Errorf("%s: %.1f km, want %.0f", tt.name, got, tt.want)
		}
	}
}
