package gazetteer

import (
	"strings"
	"sync"

	"github.com/tripgraph/tripgraph/locale"

	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// portugueseCities are the names Brazilian Portuguese gives cities whose
// English name (City.Name) it does not use: "Lisbon" is "Lisboa". A city
// not listed is called by its English name in Portuguese too.
var portugueseCities = map[string]string{
	"Lisbon": "Lisboa", "New York": "Nova York", "London": "Londres", "Munich": "Munique",
	"Cologne": "Colônia", "Berlin": "Berlim", "Hamburg": "Hamburgo", "Rome": "Roma",
	"Florence": "Florença", "Venice": "Veneza", "Milan": "Milão", "Naples": "Nápoles",
	"Turin": "Turim", "Genoa": "Gênova", "Bologna": "Bolonha", "Athens": "Atenas",
	"Prague": "Praga", "Vienna": "Viena", "Salzburg": "Salzburgo", "Warsaw": "Varsóvia",
	"Krakow": "Cracóvia", "Moscow": "Moscou", "Saint Petersburg": "São Petersburgo",
	"Beijing": "Pequim", "Shanghai": "Xangai", "Tokyo": "Tóquio", "Kyoto": "Quioto",
	"Seoul": "Seul", "Mexico City": "Cidade do México", "Cape Town": "Cidade do Cabo",
	"Johannesburg": "Joanesburgo", "Geneva": "Genebra", "Zurich": "Zurique", "Lucerne": "Lucerna",
	"Basel": "Basileia", "Brussels": "Bruxelas", "Antwerp": "Antuérpia", "Ghent": "Gante",
	"Edinburgh": "Edimburgo", "Copenhagen": "Copenhague", "Stockholm": "Estocolmo",
	"Helsinki": "Helsinque", "New Delhi": "Nova Délhi", "Kolkata": "Calcutá",
	"Philadelphia": "Filadélfia", "New Orleans": "Nova Orleans", "Istanbul": "Istambul",
	"Seville": "Sevilha", "Madrid": "Madri", "Valencia": "Valência", "Malaga": "Málaga",
	"The Hague": "Haia", "Amsterdam": "Amsterdã", "Budapest": "Budapeste",
	"Bucharest": "Bucareste", "Belgrade": "Belgrado", "Marseille": "Marselha",
	"Strasbourg": "Estrasburgo", "Quebec City": "Cidade de Quebec", "Singapore": "Singapura",
	"Bangkok": "Bangcoc", "Jerusalem": "Jerusalém", "Beirut": "Beirute", "Hanoi": "Hanói",
	"Amman": "Amã", "Montevideo": "Montevidéu", "Asuncion": "Assunção",
	"Panama City": "Cidade do Panamá", "Nairobi": "Nairóbi", "Tunis": "Túnis",
	"Algiers": "Argel", "Kathmandu": "Katmandu", "Jakarta": "Jacarta", "Taipei": "Taipé",
	"Mykonos": "Míconos", "Bogota": "Bogotá", "Medellin": "Medellín",
}

// CityName returns the name of a city or landmark, given by its English
// name, in lang (one of locale.All): the Portuguese exonym where
// Portuguese has one ("Lisboa", "Lago de Como"), else the name as given. It needs no city data, so it is cheap to call.
func CityName(name, lang string) string {
	if lang == locale.Portuguese {
		if pt, ok := portugueseCities[name]; ok {
			return pt
		}
		if pt, ok := landmarkNames()[name]; ok {
			return pt
		}
	}
	return name
}

var (
	landmarkNamesOnce sync.Once
	landmarkPT        map[string]string // English name of a landmark → Portuguese
)

// landmarkNames maps the landmarks' English names to their Portuguese
// ones ("Lake Como" → "Lago de Como"); it reads the landmark table alone.
func landmarkNames() map[string]string {
	landmarkNamesOnce.Do(func() {
		landmarkPT = map[string]string{}
		list, _ := landmarks() // the table is checked when the gazetteer loads
		for _, l := range list {
			if l.pt != l.en {
				landmarkPT[l.en] = l.pt
			}
		}
	})
	return landmarkPT
}

var (
	countryNamesOnce sync.Once
	countryNames     map[string][2]string // folded name or code → English and Portuguese names
)

// CountryNameIn returns the name of a country, given by any of its names
// or its ISO code, in lang (one of locale.All); the name as given when no
// country has it. It reads the country table alone, not the cities.
func CountryNameIn(name, lang string) string {
	countryNamesOnce.Do(func() {
		countryNames = map[string][2]string{}
		for _, line := range splitLines(countryTable) {
			f := strings.Split(line, "|")
			for _, n := range f {
				if k := textnorm.Key(n); k != "" {
					if _, taken := countryNames[k]; !taken {
						countryNames[k] = [2]string{f[1], f[2]}
					}
				}
			}
		}
	})
	n, ok := countryNames[textnorm.Key(name)]
	switch {
	case !ok:
		return name
	case lang == locale.Portuguese:
		return n[1]
	}
	return n[0]
}
