package gazetteer

import (
	"testing"
	"time"
)

func TestLoad(t *testing.T) {
	start := time.Now()
	if err := Load(); err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %d cities in %v", Len(), time.Since(start))
	if Len() < 20000 {
		t.Errorf("Len() = %d, want at least 20000", Len())
	}
}

func TestDestination(t *testing.T) {
	tests := []struct {
		text, want, country string // want "" means no city
	}{
		{"4 nights in Lisbon in May", "Lisbon", "PT"},
		{"quero ir para Lisboa", "Lisbon", "PT"},
		{"hotel em nova york", "New York", "US"},
		{"Nova Iorque em dezembro", "New York", "US"},
		{"são paulo 3 noites", "São Paulo", "BR"},
		{"sao paulo 3 noites", "São Paulo", "BR"},
		{"rio de janeiro no carnaval", "Rio de Janeiro", "BR"},
		{"trip to new york", "New York", "US"},
		{"Paris, Texas for a weekend", "Paris", "US"},
		{"paris in spring", "Paris", "FR"},
		{"Córdoba, Spain", "Córdoba", "ES"},
		{"cordoba argentina", "Córdoba", "AR"},
		{"a nice hotel in Paris", "Paris", "FR"},
		{"Nice hotel near the beach in Rome", "Rome", "IT"},
		{"5 nights in Nice", "Nice", "FR"},
		{"fotos da praia", "", ""},
		{"hotel perto da praia em Salvador", "Salvador", "BR"},
		{"voos saindo de Lisboa para Munique", "Munich", "DE"},
		{"from London to Rome", "Rome", "IT"},
		{"Londres", "London", "GB"},
		{"Colônia, na Alemanha", "Cologne", "DE"},
		{"reading a book about hotels", "", ""},
		{"I'm visiting Reading next week", "Reading", "GB"},
		{"mobile friendly site", "", ""},
		{"natal no rio", "Rio de Janeiro", "BR"},
		{"vou passar o natal em Natal", "Natal", "BR"},
		{"how do I split the bill", "", ""},
		{"what can we do in Split?", "Split", "HR"},
		{"Tóquio e Quioto", "Kyoto", "JP"},
		{"cidade do méxico", "Mexico City", "MX"},
		{"tell us more", "", ""},
		{"hotels in the US", "", ""},
		{"comida japonesa", "", ""},
		{"uma mesa para 4", "", ""},
		{"Valencia in may", "Valencia", "ES"},
		{"Singapore for 3 nights", "Singapore", "SG"},
		// Islands, resorts and beach districts travellers name.
		{"Santorini in June", "Santorini", "GR"},
		{"a week on Zante", "Zakynthos", "GR"},
		{"hotel in Ipanema", "Rio de Janeiro", "BR"},
		{"Copacabana beach", "Rio de Janeiro", "BR"},
		{"Bali in May", "Bali", "ID"},
		{"Waikiki for 4 nights", "Honolulu", "US"},
		{"pousada em Jeri", "Jericoacoara", "BR"},
		// Words that are also cities, told apart by what follows.
		{"Vitória em janeiro", "Vitória", "BR"},
		{"que vitória! quero ir a Recife", "Recife", "BR"},
		{"Bath for the weekend", "Bath", "GB"},
		{"Reading is fun, Lisbon in May", "Lisbon", "PT"},
		{"hotel em Lisboa no Natal", "Lisbon", "PT"},
		// The destination among places named in passing.
		{"we went to Madrid in 2019, now thinking Lisbon", "Lisbon", "PT"},
		{"fomos pra Recife ano passado, agora queremos Natal", "Natal", "BR"},
		{"my friend Florence loves Rome", "Rome", "IT"},
		{"moro em Campinas e quero ir pra Santos", "Santos", "BR"},
		{"stopover in Doha then Bangkok", "Bangkok", "TH"},
		{"Porto, no, I mean Faro", "Faro", "PT"},
		{"Lisbon instead of Porto", "Lisbon", "PT"},
		{"quero Maceió e não Recife", "Maceió", "BR"},
		{"how long did I stay in Berlin?", "Berlin", "DE"},
	}
	for _, tt := range tests {
		m := Find(tt.text)
		got, ok := m.Destination()
		if tt.want == "" {
			if ok {
				t.Errorf("Find(%q) destination = %s, %s; want none", tt.text, got.Name, got.Country)
			}
			continue
		}
		if !ok || got.Name != tt.want || got.Country != tt.country {
			t.Errorf("Find(%q) destination = %q, %q (%v); want %q, %q", tt.text, got.Name, got.Country, ok, tt.want, tt.country)
		}
	}
}

func TestCountries(t *testing.T) {
	tests := []struct{ text, want string }{
		{"photos of my Japan trip", "JP"},
		{"fotos do álbum Japão", "JP"},
		{"viagem pela Itália", "IT"},
		{"hotels in the US", "US"},
		{"tell us", ""},
	}
	for _, tt := range tests {
		m := Find(tt.text)
		got := ""
		if len(m.Countries) > 0 {
			got = m.Countries[0]
		}
		if got != tt.want {
			t.Errorf("Find(%q).Countries = %v, want %q", tt.text, m.Countries, tt.want)
		}
	}
}

func TestCountryName(t *testing.T) {
	tests := []struct{ cc, lang, want string }{
		{"BR", "en", "Brazil"}, {"BR", "pt", "Brasil"}, {"US", "pt", "Estados Unidos"},
		{"JP", "pt", "Japão"}, {"DE", "pt", "Alemanha"}, {"XX", "en", "XX"},
	}
	for _, tt := range tests {
		if got := CountryName(tt.cc, tt.lang); got != tt.want {
			t.Errorf("CountryName(%q, %q) = %q, want %q", tt.cc, tt.lang, got, tt.want)
		}
	}
}

func BenchmarkFind(b *testing.B) {
	Load()
	for b.Loop() {
		Find("4 nights in Lisbon in May for 3 of us, maybe also Porto, hotel near the beach")
	}
}

func TestLargest(t *testing.T) {
	top := Largest(500)
	if len(top) != 500 {
		t.Fatalf("Largest(500) returned %d cities", len(top))
	}
	for i := 1; i < len(top); i++ {
		if top[i].Population > top[i-1].Population {
			t.Fatalf("city %d (%s, %d) is more populous than city %d (%s, %d)", i, top[i].Name, top[i].Population, i-1, top[i-1].Name, top[i-1].Population)
		}
	}
	if top[len(top)-1].Population < 500_000 {
		t.Fatalf("the 500th largest city has only %d inhabitants", top[len(top)-1].Population)
	}
	names := map[string]bool{}
	for _, c := range top {
		names[c.Name] = true
	}
	for _, want := range []string{"Tokyo", "São Paulo", "London", "Paris", "New York"} {
		if !names[want] {
			t.Errorf("%s is not among the 500 largest cities", want)
		}
	}
	if got := Largest(0); len(got) != 0 {
		t.Fatalf("Largest(0) returned %d cities", len(got))
	}
}

func TestLookupIn(t *testing.T) {
	for _, tt := range []struct{ name, country string }{{"Lagos", "PT"}, {"Lagos", "NG"}, {"Toledo", "ES"}, {"Lisboa", "PT"}} {
		if c, ok := LookupIn(tt.name, tt.country); !ok || c.Country != tt.country {
			t.Errorf("LookupIn(%q, %q) = %+v, %v", tt.name, tt.country, c, ok)
		}
	}
	if _, ok := LookupIn("Lisbon", "BR"); ok {
		t.Error("LookupIn(Lisbon, BR) found a city")
	}
}
