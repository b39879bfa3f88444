package seed

// eatNames lists, for each cuisine of the catalog, the kinds of place its
// restaurants are named after and the words that follow, so that a name
// fits the food: a trattoria serves Italian food, an izakaya Japanese.
// A kind of place belongs to one cuisine only; the tests hold it so.
var eatNames = map[string]struct{ kinds, words []string }{
	"American":      {[]string{"Diner", "Smokehouse", "Burger Bar"}, []string{"Route 66", "Liberty", "Main Street", "Lone Star", "Hudson", "Blue Moon"}},
	"Argentinian":   {[]string{"Parrilla", "Asador", "Bodegón"}, []string{"El Gaucho", "La Pampa", "Don Julio", "Malbec", "del Tango", "San Telmo"}},
	"Brazilian":     {[]string{"Boteco", "Churrascaria", "Cantinho"}, []string{"Mineiro", "da Bahia", "Carioca", "do Sertão", "Tropical", "Gaúcho"}},
	"British":       {[]string{"Pub", "Tavern", "Arms"}, []string{"The Red Lion", "The Crown", "Kings", "The Old Oak", "Royal", "Fox & Hound"}},
	"Chinese":       {[]string{"Dumpling House", "Jade", "Wok"}, []string{"Golden Dragon", "Lotus", "Peking", "Canton", "Imperial", "Bamboo"}},
	"Egyptian":      {[]string{"Koshary", "Nile", "Fatatri"}, []string{"Cairo", "Luxor", "Pharaoh", "Aswan", "El Tahrir", "Alexandria"}},
	"French":        {[]string{"Bistro", "Brasserie", "Chez"}, []string{"Lumière", "du Marché", "Marcel", "des Amis", "Provence", "Montmartre"}},
	"German":        {[]string{"Bierhaus", "Gasthaus", "Wirtshaus"}, []string{"zum Löwen", "Bavaria", "am Markt", "Edelweiss", "Schwarzwald", "zur Linde"}},
	"Greek":         {[]string{"Taverna", "Ouzeri", "Psistaria"}, []string{"Mykonos", "Athena", "Olympos", "Santorini", "Zorba", "Kalimera"}},
	"Indian":        {[]string{"Tandoor", "Curry House", "Masala"}, []string{"Taj", "Mumbai", "Bombay", "Delhi", "Punjab", "Maharaja"}},
	"Indonesian":    {[]string{"Warung", "Rumah Makan", "Satay House"}, []string{"Bali", "Java", "Sumatra", "Nusantara", "Rendang", "Jakarta"}},
	"Italian":       {[]string{"Trattoria", "Osteria", "Pizzeria"}, []string{"Luna", "da Marco", "Bella Napoli", "Toscana", "Il Forno", "Roma"}},
	"Japanese":      {[]string{"Sushi", "Izakaya", "Ramen"}, []string{"Sakura", "Hana", "Kaze", "Tsuki", "Fuji", "Kyoto"}},
	"Korean":        {[]string{"Korean BBQ", "Bibimbap House", "Pocha"}, []string{"Seoul", "Gangnam", "Hanok", "Kimchi", "Arirang", "Busan"}},
	"Lebanese":      {[]string{"Mezze", "Falafel House", "Shawarma"}, []string{"Beirut", "Cedar", "Byblos", "Baalbek", "Phoenicia", "Zaatar"}},
	"Mediterranean": {[]string{"Olive", "Mare", "Azur"}, []string{"Blue", "Riviera", "Coast", "Sun", "Garden", "Harbour"}},
	"Mexican":       {[]string{"Taquería", "Cantina", "Tortillería"}, []string{"Frida", "Azteca", "Oaxaca", "Los Cuates", "Jalisco", "Mariachi"}},
	"Nigerian":      {[]string{"Buka", "Suya Spot", "Jollof House"}, []string{"Lagos", "Abuja", "Mama Put", "Naija", "Calabar", "Eko"}},
	"Pakistani":     {[]string{"Karahi House", "Dhaba", "Nihari"}, []string{"Lahore", "Karachi", "Khyber", "Indus", "Punjab Grill", "Peshawar"}},
	"Peruvian":      {[]string{"Cevichería", "Pollería", "Picantería"}, []string{"Inca", "Lima", "Machu Picchu", "Cusco", "Miraflores", "Pachamama"}},
	"Portuguese":    {[]string{"Tasca", "Adega", "Marisqueira"}, []string{"do Zé", "da Esquina", "do Bairro", "Lusitana", "do Bacalhau", "da Ribeira"}},
	"Russian":       {[]string{"Traktir", "Pelmennaya", "Blinnaya"}, []string{"Matryoshka", "Troika", "Volga", "Kalinka", "Samovar", "Tsar"}},
	"Seafood":       {[]string{"Oyster Bar", "Fish House", "Catch"}, []string{"Harbour", "Anchor", "Blue Fin", "Lighthouse", "Coral", "Tide"}},
	"Spanish":       {[]string{"Bodega", "Taberna", "Mesón"}, []string{"del Sol", "Andaluza", "La Rioja", "Sevilla", "El Toro", "Galicia"}},
	"Steakhouse":    {[]string{"Steakhouse", "Chophouse", "Grill"}, []string{"Prime", "Angus", "Black Iron", "Butcher's", "T-Bone", "Ember"}},
	"Thai":          {[]string{"Thai Orchid", "Baan", "Krua"}, []string{"Siam", "Bangkok", "Chiang Mai", "Lemongrass", "Sawasdee", "Phuket"}},
	"Turkish":       {[]string{"Kebab House", "Meyhane", "Lokanta"}, []string{"Istanbul", "Anatolia", "Bosphorus", "Sultan", "Ottoman", "Kapadokya"}},
	"Vegetarian":    {[]string{"Green Kitchen", "Veggie Bar", "Salad Garden"}, []string{"Verde", "Harvest", "Roots", "Sprout", "Leaf", "Bloom"}},
	"Vietnamese":    {[]string{"Phở", "Bánh Mì", "Quán"}, []string{"Saigon", "Hanoi", "Mekong", "Hoi An", "Lotus", "Halong"}},
}
