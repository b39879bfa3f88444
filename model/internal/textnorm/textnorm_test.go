package textnorm

import (
	"reflect"
	"strings"
	"testing"
)

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"São Paulo", "sao paulo"},
		{"lisbon", "lisbon"},
		{"Zürich", "zurich"},
		{"Kraków", "krakow"},
		{"ÁLBUM", "album"},
		{"Straße", "strasse"},
	}
	for _, tt := range tests {
		if got := Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Rio-de-Janeiro", "rio de janeiro"},
		{"  New   York!", "new york"},
		{"Xi'an", "xi an"},
	}
	for _, tt := range tests {
		if got := Key(tt.in); got != tt.want {
			t.Errorf("Key(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Key is Words' folds joined by single spaces, for any text.
func TestKeyJoinsWordsFolds(t *testing.T) {
	texts := []string{"", " ", "--", "São Paulo", "Xi'an", "ÅLESUND, Norway", "Köln/Cologne", "Straße 42",
		"İstanbul", "Ōsaka-shi", "ﬁnland", "東京 Tokyo", "a\u0301b", "x\tY\nz", "Nice!!", "  d'Ampezzo  "}
	runes := []rune("aZé ' -/ñ1Ø東ßİ\u0301.")
	for i := range 2000 { // every short mix of those runes, in a fixed pseudo-random order
		var b strings.Builder
		for j, n := 0, i%9; j < n; j++ {
			b.WriteRune(runes[(i*7+j*13+i/9*j)%len(runes)])
		}
		texts = append(texts, b.String())
	}
	for _, s := range texts {
		var folds []string
		for _, w := range Words(s) {
			folds = append(folds, w.Fold)
		}
		if got, want := Key(s), strings.Join(folds, " "); got != want {
			t.Fatalf("Key(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestWords(t *testing.T) {
	got := Words("Hotel em São Paulo, 3 noites")
	var folds []string
	for _, w := range got {
		folds = append(folds, w.Fold)
	}
	want := []string{"hotel", "em", "sao", "paulo", "3", "noites"}
	if !reflect.DeepEqual(folds, want) {
		t.Fatalf("Words folds = %v, want %v", folds, want)
	}
	if !got[0].Cap || got[1].Cap || !got[2].Cap {
		t.Errorf("capitalisation flags wrong: %+v", got[:3])
	}
	if got[2].Raw != "São" {
		t.Errorf("Raw = %q, want São", got[2].Raw)
	}
}
