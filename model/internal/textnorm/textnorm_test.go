package textnorm

import (
	"reflect"
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
