package gazetteer

import (
	"fmt"
	"strings"
)

// touristTowns are towns travellers plan trips to, as "GeoNames name|country":
// the prior that makes them known destinations whatever their size, so
// that a small one is read as readily as a large city ("Bonito em julho")
// and wins over a namesake elsewhere. Compiled for this project from
// general travel knowledge.
const touristTowns = `Gramado|BR Canela|BR Paraty|BR Armação de Búzios|BR Ouro Preto|BR Tiradentes|BR Bonito|BR
Jericoacoara|BR Fernando de Noronha|BR Porto de Galinhas|BR Maragogi|BR Morro de São Paulo|BR Praia do Forte|BR
Porto Seguro|BR Ilhabela|BR Ubatuba|BR Campos do Jordão|BR Arraial do Cabo|BR Cabo Frio|BR Angra dos Reis|BR
Foz do Iguaçu|BR Natal|BR Maceió|BR Olinda|BR Balneário Camboriú|BR Petrópolis|BR Poços de Caldas|BR
Penedo|BR Ilhéus|BR Guarujá|BR Imbituba|BR Blumenau|BR Caldas Novas|BR Barreirinhas|BR Itacaré|BR
Pirenópolis|BR Monte Verde|BR Trindade|BR Ilha Grande|BR Maraú|BR São Sebastião|BR
Brotas|BR Socorro|BR Serra Negra|BR Águas de Lindóia|BR Olímpia|BR Mariana|BR Diamantina|BR Nova Petrópolis|BR
Bento Gonçalves|BR Chapada dos Guimarães|BR Itatiaia|BR Saquarema|BR Teresópolis|BR Nova Friburgo|BR Aracati|BR
Sintra|PT Cascais|PT Coimbra|PT Faro|PT Lagos|PT Albufeira|PT Évora|PT Óbidos|PT Braga|PT Guimarães|PT
Aveiro|PT Funchal|PT Ponta Delgada|PT Nazaré|PT Tavira|PT Portimão|PT Viana do Castelo|PT Fátima|PT
Santorini|GR Mykonos|GR Zakynthos|GR Chaniá|GR Oía|GR Ródos|GR Dubrovnik|HR Split|HR Hvar|HR Rovinj|HR
Nice|FR Cannes|FR Saint-Tropez|FR Chamonix-Mont-Blanc|FR Colmar|FR Annecy|FR Courchevel|FR Val-d'Isère|FR
Positano|IT Capri|IT Sorrento|IT Amalfi|IT Ravello|IT Taormina|IT Bellagio|IT Cortina d'Ampezzo|IT
Riomaggiore|IT Monterosso al Mare|IT Verona|IT Pisa|IT Siena|IT Brugge|BE Salzburg|AT Innsbruck|AT
Kitzbühel|AT Interlaken|CH Zermatt|CH Grindelwald|CH Lauterbrunnen|CH Verbier|CH St. Moritz|CH Davos|CH
Bled|SI Kotor|ME Budva|ME Giethoorn|NL Granada|ES Ibiza|ES Marbella|ES Toledo|ES Córdoba|ES Cádiz|ES
Ronda|ES Bath|GB York|GB Oxford|GB Cambridge|GB Keswick|GB Cork|IE Reykjavík|IS Tromsø|NO
Göreme|TR Ürgüp|TR Bodrum|TR Fethiye|TR Dahab|EG Luxor|EG Aswan|EG Essaouira|MA Chefchaouene|MA
Victoria Falls|ZW Stellenbosch|ZA Knysna|ZA Zanzibar|TZ Tulum|MX Playa del Carmen|MX Cozumel|MX
San Miguel de Allende|MX Oaxaca|MX Puerto Vallarta|MX Cabo San Lucas|MX Sedona|US Aspen|US Key West|US
Napa|US Moab|US Estes Park|US Savannah|US Charleston|US Banff|CA Whistler|CA Canmore|CA Niagara Falls|CA
San Carlos de Bariloche|AR El Calafate|AR Ushuaia|AR Mendoza|AR Colonia del Sacramento|UY Punta del Este|UY
San Pedro de Atacama|CL Puerto Natales|CL Pucón|CL Puerto Varas|CL Valparaíso|CL Cusco|PE Puno|PE
Uyuni|BO Salento|CO Santa Marta|CO San Andrés|CO Villa de Leyva|CO Bocas del Toro|PA Antigua Guatemala|GT
Siem Reap|KH Hoi An|VN Hạ Long|VN Luang Prabang|LA Chiang Mai|TH Pokhara|NP Kandy|LK Hakuba|JP
Queenstown|NZ Rotorua|NZ Cairns|AU Airlie Beach|AU Hobart|AU Manchester|GB Doha|QA Aparecida|BR Setúbal|PT
Palma|ES Alicante|ES Tallinn|EE Ljubljana|SI Heidelberg|DE Orlando|US Phuket|TH`

// readTouristTowns marks the tourist towns as known destinations.
func (x *index) readTouristTowns() error {
	for _, line := range splitLines(touristTowns) {
		for _, entry := range splitEntries(line) {
			name, cc, _ := strings.Cut(entry, "|")
			i, ok := x.find(name, cc)
			if !ok {
				return fmt.Errorf("tourist town %s, %s not in gazetteer", name, cc)
			}
			x.aliased[i] = true
		}
	}
	return nil
}

// splitEntries splits a line of "Name|CC" entries, names of several words
// included: each entry ends with its two-letter code.
func splitEntries(line string) []string {
	var out []string
	words := strings.Fields(line)
	start := 0
	for j, w := range words {
		if _, cc, ok := strings.Cut(w, "|"); ok && len(cc) == 2 {
			out = append(out, strings.Join(words[start:j+1], " "))
			start = j + 1
		}
	}
	return out
}

// KnownDestinations returns the places known as destinations: the tourist
// towns, the cities known by other names, the landmarks and the places
// added by hand, in the gazetteer's order.
func KnownDestinations() []City {
	x, err := load()
	if err != nil {
		return nil
	}
	var out []City
	for i := range x.places.len() {
		if x.famous(int32(i)) {
			out = append(out, x.places.city(int32(i)))
		}
	}
	return out
}
