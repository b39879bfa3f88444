package gazetteer

import "testing"

// Regions, natural places, small destinations and nicknames are found,
// in English and Portuguese, and a country's misspelling qualifies as
// the country.
func TestLandmarksAndNicknames(t *testing.T) {
	tests := []struct {
		text, want, country, kind string
	}{
		{"a week on Lake Como in June", "Lake Como", "IT", "lake"},
		{"uma semana no Lago de Como", "Lake Como", "IT", "lake"},
		{"10 days in Tuscany", "Tuscany", "IT", "region"},
		{"quero conhecer a Toscana", "Tuscany", "IT", "region"},
		{"skiing in Zermatt in February", "Zermatt", "CH", ""},
		{"Hallstatt for 2 nights", "Hallstatt", "AT", "town"},
		{"pousada nos Lençóis Maranhenses", "Lençóis Maranhenses", "BR", "region"},
		{"hiking in Patagonia next summer", "Patagonia", "AR", "region"},
		{"Chapada Diamantina no feriado", "Chapada Diamantina", "BR", "region"},
		{"cataratas do iguaçu em maio", "Iguazu Falls", "BR", "falls"},
		{"3 nights in KL", "Kuala Lumpur", "MY", ""},
		{"heading to Jozi next week", "Johannesburg", "ZA", ""},
		{"the Big Easy for Mardi Gras", "New Orleans", "US", ""},
		{"fds em Sampa", "São Paulo", "BR", ""},
		{"pousada em Monte Verde no inverno", "Monte Verde", "BR", ""},
		{"Medellin, Columbia for a week", "Medellin", "CO", ""},
		{"morro de sp no carnaval", "Morro de São Paulo", "BR", ""},
		{"zermatt ski trip feb", "Zermatt", "CH", ""},
		{"gramado no natal", "Gramado", "BR", ""},
		{"porto in october", "Porto", "PT", ""},
		{"san sebastian food trip", "San Sebastián", "ES", ""},
		{"valle nevado ski in july", "Valle Nevado", "CL", "ski"},
		{"vamos pra disney com as crianças em julho", "Walt Disney World", "US", "park"},
		{"disneyland paris for 3 nights", "Disneyland Paris", "FR", "park"},
	}
	for _, tt := range tests {
		got, ok := Find(tt.text).Destination()
		if !ok || got.Name != tt.want || got.Country != tt.country || got.Kind != tt.kind {
			t.Errorf("Find(%q) = %q, %q, kind %q (%v); want %q, %q, kind %q", tt.text, got.Name, got.Country, got.Kind, ok, tt.want, tt.country, tt.kind)
		}
	}
	if got := Find("trip to columbia in march").Countries; len(got) != 1 || got[0] != "CO" {
		t.Errorf(`"columbia" gave countries %v; want Colombia`, got)
	}
	if got := cityNames(Find("Natal e Pipa, 4 noites")); len(got) != 2 {
		t.Errorf(`"Natal e Pipa" names %v; want Natal and Pipa`, got)
	}
	if c, ok := Find("Columbia, SC in May").Destination(); !ok || c.Country != "US" {
		t.Errorf(`"Columbia, SC" = %+v; want the city in South Carolina`, c)
	}
}

// Landmarks are not cities: the catalog's most populous cities leave
// them out.
func TestLargestHasNoLandmarks(t *testing.T) {
	for _, c := range Largest(2000) {
		if c.Kind != "" {
			t.Fatalf("Largest lists the landmark %s (%s)", c.Name, c.Kind)
		}
	}
}

// Small towns count only where a traveller would name one; elsewhere
// they are words or people.
func TestSmallTowns(t *testing.T) {
	tests := []struct{ text, want string }{
		{"pousada em Cunha em julho", "Cunha"},
		{"itamaracá em julho, 2 pessoas", "Itamaracá"},
		{"palestrina in june for 2", "Palestrina"},
		{"only the ones with Maria", ""},
		{"I need to come back later", ""},
		{"call Pedro tomorrow about the report", ""},
		{"we want to start the meeting at nine", ""},
		{"o gramado do estádio está ótimo", ""},
		{"split in half please", ""},
		{"nice, thanks!", ""},
		{"vou pra serra do cipó no feriado", ""},
		{"hotel em são bento do sapucaí, 2 noites", ""},
		{"hotel em penedo rj", "Penedo"},
		{"pousada em bonito ms", "Bonito"},
		{"Santiago do Chile em março", "Santiago"},
		{"Walt Disney biography book", ""},
		{"make it 5 of us and Porto instead", "Porto"},
		{"the Rome one please", "Rome"},
		{"Tokyo will be amazing", "Tokyo"},
		{"Dallas left his jacket in the meeting room", ""},
	}
	for _, tt := range tests {
		got, ok := Find(tt.text).Destination()
		if tt.want == "" && ok {
			t.Errorf("Find(%q) = %s, %s; want none", tt.text, got.Name, got.Country)
		}
		if tt.want != "" && (!ok || got.Name != tt.want) {
			t.Errorf("Find(%q) = %q (%v); want %q", tt.text, got.Name, ok, tt.want)
		}
	}
}

// A holiday named like a place is the holiday beside its words ("feriado
// de", "day"); the destination is the place named beside it.
func TestHolidaysNamedLikePlaces(t *testing.T) {
	tests := []struct{ text, want string }{
		{"São Paulo no feriado de Corpus Christi", "São Paulo"},
		{"feriadão de Tiradentes em Ouro Preto", "Ouro Preto"},
		{"Independence Day weekend in Boston", "Boston"},
		{"Corpus Christi in March, 2 adults", "Corpus Christi"},
		{"Tiradentes na Páscoa", "Tiradentes"},
	}
	for _, tt := range tests {
		if got, ok := Find(tt.text).Destination(); !ok || got.Name != tt.want {
			t.Errorf("Find(%q) = %q (%v); want %q", tt.text, got.Name, ok, tt.want)
		}
	}
}

// A misspelling is read with no question only as a well-known
// destination; a town less known may be a village the data lacks, and is
// asked about ("itaúnas" is no Itaúna).
func TestMisspeltLessKnownTownIsAsked(t *testing.T) {
	tests := []struct {
		text, want string
		unsure     bool
	}{
		{"pousada em itaúnas em janeiro", "Itaúna", true},
		{"hotel in budapset in may", "Budapest", false},
		{"pousada em gramdo no inverno", "Gramado", false},
	}
	for _, tt := range tests {
		got, ok := Find(tt.text).Destination()
		if !ok || got.Name != tt.want || !got.Fuzzy || got.Unsure != tt.unsure {
			t.Errorf("Find(%q) = %q fuzzy %v unsure %v; want %q fuzzy, unsure %v", tt.text, got.Name, got.Fuzzy, got.Unsure, tt.want, tt.unsure)
		}
	}
}
