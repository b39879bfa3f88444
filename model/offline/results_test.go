package offline

import (
	"testing"
	"time"
)

// A result's count is that of the tool's own items: not of the other lists
// beside them, and not of the preview a large result was cut down to.
func TestParseResultCountsTheToolsOwnItems(t *testing.T) {
	tests := []struct {
		name   string
		result string
		total  int
	}{
		{"no restaurants of a cuisine, the city's cuisines beside them",
			`{"location":"São Paulo","covered":true,"cuisines":["Brazilian","Mexican","Thai"],"restaurants":[]}`, 0},
		{"a city not covered, with the nearest covered ones",
			`{"location":"Gramado","covered":false,"nearby":[{"name":"Porto Alegre"},{"name":"Curitiba"}],"accommodations":[]}`, 0},
		{"a plain list", `[{"id":"a"},{"id":"b"}]`, 2},
		{"a declared total above the list", `{"photos":[{"id":"a"}],"total":40}`, 40},
		{"a large result cut down for the model",
			`{"restaurants":[{},{},{},{},{}],"cuisines":["A","B","C","D","E","F"],"truncated":{"totalItems":10}}`, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseResult(tt.result).total; got != tt.total {
				t.Fatalf("total = %d, want %d", got, tt.total)
			}
		})
	}
}

// No album on a day is said in Brazilian Portuguese, as every reply is:
// "Seu álbum", not the European "O seu álbum".
func TestNoAlbumOnInBrazilianPortuguese(t *testing.T) {
	day := time.Date(2024, time.March, 9, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		result, want string
	}{
		{`{"albums":[{"id":"a"}]}`, "Seu álbum não tem fotos de 9 de março de 2024."},
		{`{"albums":[{"id":"a"},{"id":"b"}]}`, "Nenhum dos seus 2 álbuns tem fotos de 9 de março de 2024."},
	}
	for _, tt := range tests {
		if got := noAlbumOn(Extraction{Language: "pt", PhotoDay: day}, tt.result); got != tt.want {
			t.Errorf("noAlbumOn(%s) = %q, want %q", tt.result, got, tt.want)
		}
	}
}
