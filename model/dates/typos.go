package dates

// Month and weekday names are a closed vocabulary, so a word one edit
// away from exactly one of them (a letter dropped, doubled, swapped or
// wrong: "febuary", "setembor", "wednsday") is that name. Only names of
// five letters or more are matched, and words that are themselves common
// words stay as written.
var (
	typoNames = func() []string {
		var out []string
		for w := range months {
			if len(w) >= 5 {
				out = append(out, w)
			}
		}
		for w := range weekdays {
			if len(w) >= 6 && w != "segunda" && w != "quarta" && w != "quinta" {
				out = append(out, w) // not the Portuguese ones that are ordinals too
			}
		}
		return out
	}()
	// notTypos are words one edit from a month or weekday.
	notTypos = map[string]bool{
		"match": true, "marsh": true, "merch": true, "marcos": true, "marca": true, "marcas": true, "abriu": true,
		"julia": true, "julio": true, "sundae": true, "augusta": true, "agostos": true,
	}
)

// typoInitials are the first letters of typoNames: a misspelling keeps
// its first letter in most cases, and the others are not looked at.
var typoInitials = func() (out [26]bool) {
	for _, n := range typoNames {
		out[n[0]-'a'] = true
	}
	return out
}()

// typoAt returns the month or weekday name a misspelt word stands for.
func typoAt(w string) (string, bool) {
	if len(w) < 4 || notTypos[w] || w[0] < 'a' || w[0] > 'z' || !typoInitials[w[0]-'a'] {
		return "", false
	}
	if _, ok := months[w]; ok {
		return "", false
	}
	if _, ok := weekdays[w]; ok {
		return "", false
	}
	found, meaning := "", -1
	for _, name := range typoNames {
		if d := len(name) - len(w); d > 1 || d < -1 || name[0] != w[0] && name[1] != w[1] {
			continue
		}
		if !oneEdit(w, name) || len(w) < 5 && (len(name) != 5 || w[0] != name[0]) {
			continue // a four-letter word only as a five-letter name less one
		}
		m := nameMeaning(name)
		if meaning >= 0 && m != meaning {
			return "", false // near two names: "junlo" is June or July
		}
		found, meaning = name, m
	}
	return found, meaning >= 0
}

// nameMeaning numbers what a name means: months 1 to 12, weekdays 100 on.
func nameMeaning(name string) int {
	if m, ok := months[name]; ok {
		return int(m)
	}
	return 100 + int(weekdays[name])
}

// oneEdit reports whether a and b are one edit apart: a letter inserted,
// dropped, replaced, or two neighbours swapped.
func oneEdit(a, b string) bool {
	if a == b {
		return false
	}
	if len(a) == len(b) {
		diff := -1
		for i := 0; i < len(a); i++ {
			if a[i] != b[i] {
				if diff >= 0 {
					return i == diff+1 && a[diff] == b[i] && a[i] == b[diff] && a[i+1:] == b[i+1:]
				}
				diff = i
			}
		}
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] {
			return a[i:] == b[i+1:]
		}
	}
	return true
}

// fixTypos writes misspelt month and weekday names as they are spelt.
func fixTypos(toks []token) []token {
	for i, t := range toks {
		if t.kind != word {
			continue
		}
		if name, ok := typoAt(t.text); ok {
			toks[i].text = name
		}
	}
	return toks
}
