package intent

import (
	"slices"
	"testing"
)

func TestReadPriceCap(t *testing.T) {
	tests := []struct {
		text string
		want PriceCap
		ok   bool
	}{
		{"hotel in Madrid under 90 euros a night", PriceCap{90, "EUR", false}, true},
		{"nothing above $150 per night", PriceCap{150, "USD", false}, true},
		{"no more than $150 per night", PriceCap{150, "USD", false}, true},
		{"max 80 pounds/night", PriceCap{80, "GBP", false}, true},
		{"our budget is 2k euros for the week", PriceCap{2000, "EUR", true}, true},
		{"budget of $1,200 in total", PriceCap{1200, "USD", true}, true},
		{"pousada até R$300 a diária", PriceCap{300, "BRL", false}, true},
		{"hotel de no máximo 250 reais por noite", PriceCap{250, "BRL", false}, true},
		{"orçamento de 5 mil reais", PriceCap{5000, "BRL", true}, true},
		{"até 2 mil no total", PriceCap{2000, "", true}, true},
		{"até 400 por noite", PriceCap{400, "", false}, true},
		{"under ¥15000 a night", PriceCap{15000, "JPY", false}, true},
		// Numbers that are no price.
		{"up to 4 people", PriceCap{}, false},
		{"até 12 de abril", PriceCap{}, false},
		{"under 3 nights", PriceCap{}, false},
	}
	for _, tt := range tests {
		got, ok := ReadPriceCap(tt.text)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ReadPriceCap(%q) = %+v, %v; want %+v, %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
}

func TestWishes(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"hotel with a pool and free parking", []string{"pool", "parking"}},
		{"apartamento com cozinha que aceite cachorro", []string{"kitchen", "pets"}},
		{"pousada pé na areia, perto da praia, com café da manhã", []string{"beach", "breakfast"}},
		{"a café near the hotel", nil},
		{"photos of the beach", nil},
		{"hotel in Rome for 2", nil},
	}
	for _, tt := range tests {
		if got := Wishes(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Wishes(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
