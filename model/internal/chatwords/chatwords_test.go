package chatwords

import "testing"

func TestExpand(t *testing.T) {
	tests := []struct{ in, want string }{
		{"3 ppl tmrw w/ my gf", "3 people tomorrow with my girlfriend"},
		{"hotel 4 nites, 2 pax", "hotel 4 nights, 2 people"},
		{"next wknd w/my bro", "next weekend with my brother"},
		{"2 adults and a 4yo", "2 adults and a child"},
		{"vc tem hotel p/ hj?", "você tem hotel para hoje?"},
		{"fds q vem c/ as amigas", "fim de semana que vem com as amigas"},
		{"qnts noites? tb quero restaurante", "quantas noites? também quero restaurante"},
		// Left alone: dates with slashes, money, capitals, ordinary words.
		{"de 10/9 a 12/9", "de 10/9 a 12/9"},
		{"até R$ 400 em SP", "até R$ 400 em SP"},
		{"hotels in the U.S.", "hotels in the U.S."},
		{"Quero ir a Lisboa", "Quero ir a Lisboa"},
	}
	for _, tt := range tests {
		if got := Expand(tt.in); got != tt.want {
			t.Errorf("Expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestGluedUnits(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"tokyo 2wks in oct", "tokyo 2 weeks in oct"},
		{"hotel 3nts from may 2", "hotel 3 nights from may 2"},
		{"pousada 5noites, 2pessoas", "pousada 5 noites, 2 pessoas"},
		{"SF hotel tmrw, 1 nt", "SF hotel tomorrow, 1 night"},
		{"room 101b", "room 101b"},
		{"the 3rd", "the 3rd"},
	} {
		if got := Expand(tt.in); got != tt.want {
			t.Errorf("Expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
