package tripdata

import (
	"math"
	"testing"
)

func TestCurrencyOf(t *testing.T) {
	for country, want := range map[string]string{"PT": "EUR", "br": "BRL", "US": "USD", "JP": "JPY", "UY": "USD"} {
		if got := CurrencyOf(country); got != want {
			t.Errorf("CurrencyOf(%q) = %q, want %q", country, got, want)
		}
	}
}

func TestConvert(t *testing.T) {
	tests := []struct {
		amount   float64
		from, to string
		want     float64
		ok       bool
	}{
		{100, "EUR", "EUR", 100, true},
		{110, "USD", "EUR", 100, true},
		{100, "EUR", "BRL", 550, true},
		{550, "brl", "usd", 110, true},
		{100, "XYZ", "EUR", 0, false},
	}
	for _, tt := range tests {
		got, ok := Convert(tt.amount, tt.from, tt.to)
		if ok != tt.ok || math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("Convert(%v, %s, %s) = %v, %v; want %v, %v", tt.amount, tt.from, tt.to, got, ok, tt.want, tt.ok)
		}
	}
}
