package intent

import "github.com/tripgraph/tripgraph/model/internal/textnorm"

// Words that ask for a stay's price level, folded.
var (
	cheapStayWords = set(`cheap cheaper cheapest affordable inexpensive barato barata baratos baratas
baratinho baratinha baratinhos baratinhas economico economica economicos economicas lowcost
backpacker backpackers mochileiro mochileiros mochilao`)
	luxuryStayWords = set(`luxury luxurious upscale fancy posh luxo luxuoso luxuosa luxuosos luxuosas chique chiques`)
	// budgetNouns make "budget" a price level ("a budget hotel",
	// "budget-friendly", "on a budget"), not a sum ("budget £500").
	budgetNouns = set(`friendly hotel hotels hostel hostels stay stays place places option options accommodation
accommodations room rooms inn travel trip traveller travellers traveler travelers`)
)

// StayBudget reads the price level a message asks of a stay: Cheap for
// "cheap", "budget-friendly", "on a budget", "low-cost", "barato",
// "econômico", "em conta", "custo-benefício"; Luxury for "luxury",
// "upscale", "luxo", "chique"; "" when it asks none. A sum ("budget
// £500") is a price cap, read by ReadPriceCap.
func StayBudget(text string) Budget {
	ws := textnorm.Words(text)
	for i, x := range ws {
		f := x.Fold
		switch {
		case cheapStayWords[f]:
			if f == "cheaper" && wf(ws, i+1) == "than" {
				continue // "cheaper than I thought" asks nothing
			}
			return Cheap
		case f == "budget" && (budgetNouns[wf(ws, i+1)] || wf(ws, i-1) == "a" && (wf(ws, i-2) == "on" || wf(ws, i-2) == "tight") ||
			wf(ws, i-1) == "low" || wf(ws, i-1) == "tight" || wf(ws, i-1) == "limited"):
			return Cheap
		case f == "low" && wf(ws, i+1) == "cost", f == "em" && wf(ws, i+1) == "conta" && wf(ws, i-1) != "leve",
			f == "custo" && (wf(ws, i+1) == "beneficio" || wf(ws, i+1) == "baixo"), f == "preco" && wf(ws, i+1) == "baixo",
			f == "good" && wf(ws, i+1) == "value", f == "best" && wf(ws, i+1) == "price", f == "melhor" && wf(ws, i+1) == "preco":
			return Cheap
		case (f == "caro" || f == "cara" || f == "caros" || f == "expensive" || f == "pricey") &&
			(wf(ws, i-1) == "nada" || wf(ws, i-1) == "not" || wf(ws, i-1) == "nothing" || wf(ws, i-1) == "nao" ||
				(wf(ws, i-1) == "muito" || wf(ws, i-1) == "too" || wf(ws, i-1) == "tao" || wf(ws, i-1) == "so") &&
					(wf(ws, i-2) == "nada" || wf(ws, i-2) == "not" || wf(ws, i-2) == "nothing" || wf(ws, i-2) == "nao")):
			return Cheap // "nada muito caro", "nothing too expensive"
		case luxuryStayWords[f]:
			return Luxury
		case (f == "star" || f == "stars" || f == "estrelas") && (wf(ws, i-1) == "5" || wf(ws, i-1) == "five" || wf(ws, i-1) == "cinco"):
			return Luxury
		}
	}
	return ""
}

// stayKindWords name the kinds of stay the catalog lists, folded.
var stayKindWords = map[string]string{
	"hostel": "hostel", "hostels": "hostel", "albergue": "hostel", "albergues": "hostel", "hostal": "hostel",
	"apartment": "apartment", "apartments": "apartment", "flat": "apartment", "flats": "apartment", "apartamento": "apartment",
	"apartamentos": "apartment", "apto": "apartment", "airbnb": "apartment", "airbnbs": "apartment",
	"guesthouse": "guesthouse", "guesthouses": "guesthouse", "pousada": "guesthouse", "pousadas": "guesthouse",
	"bnb": "guesthouse", "b&b": "guesthouse", "inn": "guesthouse", "inns": "guesthouse",
}

// StayKind reads the kind of stay a message asks for, as the catalog
// names kinds: "hostel", "apartment" or "guesthouse" ("pousada", "B&B");
// "" for a hotel or any place, since travellers say "hotel" of any stay.
func StayKind(text string) string {
	for _, x := range textnorm.Words(text) {
		if k, ok := stayKindWords[x.Fold]; ok {
			return k
		}
	}
	return ""
}
