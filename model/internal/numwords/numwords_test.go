package numwords

import (
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	tests := []struct {
		text    string
		value   int
		ordinal bool
		words   int
		weak    bool
	}{
		{"seven nights", 7, false, 1, false},
		{"twenty one people", 21, false, 2, false},
		{"twenty - one", 21, false, 3, false},
		{"twenty first of may", 21, true, 2, false},
		{"thirty-first", 31, true, 3, false},
		{"thirtieth", 30, true, 1, false},
		{"eleventh", 11, true, 1, false},
		{"vinte e um de maio", 21, false, 3, false},
		{"vigesimo primeiro", 21, true, 2, false},
		{"decimo quinto dia", 15, true, 2, false},
		{"quarenta e cinco", 45, false, 3, false},
		{"a dozen of us", 12, false, 2, false},
		{"half a dozen", 6, false, 3, false},
		{"meia duzia de amigos", 6, false, 2, false},
		{"uma duzia", 12, false, 2, false},
		{"duas duzias", 24, false, 2, false},
		{"two dozen", 24, false, 2, false},
		{"uma dezena de pessoas", 10, false, 2, false},
		{"uns 8", 0, false, 0, false}, // digits are not words
		{"uns oito", 8, false, 2, false},
		{"about twelve", 12, false, 2, false},
		{"cerca de quinze", 15, false, 3, false},
		{"a hundred and five", 105, false, 4, false},
		{"cento e vinte", 120, false, 3, false},
		{"um", 1, false, 1, true},
		{"a", 1, false, 1, true},
		{"segunda", 2, true, 1, true},
		{"dezesseis", 16, false, 1, false},
		{"dezasseis", 16, false, 1, false},
		{"hotel", 0, false, 0, false},
	}
	for _, tt := range tests {
		ws := strings.Fields(strings.ReplaceAll(tt.text, "-", " - "))
		n, ok := Read(ws)
		if tt.words == 0 {
			if ok {
				t.Errorf("Read(%q) = %+v, want none", tt.text, n)
			}
			continue
		}
		if !ok || n.Value != tt.value || n.Ordinal != tt.ordinal || n.Words != tt.words || n.Weak != tt.weak {
			t.Errorf("Read(%q) = %+v %v, want value %d ordinal %v words %d weak %v", tt.text, n, ok, tt.value, tt.ordinal, tt.words, tt.weak)
		}
	}
}

// Every cardinal and ordinal from 1 to 31 in both languages reads back
// to its value: the grammar composes what no list spells out.
func TestOneToThirtyOne(t *testing.T) {
	en := []string{"", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
	enOrd := []string{"", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"}
	pt := []string{"", "um", "dois", "tres", "quatro", "cinco", "seis", "sete", "oito", "nove"}
	ptOrd := []string{"", "primeiro", "segundo", "terceiro", "quarto", "quinto", "sexto", "setimo", "oitavo", "nono"}
	for n := 21; n <= 29; n++ {
		u := n - 20
		cases := map[string]bool{
			"twenty " + en[u]:      false,
			"twenty-" + en[u]:      false,
			"twenty " + enOrd[u]:   true,
			"vinte e " + pt[u]:     false,
			"vigesimo " + ptOrd[u]: true,
		}
		for text, ord := range cases {
			got, ok := Read(strings.Fields(strings.ReplaceAll(text, "-", " - ")))
			if !ok || got.Value != n || got.Ordinal != ord {
				t.Errorf("Read(%q) = %+v, want %d (ordinal %v)", text, got, n, ord)
			}
		}
	}
	if got, _ := Read([]string{"thirty", "one"}); got.Value != 31 {
		t.Errorf("thirty one = %d", got.Value)
	}
	if got, _ := Read([]string{"trinta", "e", "um"}); got.Value != 31 {
		t.Errorf("trinta e um = %d", got.Value)
	}
}
