package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"strings"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
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
	err = seed.Run(ctx, st, seed.Options{
		Cities:   catalogCities(*cities),
		DemoUser: *user,
		Photos:   *photos,
		Progress: func(format string, args ...any) { log.Info(fmt.Sprintf(format, args...)) },
	})
	if err != nil {
		return err
	}
	return rememberDemo(ctx, st, *user)
}

// rememberDemo turns memory on for the demo user, unless they have said
// otherwise: in the demo the planner remembers the traveller across
// conversations.
func rememberDemo(ctx context.Context, st *store.Store, name string) error {
	u, err := st.Accounts.UserByName(ctx, name)
	if err != nil {
		return fmt.Errorf("finding the demo user to turn memory on: %w", err)
	}
	return tenant.MemoryIn(st.Items.ForOwner(u.ID)).DefaultConsent(ctx, true)
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
	for _, d := range smallerDestinations {
		name, country, _ := strings.Cut(d, "|")
		if c, ok := gazetteer.LookupIn(name, country); ok {
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

// smallerDestinations are the places travellers plan trips to in Brazil,
// Portugal and elsewhere that the most populous cities leave out (Gramado,
// Paraty, Sintra, Santorini…), as "name|country", so that a traveller
// asking for them gets stays and restaurants there rather than the
// nearest large city.
var smallerDestinations = []string{
	"Gramado|BR", "Canela|BR", "Paraty|BR", "Búzios|BR", "Ouro Preto|BR", "Tiradentes|BR", "Bonito|BR", "Jericoacoara|BR",
	"Fernando de Noronha|BR", "Porto de Galinhas|BR", "Maragogi|BR", "Morro de São Paulo|BR", "Praia do Forte|BR",
	"Porto Seguro|BR", "Ilhabela|BR", "Ubatuba|BR", "Campos do Jordão|BR", "Arraial do Cabo|BR", "Cabo Frio|BR",
	"Angra dos Reis|BR", "Foz do Iguaçu|BR", "Natal|BR", "Maceió|BR", "João Pessoa|BR", "Olinda|BR", "Aracaju|BR",
	"Belém|BR", "São Luís|BR", "Vitória|BR", "Balneário Camboriú|BR", "Petrópolis|BR", "Aparecida|BR",
	"Poços de Caldas|BR", "Penedo|BR", "Campinas|BR", "Santos|BR", "Goiânia|BR", "Campo Grande|BR", "Cuiabá|BR",
	"Teresina|BR", "Ilhéus|BR", "Guarujá|BR", "Imbituba|BR", "Blumenau|BR", "Joinville|BR", "Caldas Novas|BR", "Barreirinhas|BR",
	"Sintra|PT", "Cascais|PT", "Coimbra|PT", "Faro|PT", "Lagos|PT", "Albufeira|PT", "Évora|PT", "Óbidos|PT", "Braga|PT",
	"Guimarães|PT", "Aveiro|PT", "Funchal|PT", "Ponta Delgada|PT", "Nazaré|PT", "Tavira|PT", "Portimão|PT",
	"Viana do Castelo|PT", "Setúbal|PT",
	"Santorini|GR", "Mykonos|GR", "Zakynthos|GR", "Heraklion|GR", "Chania|GR", "Dubrovnik|HR", "Split|HR", "Nice|FR",
	"Cannes|FR", "Bordeaux|FR", "Lyon|FR", "Marseille|FR", "Strasbourg|FR", "Positano|IT", "Capri|IT", "Sorrento|IT",
	"Amalfi|IT", "Verona|IT", "Pisa|IT", "Siena|IT", "Bologna|IT", "Turin|IT", "Genoa|IT", "Bruges|BE", "Salzburg|AT",
	"Innsbruck|AT", "Interlaken|CH", "Zermatt|CH", "Lucerne|CH", "Geneva|CH", "Reykjavik|IS", "Granada|ES", "Málaga|ES",
	"Ibiza|ES", "Palma|ES", "Marbella|ES", "Bilbao|ES", "Santiago de Compostela|ES", "Toledo|ES", "Córdoba|ES",
	"Cádiz|ES", "Alicante|ES", "Krakow|PL", "Tallinn|EE", "Riga|LV", "Vilnius|LT", "Ljubljana|SI", "Cologne|DE",
	"Dresden|DE", "Nuremberg|DE", "Heidelberg|DE", "Bath|GB", "York|GB", "Oxford|GB", "Cambridge|GB", "Liverpool|GB",
	"Cork|IE", "Honolulu|US", "Orlando|US", "Nashville|US", "Austin|US", "Denver|US", "Savannah|US", "Charleston|US",
	"Napa|US", "Quebec City|CA", "Bali|ID", "Phuket|TH", "Koh Samui|TH", "Chiang Mai|TH", "Boracay|PH", "Punta Cana|DO",
	"Bariloche|AR", "Mendoza|AR", "Colonia del Sacramento|UY", "Valparaíso|CL", "Arequipa|PE", "Santa Marta|CO",
	"Oaxaca|MX", "Tulum|MX", "Playa del Carmen|MX", "Puerto Vallarta|MX", "Siem Reap|KH", "Hoi An|VN", "Da Nang|VN",
	"Luang Prabang|LA", "Cairns|AU", "Gold Coast|AU", "Hobart|AU", "Fez|MA", "Luxor|EG", "Victoria Falls|ZW",
}
