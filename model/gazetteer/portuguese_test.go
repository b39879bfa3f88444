package gazetteer

import "testing"

func TestCityName(t *testing.T) {
	tests := []struct{ name, lang, want string }{
		{"Lisbon", "pt", "Lisboa"},
		{"New York", "pt", "Nova York"},
		{"Cologne", "pt", "Colônia"},
		{"Porto", "pt", "Porto"},
		{"Lisbon", "en", "Lisbon"},
		{"Atlantis", "pt", "Atlantis"},
		{"Lake Como", "pt", "Lago de Como"},
		{"Tuscany", "pt", "Toscana"},
		{"Tuscany", "en", "Tuscany"},
	}
	for _, tt := range tests {
		if got := CityName(tt.name, tt.lang); got != tt.want {
			t.Errorf("CityName(%q, %q) = %q, want %q", tt.name, tt.lang, got, tt.want)
		}
	}
}

// TestPortugueseCitiesAreCities checks that each city with a Portuguese
// name is named in the table as the gazetteer names it in English, and
// that the Portuguese name is one the gazetteer knows for the same city.
func TestPortugueseCitiesAreCities(t *testing.T) {
	for en, pt := range portugueseCities {
		c, ok := Lookup(en)
		if !ok || c.Name != en {
			t.Errorf("%q is not a city's English name (Lookup gave %q, %v)", en, c.Name, ok)
			continue
		}
		if p, ok := Lookup(pt); !ok || p != c {
			t.Errorf("%q does not name %s (%s)", pt, en, c.Country)
		}
	}
}

func TestCountryNameIn(t *testing.T) {
	tests := []struct{ name, lang, want string }{
		{"Spain", "pt", "Espanha"},
		{"United States", "pt", "Estados Unidos"},
		{"Portugal", "pt", "Portugal"},
		{"Alemanha", "en", "Germany"},
		{"JP", "pt", "Japão"},
		{"Narnia", "pt", "Narnia"},
	}
	for _, tt := range tests {
		if got := CountryNameIn(tt.name, tt.lang); got != tt.want {
			t.Errorf("CountryNameIn(%q, %q) = %q, want %q", tt.name, tt.lang, got, tt.want)
		}
	}
}
