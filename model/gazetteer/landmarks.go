package gazetteer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// landmarkTable lists named places travellers go to that are not towns of
// the GeoNames data, or not under the name travellers use: regions,
// islands, lakes, beaches, mountains, national parks, ski resorts and
// small destinations under 1,000 inhabitants. Each line is
//
//	kind|English name|Portuguese name|country|where|other names…
//
// where is the GeoNames name of the town one stays in (its coordinates
// and first-level division are the place's), or "lat,lon" written by hand
// to about 0.05° where the data has no such town. Other names are
// nicknames, local names and spellings; a name marked "~" is also a
// common word and counts only where a place is expected (see ambiguous).
// The list is written for this project from general geographic
// knowledge; coordinates of towns come from GeoNames (CC BY 4.0).
const landmarkTable = `region|Tuscany|Toscana|IT|Florence|Toscana
region|Amalfi Coast|Costa Amalfitana|IT|Amalfi|Costiera Amalfitana|Amalfi coast
region|Cinque Terre|Cinque Terre|IT|44.11,9.73
region|Sicily|Sicília|IT|Palermo|Sicilia
region|Sardinia|Sardenha|IT|Cagliari|Sardegna
region|Dolomites|Dolomitas|IT|Cortina d'Ampezzo|Dolomiti
lake|Lake Como|Lago de Como|IT|Bellagio|Lago di Como|Como lake
lake|Lake Garda|Lago de Garda|IT|Riva del Garda|Lago di Garda
region|Provence|Provença|FR|Aix-en-Provence
region|French Riviera|Riviera Francesa|FR|Nice|Côte d'Azur|Cote d Azur
region|Normandy|Normandia|FR|Rouen|Normandie
region|Loire Valley|Vale do Loire|FR|Tours|Vallée de la Loire
region|Alsace|Alsácia|FR|Colmar
region|Corsica|Córsega|FR|Ajaccio|Corse
ski|Courchevel|Courchevel|FR|Courchevel
ski|Val d'Isère|Val d'Isère|FR|Val-d'Isère|Val d Isere
region|Bavaria|Baviera|DE|Munich|Bayern
region|Black Forest|Floresta Negra|DE|Freiburg|Schwarzwald
region|Swiss Alps|Alpes Suíços|CH|Interlaken
ski|St. Moritz|St. Moritz|CH|St. Moritz|Saint Moritz|St Moritz|Sankt Moritz
ski|Verbier|Verbier|CH|Verbier
town|Hallstatt|Hallstatt|AT|47.56,13.65
region|Tyrol|Tirol|AT|Innsbruck|Tirol
region|Algarve|Algarve|PT|Faro
island|Madeira|Ilha da Madeira|PT|Funchal|~Madeira
island|Azores|Açores|PT|Ponta Delgada|Acores|São Miguel island
region|Douro Valley|Vale do Douro|PT|Peso da Régua|Douro
region|Andalusia|Andaluzia|ES|Sevilla|Andalucía|Andalucia
island|Mallorca|Maiorca|ES|Palma|Majorca
island|Ibiza|Ibiza|ES|Ibiza|Eivissa
island|Menorca|Menorca|ES|Maó|Minorca
island|Tenerife|Tenerife|ES|Santa Cruz de Tenerife
island|Gran Canaria|Gran Canária|ES|Las Palmas de Gran Canaria
island|Lanzarote|Lanzarote|ES|Arrecife
island|Canary Islands|Ilhas Canárias|ES|Santa Cruz de Tenerife|~Canaries|Canárias|Canarias
region|Costa del Sol|Costa del Sol|ES|Marbella
region|Basque Country|País Basco|ES|Bilbao|Euskadi
region|Scottish Highlands|Terras Altas da Escócia|GB|Inverness
region|Lake District|Lake District|GB|Keswick
region|Cotswolds|Cotswolds|GB|51.83,-1.83|the Cotswolds
region|Cornwall|Cornualha|GB|Truro
island|Isle of Skye|Ilha de Skye|GB|57.41,-6.19|~Skye
region|Lapland|Lapônia|FI|Rovaniemi|Lappi
region|Norwegian Fjords|Fiordes da Noruega|NO|Bergen|~fjords|~fiordes
town|Geiranger|Geiranger|NO|62.10,7.21|Geirangerfjord
lake|Lake Bled|Lago Bled|SI|Bled|Lake Bled|Bled lake
park|Plitvice Lakes|Lagos de Plitvice|HR|44.88,15.62|Plitvice|Plitvička jezera
region|Dalmatia|Dalmácia|HR|Split|Dalmacija
island|Rhodes|Rodes|GR|Ródos|Rodos
island|Corfu|Corfu|GR|39.62,19.92|Kerkyra
island|Paros|Paros|GR|37.08,25.15
island|Naxos|Naxos|GR|37.10,25.38
island|Milos|Milos|GR|36.72,24.43
island|Cyclades|Cíclades|GR|Mykonos|Greek islands|ilhas gregas
town|Oia|Oia|GR|Oía
region|Cappadocia|Capadócia|TR|Göreme|Kapadokya|Capadocia
town|Pamukkale|Pamukkale|TR|37.92,29.12
town|~Petra|Petra|JO|30.32,35.44|Wadi Musa
desert|Wadi Rum|Wadi Rum|JO|29.58,35.42
desert|Sahara|Saara|MA|31.10,-4.01|Merzouga|Sahara desert|deserto do Saara
town|Chefchaouen|Chefchaouen|MA|Chefchaouene|Chaouen|Chefchaouene
island|Zanzibar|Zanzibar|TZ|Zanzibar|Unguja
park|Serengeti|Serengeti|TZ|Arusha|Serengeti National Park
mountain|Kilimanjaro|Kilimanjaro|TZ|Moshi|Mount Kilimanjaro|Monte Kilimanjaro
park|Kruger National Park|Parque Nacional Kruger|ZA|Nelspruit|~Kruger|Kruger Park
region|Garden Route|Garden Route|ZA|Knysna
region|Winelands|Winelands|ZA|Stellenbosch|Cape Winelands
falls|Victoria Falls|Cataratas Vitória|ZW|Victoria Falls|Cataratas Vitoria
park|Masai Mara|Masai Mara|KE|-1.49,35.14|Maasai Mara
island|Lombok|Lombok|ID|Mataram
island|Gili Islands|Ilhas Gili|ID|-8.35,116.05|Gili|Gili Trawangan
island|Phi Phi Islands|Ilhas Phi Phi|TH|7.74,98.77|Phi Phi|Koh Phi Phi|Ko Phi Phi
island|Koh Phangan|Koh Phangan|TH|9.73,100.01|Ko Phangan|Phangan
island|Koh Tao|Koh Tao|TH|10.09,99.84|Ko Tao
island|Koh Lanta|Koh Lanta|TH|7.62,99.04|Ko Lanta
beach|Ao Nang|Ao Nang|TH|8.03,98.82
island|Palawan|Palawan|PH|Puerto Princesa
town|El Nido|El Nido|PH|11.18,119.39
bay|Ha Long Bay|Baía de Ha Long|VN|Hạ Long|Halong Bay|Halong|Ha Long|Baía de Halong
town|Angkor|Angkor|KH|Siem Reap|Angkor Wat
island|Hokkaido|Hokkaido|JP|Sapporo
ski|Niseko|Niseko|JP|42.80,140.69
mountain|Mount Fuji|Monte Fuji|JP|35.50,138.76|~Fuji|Fujisan
island|Jeju|Jeju|KR|Jeju City|Jeju Island|Jeju-do|Ilha de Jeju
region|Kerala|Kerala|IN|Cochin
region|Goa|Goa|IN|Panaji
region|Rajasthan|Rajastão|IN|Jaipur
mountain|Everest|Everest|NP|27.99,86.93|Mount Everest|Monte Everest|Everest base camp
town|Ella|Ella|LK|6.87,81.05|~Ella
island|Tasmania|Tasmânia|AU|Hobart
reef|Great Barrier Reef|Grande Barreira de Corais|AU|Cairns|Barrier Reef
town|Uluru|Uluru|AU|-25.34,131.04|Ayers Rock
island|Whitsundays|Whitsundays|AU|Airlie Beach|Whitsunday Islands
region|~Outback|Outback|AU|Alice Springs|the Outback
mountain|Milford Sound|Milford Sound|NZ|-44.67,167.93
island|Bora Bora|Bora Bora|PF|-16.50,-151.74
island|Tahiti|Taiti|PF|Papeete
island|Maui|Maui|US|Kahului
island|Kauai|Kauai|US|Lihue
island|~Big Island|Big Island|US|Hilo|Big Island of Hawaii
island|Oahu|Oahu|US|Honolulu|O'ahu
region|Hawaii|Havaí|US|Honolulu|Hawai'i|Havai
park|Grand Canyon|Grand Canyon|US|36.06,-112.14|Grand Canyon National Park|Gran Canyon
park|Yosemite|Yosemite|US|37.75,-119.59|Yosemite National Park
park|Yellowstone|Yellowstone|US|44.66,-111.10|Yellowstone National Park|Old Faithful
park|Zion National Park|Parque Nacional Zion|US|37.20,-112.99|~Zion
park|Arches National Park|Parque Nacional Arches|US|Moab|~Arches
region|Napa Valley|Vale de Napa|US|Napa|Napa valley
lake|Lake Tahoe|Lago Tahoe|US|South Lake Tahoe|Tahoe
ski|Aspen|Aspen|US|Aspen|Aspen Snowmass
ski|Vail|Vail|US|39.64,-106.37
ski|Park City|Park City|US|40.65,-111.50
ski|Jackson Hole|Jackson Hole|US|43.48,-110.76
region|Florida Keys|Florida Keys|US|Key West|the Keys
region|Cape Cod|Cape Cod|US|41.67,-70.30
region|Big Sur|Big Sur|US|36.27,-121.81
region|Route 66|Rota 66|US|35.20,-111.65
falls|Niagara Falls|Cataratas do Niágara|CA|Niagara Falls|Niagara|Niágara
park|Banff National Park|Parque Nacional de Banff|CA|Banff|Lake Louise
ski|Whistler|Whistler|CA|Whistler|~Whistler
region|Yucatán|Iucatã|MX|Mérida|Yucatan|Riviera Maya
island|Cozumel|Cozumel|MX|Cozumel
region|Baja California Sur|Baja California Sur|MX|Cabo San Lucas|Los Cabos
island|Aruba|Aruba|AW|Oranjestad
island|Curaçao|Curaçao|CW|Willemstad|Curacao
island|Barbados|Barbados|BB|Bridgetown
island|Saint Lucia|Santa Lúcia|LC|Castries|St Lucia
region|Caribbean|Caribe|DO|Punta Cana|the Caribbean|Caraíbas
island|San Andrés|San Andrés|CO|San Andrés|San Andres|Santo André ilha
region|Coffee Region|Eixo Cafeeiro|CO|Salento|Eje Cafetero|Zona Cafetera
town|Monteverde|Monteverde|CR|10.31,-84.82|Santa Elena Costa Rica
beach|Tamarindo|Tamarindo|CR|10.30,-85.84
beach|Puerto Viejo|Puerto Viejo|CR|9.66,-82.75
island|Bocas del Toro|Bocas del Toro|PA|Bocas del Toro
island|Galápagos|Galápagos|EC|-0.74,-90.31|Galapagos|Galápagos Islands|Ilhas Galápagos
town|Machu Picchu|Machu Picchu|PE|-13.15,-72.52|Machu Pichu|Machupicchu|Aguas Calientes
region|Sacred Valley|Vale Sagrado|PE|-13.33,-72.08|Valle Sagrado|Urubamba
lake|Lake Titicaca|Lago Titicaca|PE|Puno|Titicaca
town|Huacachina|Huacachina|PE|-14.09,-75.76
desert|Salar de Uyuni|Salar de Uyuni|BO|Uyuni|Uyuni salt flats|Uyuni
desert|Atacama|Atacama|CL|San Pedro de Atacama|Atacama Desert|Deserto do Atacama
park|Torres del Paine|Torres del Paine|CL|Puerto Natales|Torres del Paine National Park
island|Easter Island|Ilha de Páscoa|CL|-27.15,-109.43|Rapa Nui|Isla de Pascua
region|Patagonia|Patagônia|AR|El Calafate|Patagonia
town|El Chaltén|El Chaltén|AR|-49.33,-72.89|El Chalten|Chalten
ski|Valle Nevado|Valle Nevado|CL|-33.36,-70.25|Valle nevado
ski|Portillo|Portillo|CL|-32.84,-70.13
ski|Las Leñas|Las Leñas|AR|-35.15,-70.08|Las Lenas
ski|Cerro Castor|Cerro Castor|AR|Ushuaia
ski|Chapelco|Chapelco|AR|-40.16,-71.35|San Martín de los Andes
ski|Cerro Catedral|Cerro Catedral|AR|San Carlos de Bariloche
falls|Iguazu Falls|Cataratas do Iguaçu|BR|Foz do Iguaçu|Iguassu Falls|Iguazú|Cataratas del Iguazú|~Cataratas
region|~Amazon|Amazônia|BR|Manaus|the Amazon|Amazon rainforest|Amazonia|floresta amazônica
region|Pantanal|Pantanal|BR|Corumbá
region|Chapada Diamantina|Chapada Diamantina|BR|-12.56,-41.39|Lençóis|Lencois
region|Chapada dos Veadeiros|Chapada dos Veadeiros|BR|-14.13,-47.51|Alto Paraíso|Alto Paraíso de Goiás|Veadeiros
region|Lençóis Maranhenses|Lençóis Maranhenses|BR|Barreirinhas|Lencois Maranhenses
region|Jalapão|Jalapão|BR|-10.55,-46.42|Jalapao
region|Serra Gaúcha|Serra Gaúcha|BR|-29.38,-50.87|Serra Gaucha
town|Monte Verde|Monte Verde|BR|Monte Verde
town|Visconde de Mauá|Visconde de Mauá|BR|-22.33,-44.54
beach|Praia do Rosa|Praia do Rosa|BR|-28.13,-48.64|Rosa beach
town|Garopaba|Garopaba|BR|-28.03,-48.62
beach|~Pipa|Praia da Pipa|BR|-6.23,-35.05|Praia de Pipa|Pipa beach
beach|Canoa Quebrada|Canoa Quebrada|BR|-4.53,-37.70
beach|Cumbuco|Cumbuco|BR|-3.63,-38.73
beach|São Miguel dos Milagres|São Miguel dos Milagres|BR|-9.26,-35.37|~Milagres
beach|Caraíva|Caraíva|BR|-16.81,-39.15|Caraiva
beach|Barra Grande|Barra Grande|BR|-13.87,-38.95|Península de Maraú|Peninsula de Marau
island|Boipeba|Boipeba|BR|-13.61,-38.93|Ilha de Boipeba
town|Capitólio|Capitólio|BR|-20.61,-46.05|Capitolio
town|São Thomé das Letras|São Thomé das Letras|BR|-21.72,-44.99|Sao Tome das Letras
island|Ilha do Mel|Ilha do Mel|BR|-25.55,-48.31
island|Abrolhos|Abrolhos|BR|-17.96,-38.70|Arquipélago de Abrolhos
town|Bombinhas|Bombinhas|BR|-27.14,-48.51
town|Urubici|Urubici|BR|-28.01,-49.59
town|Cambará do Sul|Cambará do Sul|BR|-29.05,-50.15|Cambara do Sul|Aparados da Serra
town|Holambra|Holambra|BR|-22.63,-47.06
town|Rio Quente|Rio Quente|BR|-17.77,-48.76
town|Alter do Chão|Alter do Chão|BR|-2.50,-54.95|Alter do Chao
town|Inhotim|Inhotim|BR|Brumadinho
town|Lavras Novas|Lavras Novas|BR|-20.48,-43.51
town|Mucugê|Mucugê|BR|-13.00,-41.37|Mucuge
town|Santo Antônio do Pinhal|Santo Antônio do Pinhal|BR|-22.83,-45.66
region|Costa Verde|Costa Verde|BR|Paraty
region|Região dos Lagos|Região dos Lagos|BR|Cabo Frio|Regiao dos Lagos
region|Vale dos Vinhedos|Vale dos Vinhedos|BR|Bento Gonçalves
region|Chapada dos Guimarães|Chapada dos Guimarães|BR|Chapada dos Guimarães
region|Serra da Canastra|Serra da Canastra|BR|-20.25,-46.42|Canastra
park|Lagoa Azul|Lagoa Azul|BR|-2.52,-43.48
region|Rota das Emoções|Rota das Emoções|BR|Barreirinhas
island|Lofoten|Ilhas Lofoten|NO|68.23,14.56|Lofoten Islands|Lofoten islands
park|Tayrona|Parque Tayrona|CO|11.31,-74.03|Tayrona National Park|Parque Nacional Tayrona
island|Holbox|Holbox|MX|21.52,-87.38|Isla Holbox
park|Ibitipoca|Ibitipoca|BR|-21.71,-43.90|Parque de Ibitipoca|Conceição de Ibitipoca
island|Nusa Penida|Nusa Penida|ID|-8.73,115.54
beach|José Ignacio|José Ignacio|UY|-34.84,-54.63|Jose Ignacio
town|Morretes|Morretes|BR|-25.48,-48.83
town|Conservatória|Conservatória|BR|-22.29,-43.93|Conservatoria
town|Bibury|Bibury|GB|51.76,-1.83
island|Mljet|Mljet|HR|42.75,17.55
beach|Maresias|Maresias|BR|-23.79,-45.56
beach|São Miguel do Gostoso|São Miguel do Gostoso|BR|-5.12,-35.64|Sao Miguel do Gostoso
beach|Praia dos Carneiros|Praia dos Carneiros|BR|-8.69,-35.08|Carneiros
island|Faroe Islands|Ilhas Faroé|FO|62.01,-6.77|Faroes|Ilhas Faroe
park|Walt Disney World|Walt Disney World|US|Orlando|Disney World|Disneyworld|Disney Orlando|~Disney
park|Disneyland|Disneylândia|US|Anaheim|Disneyland California|Disneylandia
park|Disneyland Paris|Disneyland Paris|FR|48.87,2.78|Disney Paris|Eurodisney|Euro Disney
park|Universal Orlando|Universal Orlando|US|Orlando|Universal Studios Orlando
park|Beto Carrero World|Beto Carrero World|BR|-26.80,-48.61|Beto Carrero
park|Beach Park|Beach Park|BR|-3.86,-38.40
region|Serra da Mantiqueira|Serra da Mantiqueira|BR|Campos do Jordão|Mantiqueira
region|Bahia|Bahia|BR|Salvador
region|Minas Gerais|Minas Gerais|BR|Belo Horizonte|~Minas
region|Santa Catarina|Santa Catarina|BR|Florianópolis
region|Rio Grande do Norte|Rio Grande do Norte|BR|Natal
region|Ceará|Ceará|BR|Fortaleza|Ceara
region|Pernambuco|Pernambuco|BR|Recife
region|Alagoas|Alagoas|BR|Maceió
region|Maranhão|Maranhão|BR|São Luís|Maranhao
region|Paraíba|Paraíba|BR|João Pessoa|Paraiba
region|Espírito Santo|Espírito Santo|BR|Vitória|Espirito Santo
region|Mato Grosso do Sul|Mato Grosso do Sul|BR|Campo Grande
region|Amazonas state|Amazonas|BR|Manaus
region|Goiás|Goiás|BR|Goiânia|Goias
region|Paraná state|~Paraná|BR|Curitiba
region|Rio Grande do Sul|Rio Grande do Sul|BR|Porto Alegre
region|Tocantins|Tocantins|BR|Palmas
region|Sergipe|Sergipe|BR|Aracaju
region|Piauí|Piauí|BR|Teresina|Piaui
region|California|Califórnia|US|Los Angeles
region|Florida|Flórida|US|Miami
region|Texas|Texas|US|Austin
region|Alaska|Alasca|US|Anchorage
region|New England|Nova Inglaterra|US|Boston
region|British Columbia|Colúmbia Britânica|CA|Vancouver
region|Catalonia|Catalunha|ES|Barcelona|Catalunya|Cataluña
region|Galicia|Galiza|ES|Santiago de Compostela|Galícia
region|Scotland|Escócia|GB|Edinburgh|Escocia
region|Wales|País de Gales|GB|Cardiff
region|England|Inglaterra|GB|London
`

// landmark is one line of landmarkTable.
type landmark struct {
	kind, en, pt, country, where string
	names                        []string // every name, the English one first, "~" marks removed
	words                        []string // names that are also common words, folded
}

// landmarks parses landmarkTable.
func landmarks() ([]landmark, error) {
	var out []landmark
	for _, line := range splitLines(landmarkTable) {
		f := strings.Split(line, "|")
		if len(f) < 5 {
			return nil, fmt.Errorf("landmark line %q: want at least 5 fields", line)
		}
		l := landmark{kind: f[0], country: f[3], where: f[4]}
		for j, n := range append([]string{f[1], f[2]}, f[5:]...) {
			word := strings.HasPrefix(n, "~")
			n = strings.TrimPrefix(n, "~")
			switch j {
			case 0:
				l.en = n
			case 1:
				l.pt = n
			}
			l.names = append(l.names, n)
			if word {
				l.words = append(l.words, textnorm.Key(n))
			}
		}
		out = append(out, l)
	}
	return out, nil
}

// readLandmarks adds the landmarks: a place named like the town one stays
// in ("Zermatt", "Aspen") is that town, known by more names; any other is
// a place of its own at the town's coordinates, or at its own. Names
// already taken by an alias keep their meaning.
func (x *index) readLandmarks() error {
	list, err := landmarks()
	if err != nil {
		return err
	}
	for _, l := range list {
		i, err := x.landmarkPlace(l)
		if err != nil {
			return err
		}
		for _, n := range l.names {
			k := textnorm.Key(n)
			if _, taken := x.alias[k]; taken || k == "" {
				continue
			}
			x.alias[k] = i
			x.noteWords(k)
		}
		for _, w := range l.words {
			if strings.Contains(w, " ") {
				ambiguousPhrases[w] = true
			} else {
				ambiguous[w] = true
			}
		}
		x.aliased[i] = true
	}
	return nil
}

// landmarkPlace returns the city a landmark is, adding it when it is a
// place of its own.
func (x *index) landmarkPlace(l landmark) (int32, error) {
	c := City{Name: l.en, GeoName: l.en, Country: l.country, Kind: l.kind}
	if lat, lon, ok := latLon(l.where); ok {
		c.Lat, c.Lon = lat, lon
	} else {
		base, ok := x.find(l.where, l.country)
		if !ok {
			return 0, fmt.Errorf("landmark %s: no town %s in %s", l.en, l.where, l.country)
		}
		if textnorm.Key(l.en) == textnorm.Key(x.places.city(base).GeoName) || textnorm.Key(l.en) == textnorm.Key(x.places.city(base).Name) {
			return base, nil
		}
		b := x.places.city(base)
		c.Admin1, c.Population, c.Lat, c.Lon = b.Admin1, b.Population, b.Lat, b.Lon
	}
	i, err := x.places.add(c)
	if err != nil {
		return 0, fmt.Errorf("landmark %s: %w", l.en, err)
	}
	x.addName(c.Name, i)
	return i, nil
}

// latLon reads "lat,lon".
func latLon(s string) (float64, float64, bool) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return 0, 0, false
	}
	lat, err1 := strconv.ParseFloat(a, 64)
	lon, err2 := strconv.ParseFloat(b, 64)
	return lat, lon, err1 == nil && err2 == nil
}
