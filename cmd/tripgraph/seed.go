package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"sort"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/seed"
)

func init() {
	register(command{
		name:    "seed",
		summary: "fill the catalog and the demo user's albums (idempotent); --photos N for a big album set",
		run:     runSeed,
	})
}

func runSeed(ctx context.Context, cfg config.Config, args []string) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	cities := fs.Int("cities", catalogSize, "how many of the most populous cities the catalog covers")
	photos := fs.Int("photos", 0, "top the demo user's photos up to this many (e.g. 1000000), with generated archive albums")
	user := fs.String("user", "demo", "the demo user's name")
	if err := fs.Parse(args); err != nil {
		return err
	}
	st, err := openStore(ctx, cfg.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	return seed.Run(ctx, st, seed.Options{
		Cities:   catalogCities(*cities),
		DemoUser: *user,
		Photos:   *photos,
		Progress: func(format string, args ...any) { log.Info(fmt.Sprintf(format, args...)) },
	})
}

// catalogCities returns the catalog's cities, most populous first: the n
// most populous cities of the gazetteer, plus the well-known destinations
// below that are smaller (Lisbon, Porto, Florence…), so that the places
// travellers ask about most are covered.
// catalogSize is how many of the gazetteer's most populous cities the demo
// catalog covers, besides the well-known destinations.
const catalogSize = 500

func catalogCities(n int) []seed.City {
	cities := gazetteer.Largest(n)
	for _, name := range destinations {
		if c, ok := gazetteer.Lookup(name); ok {
			cities = append(cities, c)
		}
	}
	var out []seed.City
	seen := map[string]bool{}
	for _, c := range cities {
		key := c.Name + "/" + c.Country
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, seed.City{Name: c.Name, GeoName: c.GeoName, Country: c.Country,
			Population: c.Population, Lat: c.Lat, Lng: c.Lon})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Population > out[j].Population })
	return out
}

// destinations are the world's best-known destinations, by English name;
// those among the most populous cities are simply counted once.
var destinations = []string{
	"Tokyo", "Delhi", "Shanghai", "São Paulo", "Mexico City", "Cairo", "Mumbai", "Beijing", "Dhaka", "Osaka",
	"New York", "Karachi", "Buenos Aires", "Chongqing", "Istanbul", "Kolkata", "Manila", "Lagos", "Rio de Janeiro", "Tianjin",
	"Kinshasa", "Guangzhou", "Los Angeles", "Moscow", "Shenzhen", "Lahore", "Bangalore", "Paris", "Bogotá", "Jakarta",
	"Chennai", "Lima", "Bangkok", "Seoul", "Nagoya", "Hyderabad", "London", "Tehran", "Chicago", "Chengdu",
	"Nanjing", "Wuhan", "Ho Chi Minh City", "Luanda", "Ahmedabad", "Kuala Lumpur", "Xi'an", "Hong Kong", "Dongguan", "Hangzhou",
	"Foshan", "Shenyang", "Riyadh", "Baghdad", "Santiago", "Surat", "Madrid", "Suzhou", "Pune", "Harbin",
	"Houston", "Dallas", "Toronto", "Dar es Salaam", "Miami", "Belo Horizonte", "Singapore", "Philadelphia", "Atlanta", "Fukuoka",
	"Khartoum", "Barcelona", "Johannesburg", "Saint Petersburg", "Qingdao", "Dalian", "Washington", "Yangon", "Alexandria", "Jinan",
	"Guadalajara", "Ankara", "Abidjan", "Nairobi", "Addis Ababa", "Casablanca", "Cape Town", "Sydney", "Melbourne", "Berlin",
	"Rome", "Milan", "Naples", "Athens", "Lisbon", "Porto", "Vienna", "Budapest", "Warsaw", "Prague",
	"Amsterdam", "Brussels", "Munich", "Hamburg", "Frankfurt", "Zurich", "Copenhagen", "Stockholm", "Oslo", "Helsinki",
	"Dublin", "Edinburgh", "Manchester", "Seville", "Valencia", "Florence", "Venice", "Kyiv", "Bucharest", "Belgrade",
	"Montreal", "Vancouver", "San Francisco", "Boston", "Seattle", "Las Vegas", "San Diego", "Phoenix", "New Orleans", "Havana",
	"Salvador", "Brasília", "Fortaleza", "Recife", "Porto Alegre", "Curitiba", "Manaus", "Florianópolis", "Montevideo", "Quito",
	"Medellín", "Cartagena", "Cusco", "La Paz", "Caracas", "Panama City", "San Juan", "Cancún", "Marrakesh", "Tunis",
	"Dakar", "Accra", "Kampala", "Zanzibar City", "Dubai", "Abu Dhabi", "Doha", "Tel Aviv", "Jerusalem", "Amman",
	"Beirut", "Kathmandu", "Colombo", "Hanoi", "Phnom Penh", "Taipei", "Kyoto", "Busan", "Auckland", "Perth",
}
