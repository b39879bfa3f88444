package seed

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/tripdata"
)

// spot is a place photographed on a trip.
type spot struct {
	name     string
	lat, lng float64
	beach    bool
}

// trip is one demo album.
type trip struct {
	name, description string
	start             string // YYYY-MM-DD
	days, photos      int
	spots             []spot
	highlights        []string // descriptions that appear once each, at spots in order
}

var trips = []trip{
	{"Lisboa 2024", "Férias de verão em Lisboa e arredores", "2024-07-01", 9, 140, []spot{
		{"Torre de Belém", 38.6916, -9.2160, false}, {"Alfama", 38.7118, -9.1300, false}, {"Praça do Comércio", 38.7075, -9.1364, false},
		{"Praia de Carcavelos", 38.6780, -9.3360, true}, {"LX Factory", 38.7034, -9.1789, false}, {"Sintra", 38.7979, -9.3906, false}},
		[]string{"sunset at Belém tower", "pastéis de nata em Belém", "elétrico 28 em Alfama", "aniversário da Vivi na praia"}},
	{"Porto e Douro", "Vinho, pontes e o rio Douro", "2023-09-14", 6, 110, []spot{
		{"Ribeira", 41.1406, -8.6110, false}, {"Ponte Dom Luís I", 41.1399, -8.6094, false}, {"Livraria Lello", 41.1469, -8.6149, false},
		{"Vale do Douro", 41.1621, -7.7895, false}, {"Foz do Douro", 41.1496, -8.6760, true}},
		[]string{"francesinha no Porto", "boat trip on the Douro river", "vindima no Vale do Douro"}},
	{"Paris em família", "Primavera em Paris com as crianças", "2023-04-08", 7, 130, []spot{
		{"Torre Eiffel", 48.8584, 2.2945, false}, {"Louvre", 48.8606, 2.3376, false}, {"Montmartre", 48.8867, 2.3431, false},
		{"Rio Sena", 48.8566, 2.3522, false}, {"Jardim de Luxemburgo", 48.8462, 2.3372, false}},
		[]string{"Eiffel tower sparkling at night", "piquenique no Jardim de Luxemburgo", "croissants for breakfast"}},
	{"Roma 2022", "Uma semana entre ruínas e gelato", "2022-10-03", 7, 125, []spot{
		{"Coliseu", 41.8902, 12.4922, false}, {"Fontana di Trevi", 41.9009, 12.4833, false}, {"Vaticano", 41.9022, 12.4539, false},
		{"Trastevere", 41.8897, 12.4694, false}, {"Fórum Romano", 41.8925, 12.4853, false}},
		[]string{"moeda na Fontana di Trevi", "gelato in Trastevere", "Sistine Chapel queue"}},
	{"Rio de Janeiro", "Verão carioca", "2024-01-05", 8, 135, []spot{
		{"Copacabana", -22.9711, -43.1822, true}, {"Cristo Redentor", -22.9519, -43.2105, false}, {"Pão de Açúcar", -22.9486, -43.1566, false},
		{"Ipanema", -22.9868, -43.2050, true}, {"Santa Teresa", -22.9215, -43.1870, false}},
		[]string{"réveillon em Copacabana", "sunset at Arpoador", "bondinho do Pão de Açúcar"}},
	{"Nova York", "Natal em Nova York", "2023-12-18", 7, 130, []spot{
		{"Central Park", 40.7829, -73.9654, false}, {"Times Square", 40.7580, -73.9855, false}, {"Brooklyn Bridge", 40.7061, -73.9969, false},
		{"Rockefeller Center", 40.7587, -73.9787, false}, {"Statue of Liberty", 40.6892, -74.0445, false}},
		[]string{"ice skating at Rockefeller Center", "neve no Central Park", "pizza slice in Brooklyn"}},
	{"Japan 2025", "Sakura em Tóquio: a primeira viagem ao Japão", "2025-03-27", 10, 150, []spot{
		{"Shibuya", 35.6595, 139.7005, false}, {"Asakusa", 35.7148, 139.7967, false}, {"Shinjuku Gyoen", 35.6852, 139.7100, false},
		{"Akihabara", 35.7023, 139.7745, false}, {"Monte Fuji", 35.3606, 138.7274, false}},
		[]string{"cherry blossoms at Shinjuku Gyoen", "cruzamento de Shibuya", "ramen em Shinjuku", "Mount Fuji from the train"}},
	{"Barcelona", "Gaudí, praia e tapas", "2022-06-20", 6, 115, []spot{
		{"Sagrada Família", 41.4036, 2.1744, false}, {"Park Güell", 41.4145, 2.1527, false}, {"Barceloneta", 41.3784, 2.1925, true},
		{"Bairro Gótico", 41.3833, 2.1777, false}, {"La Boqueria", 41.3817, 2.1716, false}},
		[]string{"paella na Barceloneta", "mosaics at Park Güell", "Sagrada Família at sunrise"}},
	{"Londres", "Fim de semana prolongado em Londres", "2023-05-26", 5, 100, []spot{
		{"Tower Bridge", 51.5055, -0.0754, false}, {"Big Ben", 51.5007, -0.1246, false}, {"Camden Market", 51.5416, -0.1460, false},
		{"Hyde Park", 51.5073, -0.1657, false}, {"British Museum", 51.5194, -0.1270, false}},
		[]string{"afternoon tea", "chuva em Camden", "Rosetta Stone at the British Museum"}},
	{"Bahia: aniversário da Vivi", "Aniversário da Vivi em Salvador e no litoral baiano", "2025-02-10", 9, 150, []spot{
		{"Pelourinho", -12.9711, -38.5108, false}, {"Farol da Barra", -13.0104, -38.5326, true}, {"Praia do Forte", -12.5789, -38.0006, true},
		{"Morro de São Paulo", -13.3808, -38.9136, true}, {"Elevador Lacerda", -12.9744, -38.5130, false}},
		[]string{"aniversário da Vivi na praia", "bolo de aniversário da Vivi", "acarajé no Farol da Barra", "Vivi's birthday sunset at Farol da Barra"}},
	{"Buenos Aires", "Tango e parrilla", "2024-08-12", 6, 110, []spot{
		{"La Boca", -34.6345, -58.3631, false}, {"Recoleta", -34.5875, -58.3974, false}, {"San Telmo", -34.6217, -58.3731, false},
		{"Puerto Madero", -34.6118, -58.3630, false}, {"Palermo", -34.5795, -58.4280, false}},
		[]string{"tango em San Telmo", "asado with friends", "Caminito colours in La Boca"}},
	{"Cidade do Cabo", "Montanhas, pinguins e vinho", "2022-11-02", 8, 120, []spot{
		{"Table Mountain", -33.9628, 18.4098, false}, {"Cape Point", -34.3568, 18.4970, false}, {"Boulders Beach", -34.1975, 18.4510, true},
		{"V&A Waterfront", -33.9036, 18.4210, false}, {"Stellenbosch", -33.9321, 18.8602, false}},
		[]string{"pinguins em Boulders Beach", "cable car up Table Mountain", "wine tasting in Stellenbosch"}},
}

var (
	people   = []string{"Vivi", "Leo", "Ana", "Pedro", "a vovó", "Mia", "Tomás"}
	phrasePT = []string{"passeio por %[1]s", "pôr do sol em %[1]s", "almoço perto de %[1]s", "selfie em %[1]s", "vista de %[1]s",
		"café da manhã em %[1]s", "%[2]s em %[1]s", "fim de tarde em %[1]s", "caminhando em %[1]s com %[2]s"}
	phraseEN = []string{"walking around %[1]s", "sunset at %[1]s", "lunch near %[1]s", "family photo at %[1]s", "view from %[1]s",
		"street food near %[1]s", "%[2]s at %[1]s", "morning in %[1]s", "exploring %[1]s with %[2]s"}
	beachPT = []string{"dia de praia em %[1]s", "mergulho em %[1]s", "%[2]s brincando na areia em %[1]s"}
	beachEN = []string{"beach day at %[1]s", "swimming at %[1]s", "%[2]s building sandcastles at %[1]s"}
)

// caption writes a photo's description at a spot, in Portuguese or English.
func caption(r *rand.Rand, s spot) string {
	list := phraseEN
	if r.IntN(2) == 0 {
		list = phrasePT
	}
	if s.beach && r.IntN(3) == 0 {
		list = beachEN
		if r.IntN(2) == 0 {
			list = beachPT
		}
	}
	return strings.TrimSpace(fmt.Sprintf(pick(r, list), s.name, pick(r, people)))
}

// DemoAlbum is one of the demo user's albums with its photos.
type DemoAlbum struct {
	ID, Name, Description string
	Photos                []tripdata.NewPhoto
}

// DemoData returns a user's twelve demo albums and their photos; the same
// user id always gives the same data.
func DemoData(userID string) []DemoAlbum {
	out := make([]DemoAlbum, len(trips))
	for i, t := range trips {
		albumID := id("album", userID, t.name)
		out[i] = DemoAlbum{ID: albumID, Name: t.name, Description: t.description, Photos: tripPhotos(t, userID, albumID)}
	}
	return out
}

// DemoAlbums stores the demo user's twelve albums and their photos,
// skipping any already stored, and returns how many photos were new.
func DemoAlbums(ctx context.Context, st *store.Store, userID string) (int64, error) {
	var added int64
	for i, a := range DemoData(userID) {
		albumID, err := st.Catalog.EnsureAlbum(ctx, userID, a.ID, a.Name, a.Description)
		if err != nil {
			return added, err
		}
		photos := a.Photos
		if albumID != a.ID { // stored earlier under another id
			photos = tripPhotos(trips[i], userID, albumID)
		}
		n, err := st.Catalog.AddPhotos(ctx, photos)
		if err != nil {
			return added, fmt.Errorf("seeding album %q: %w", a.Name, err)
		}
		added += n
	}
	return added, nil
}

func tripPhotos(t trip, userID, albumID string) []tripdata.NewPhoto {
	r := rng("trip", t.name)
	start, err := time.Parse(time.DateOnly, t.start)
	if err != nil {
		panic(fmt.Sprintf("seed: trip %q has a bad start date: %v", t.name, err))
	}
	photos := make([]tripdata.NewPhoto, 0, t.photos)
	for i := range t.photos {
		s := t.spots[r.IntN(len(t.spots))]
		desc := caption(r, s)
		if i < len(t.highlights) {
			desc = t.highlights[i]
			s = t.spots[highlightSpot(t, desc)]
		}
		location := s.name
		if r.IntN(12) == 0 {
			location = "" // some photos only say in their description where they were
		}
		lat, lng := s.lat+(r.Float64()-0.5)*0.004, s.lng+(r.Float64()-0.5)*0.004
		pid := id("photo", albumID, i)
		photos = append(photos, tripdata.NewPhoto{ID: pid, AlbumID: albumID, UserID: userID, Description: desc,
			LocationName: location, TakenAt: start.AddDate(0, 0, r.IntN(t.days)), Lat: &lat, Lng: &lng,
			Path: PhotoPath(userID, albumID, pid)})
	}
	return photos
}

// highlightSpot is the spot a highlight mentions, else a beach for a beach
// scene, else the first.
func highlightSpot(t trip, desc string) int {
	for i, s := range t.spots {
		if strings.Contains(desc, s.name) {
			return i
		}
	}
	if strings.Contains(desc, "praia") || strings.Contains(desc, "beach") {
		for i, s := range t.spots {
			if s.beach {
				return i
			}
		}
	}
	return 0
}

// PhotoPath is where a photo's file lives under the media root.
func PhotoPath(userID, albumID, photoID string) string {
	return "photos/" + userID + "/" + albumID + "/" + photoID + ".png"
}
