package intent

import "testing"

func TestDetect(t *testing.T) {
	tests := []struct {
		text string
		want Intent
	}{
		{"4 nights in Lisbon in May, 3 of us", None},
		{"hotel in Lisbon", Accommodations},
		{"onde ficar em Paris?", Accommodations},
		{"pousada em Paraty", Accommodations},
		{"where can we eat sushi in Tokyo", Restaurants},
		{"quero jantar em Roma", Restaurants},
		{"hotels and restaurants in Rome", Trip},
		{"planning a trip to Rome", Trip},
		{"mostre fotos do aniversário da Vivi", Photos},
		{"stats of my Japan trip", Photos},
		{"thanks!", Other},
		{"comida japonesa", Restaurants},
	}
	for _, tt := range tests {
		if got := Detect(tt.text); got != tt.want {
			t.Errorf("Detect(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestLanguage(t *testing.T) {
	tests := []struct{ text, want string }{
		{"4 nights in Lisbon in May, 3 of us", "en"},
		{"mostre fotos do aniversário da Vivi", "pt"},
		{"quero um hotel em Lisboa", "pt"},
		{"hotel em sp pra 2", "pt"},
		{"show me beach photos", "en"},
	}
	for _, tt := range tests {
		if got := Language(tt.text); got != tt.want {
			t.Errorf("Language(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestCuisineAndPrice(t *testing.T) {
	tests := []struct{ text, cuisine, price string }{
		{"comida japonesa barata", "japanese", "$"},
		{"e restaurantes japoneses?", "japanese", ""},
		{"restaurantes italianos baratos", "italian", "$"},
		{"vou com amigos italianos", "", ""},
		{"sushi in Tokyo", "sushi", ""},
		{"fancy italian dinner", "italian", "$$$"},
		{"restaurantes de frutos do mar", "seafood", ""},
		{"michelin star restaurants", "", "$$$$"},
		{"a nice place to eat", "", ""},
	}
	for _, tt := range tests {
		if got := Cuisine(tt.text); got != tt.cuisine {
			t.Errorf("Cuisine(%q) = %q, want %q", tt.text, got, tt.cuisine)
		}
		if got := PriceRange(tt.text); got != tt.price {
			t.Errorf("PriceRange(%q) = %q, want %q", tt.text, got, tt.price)
		}
	}
}

func TestParsePhoto(t *testing.T) {
	tests := []struct {
		text string
		want PhotoRequest
	}{
		{"me mostre fotos do aniversário da Vivi", PhotoRequest{Kind: SearchAll, Query: "aniversário da Vivi", Asked: "aniversário da Vivi"}},
		{"fotos da praia", PhotoRequest{Kind: SearchAll, Query: "praia", Asked: "praia"}},
		{"fotos das praias", PhotoRequest{Kind: SearchAll, Query: "praia", Asked: "praias"}},
		{"penguin pictures", PhotoRequest{Kind: SearchAll, Query: "pingui", Asked: "penguin"}},
		{"fotos dos pinguins", PhotoRequest{Kind: SearchAll, Query: "pingui", Asked: "pinguins"}},
		{"photos of the flowers", PhotoRequest{Kind: SearchAll, Query: "flor", Asked: "flowers"}},
		{"photos from the beach", PhotoRequest{Kind: SearchAll, Query: "praia", Asked: "beach"}},
		{"show me beach photos", PhotoRequest{Kind: SearchAll, Query: "praia", Asked: "beach"}},
		{"which albums do I have?", PhotoRequest{Kind: ListAlbums}},
		{"meus álbuns", PhotoRequest{Kind: ListAlbums}},
		{"photos from my Japan album", PhotoRequest{Kind: Album, Album: "Japan"}},
		{"stats of my Japan trip", PhotoRequest{Kind: Album, Album: "Japan", Stats: true}},
		{"fotos do álbum Japão", PhotoRequest{Kind: Album, Album: "Japão"}},
		{"photos from my Japan album in Kyoto", PhotoRequest{Kind: Album, Album: "Japan", Query: "Kyoto"}},
		{"fotos do álbum Japão em Quioto", PhotoRequest{Kind: Album, Album: "Japão", Query: "Quioto"}},
		{"quantas fotos tem no álbum Lisboa 2023?", PhotoRequest{Kind: Album, Album: "Lisboa 2023", Stats: true}},
		{"pictures of the Eiffel Tower please", PhotoRequest{Kind: SearchAll, Query: "Eiffel Tower", Asked: "Eiffel Tower"}},
		{"show my Rio de Janeiro album", PhotoRequest{Kind: Album, Album: "Rio de Janeiro"}},
		{"show my Porto e Douro album", PhotoRequest{Kind: Album, Album: "Porto e Douro"}},
		{"show me the Paris em família album", PhotoRequest{Kind: Album, Album: "Paris em família"}},
		{"mostra o álbum Porto e Douro", PhotoRequest{Kind: Album, Album: "Porto e Douro"}},
		{"abre o álbum Rio de Janeiro", PhotoRequest{Kind: Album, Album: "Rio de Janeiro"}},
		{"show me the photos from Vivi's birthday", PhotoRequest{Kind: SearchAll, Query: "aniversário da Vivi", Asked: "aniversário da Vivi"}},
		{"photos of Ana’s wedding", PhotoRequest{Kind: SearchAll, Query: "casamento da Ana", Asked: "casamento da Ana"}},
		{"photos of the birthday cake", PhotoRequest{Kind: SearchAll, Query: "birthday cake", Asked: "birthday cake"}},
	}
	for _, tt := range tests {
		if got := ParsePhoto(tt.text); got != tt.want {
			t.Errorf("ParsePhoto(%q) = %+v, want %+v", tt.text, got, tt.want)
		}
	}
}

func TestHistory(t *testing.T) {
	tests := []struct {
		text string
		want Ask
	}{
		{"how long did my Oslo trip last?", AskStats},
		{"quantos dias fiquei em Lima?", AskStats},
		{"when was I in Oslo?", AskStats},
		{"where did we go in 2021?", AskTrips},
		{"list my trips", AskTrips},
		{"quais viagens eu fiz?", AskTrips},
		{"what did I photograph in Oslo?", AskPhotos},
		{"I went to Oslo last year and want to go back in May", NoAsk},
		{"hotel in Oslo", NoAsk},
	}
	for _, tt := range tests {
		if got := History(tt.text); got != tt.want {
			t.Errorf("History(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestNarrowing(t *testing.T) {
	tests := []struct{ text, want string }{
		{"now only the ones with Ana", "Ana"},
		{"agora só as do deserto", "deserto"},
		{"just those from Oslo", "Oslo"},
		{"only hotels please", ""},
	}
	for _, tt := range tests {
		if got, _ := Narrowing(tt.text); got != tt.want {
			t.Errorf("Narrowing(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestOffTopic(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"what's the weather like in Oslo?", true},
		{"como está o tempo em Lima?", true},
		{"quem ganhou o jogo ontem?", true},
		{"tell me a joke", true},
		{"quanto tempo durou a viagem?", false},
		{"what's there to do in Oslo? planning a visit", false},
		{"hotel in Oslo", false},
	}
	for _, tt := range tests {
		if got := OffTopic(tt.text); got != tt.want {
			t.Errorf("OffTopic(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestShortPortuguese(t *testing.T) {
	for _, s := range []string{"kkkk", "rsrs valeu", "vlw", "blz, obg"} {
		if got := Language(s); got != "pt" {
			t.Errorf("Language(%q) = %q, want pt", s, got)
		}
	}
}

func TestBesides(t *testing.T) {
	tests := []struct{ term, place, want string }{
		{"Lisboa", "Lisboa", ""},
		{"beach in Lisbon", "Lisbon", "beach"},
		{"praia em Lisboa", "lisboa", "praia"},
		{"Vivi na praia", "Lisbon", "Vivi na praia"},
		{"Vivi in Lisbon at the beach", "Lisbon", "Vivi beach"},
	}
	for _, tt := range tests {
		if got := Besides(tt.term, tt.place); got != tt.want {
			t.Errorf("Besides(%q, %q) = %q, want %q", tt.term, tt.place, got, tt.want)
		}
	}
}
