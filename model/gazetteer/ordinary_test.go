package gazetteer

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// maxFalsePlaces is the share of ordinary sentences, about anything but
// travel, in which the gazetteer may find a place; maxFalseNames the
// share of those in which people and things bear cities' names.
const (
	maxFalsePlaces = 0.02
	maxFalseNames  = 0.15
)

// More places must not mean more wrong places: in sentences about work,
// cooking, sport, family and computers, in English and Portuguese, almost
// no place is read (a destination or a country; a person named like a
// city, "cats named Pepper and Salt", is no place), though most words
// name a village somewhere.
func TestOrdinarySentencesNameNoPlace(t *testing.T) {
	sets := []struct {
		file    string
		ceiling float64
	}{
		{"testdata/ordinary_en.txt", maxFalsePlaces}, {"testdata/ordinary_pt.txt", maxFalsePlaces},
		{"testdata/names_en.txt", maxFalseNames}, {"testdata/names_pt.txt", maxFalseNames},
	}
	for _, set := range sets {
		file := set.file
		lines := readLines(t, file)
		found := 0
		for _, l := range lines {
			m := Find(l)
			if _, ok := m.Destination(); ok || len(m.Countries) > 0 {
				found++
				t.Logf("%s: %q names %v %v", file, l, cityNames(m), m.Countries)
			}
		}
		rate := float64(found) / float64(len(lines))
		t.Logf("%s: a place in %d of %d sentences (%.1f%%)", file, found, len(lines), 100*rate)
		if rate > set.ceiling {
			t.Errorf("%s: a place in %.1f%% of ordinary sentences, more than %.0f%%", file, 100*rate, 100*set.ceiling)
		}
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func cityNames(m Mention) []string {
	var out []string
	for _, c := range m.Cities {
		out = append(out, c.Name+" ("+c.Country+")")
	}
	return out
}
