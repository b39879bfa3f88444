package intent

import (
	"strings"

	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// PriceCap is the most a traveller will pay for a stay.
type PriceCap struct {
	Amount   float64
	Currency string // ISO 4217 code; "" when the message names none
	Total    bool   // for the whole stay, not per night
}

// currencyWords name currencies, folded; currencySigns are written before
// or after the amount.
var (
	currencyWords = map[string]string{
		"euro": "EUR", "euros": "EUR", "eur": "EUR",
		"dollar": "USD", "dollars": "USD", "dolar": "USD", "dolares": "USD", "usd": "USD", "bucks": "USD", "dolares americanos": "USD",
		"pound": "GBP", "pounds": "GBP", "quid": "GBP", "gbp": "GBP", "libra": "GBP", "libras": "GBP",
		"real": "BRL", "reais": "BRL", "brl": "BRL", "conto": "BRL", "contos": "BRL", "pila": "BRL", "pilas": "BRL",
		"yen": "JPY", "iene": "JPY", "ienes": "JPY", "jpy": "JPY",
		"peso": "", "pesos": "", "franc": "CHF", "francs": "CHF", "chf": "CHF",
	}
	currencySigns = []struct{ sign, code string }{
		{"R$", "BRL"}, {"US$", "USD"}, {"U$", "USD"}, {"€", "EUR"}, {"£", "GBP"}, {"¥", "JPY"}, {"$", "USD"},
	}
	// capWords put a ceiling on the price: "under", "max", "até".
	capWords = set(`under below max maximum upto most less cheaper lower budget within
ate maximo abaixo menos orcamento teto limite`)
	// perNight and wholeStay say what the price is for.
	perNight  = set(`night nightly noite diaria diarias pernoite nt nite pn`)
	wholeStay = set(`total whole all tudo inteira toda todo entire completa`)
	// capAfter put a ceiling on an amount said before them: "150 reais
	// no máximo", "100 eur max a night", "90 or less".
	capAfterWords = set(`max maximo tops`)
)

// ReadPriceCap reads a price cap from a message: "under 120 euros a
// night", "max $200/night", "budget £500 total", "até R$ 400 a diária",
// "no máximo 300 reais por noite", "até 3 mil no total". A cap is per
// night unless the message says the whole stay or calls it a budget.
func ReadPriceCap(text string) (PriceCap, bool) {
	ws := textnorm.Words(text)
	for i := range ws {
		amount, n, ok := amountAt(ws, i)
		if !ok || !capBefore(ws, i) && !capAfter(text, ws, i+n) && !lessThanSign(text, ws, i) {
			continue
		}
		c := PriceCap{Amount: amount, Currency: currencyAround(text, ws, i, i+n)}
		per := perAfter(ws, i+n) || perBefore(ws, i)
		if c.Currency == "" && !per && !totalAfter(ws, i+n) && !budgetBefore(ws, i) && !(amount >= 40 && endsClause(text, ws, i+n) && stayAsked(ws)) {
			continue // "up to 4 people", "até 12 de abril" are no price
		}
		c.Total = totalAfter(ws, i+n) || budgetBefore(ws, i) && !per
		return c, true
	}
	return PriceCap{}, false
}

// capAfter reports a ceiling said after the amount ws[:j] and its
// currency or unit: "150 reais por noite no máximo", "100 eur max",
// "90 a night or less", "200 ou menos".
func capAfter(text string, ws []textnorm.Word, j int) bool {
	for k := j; k < len(ws) && k < j+5; k++ {
		if k > 0 && strings.ContainsAny(text[ws[k-1].End:ws[k].Start], ",;.!?") {
			return false // another clause: "from sept 20, max 1500 eur"
		}
		f := ws[k].Fold
		switch {
		case capAfterWords[f]:
			// "max 1500" caps its own number; "no máximo, 3 a 5 de abril" not
			return !isDigits(wf(ws, k+1)) || strings.ContainsAny(text[ws[k].End:ws[k+1].Start], ",;.!?")
		case f == "most" && wf(ws, k-1) == "at", f == "less" && wf(ws, k-1) == "or", f == "menos" && wf(ws, k-1) == "ou":
			return true
		case isDigits(f):
			return false // another number: the ceiling is its own
		}
	}
	return false
}

// lessThanSign reports "<" or "<=" right before the amount ws[i].
func lessThanSign(text string, ws []textnorm.Word, i int) bool {
	before := text[:ws[i].Start]
	if i > 0 {
		before = text[ws[i-1].End:ws[i].Start]
	}
	return strings.Contains(before, "<") || strings.Contains(before, "≤")
}

// perBefore reports a price per night named before the amount: "diária
// de até 180", "nightly max 90", "per night under 100".
func perBefore(ws []textnorm.Word, i int) bool {
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		if perNight[ws[j].Fold] {
			return true
		}
	}
	return false
}

// endsClause reports that nothing but punctuation or the end follows the
// amount ending at ws[j-1]: "hotel for under 100", "pousada até 250.".
func endsClause(text string, ws []textnorm.Word, j int) bool {
	return j >= len(ws) || strings.ContainsAny(text[ws[j-1].End:ws[j].Start], ",.;!?")
}

// stayAsked reports a message that asks for a place to stay, where a
// bare ceiling is a price.
func stayAsked(ws []textnorm.Word) bool {
	for _, w := range ws {
		if stayWords[w.Fold] || strings.HasPrefix(w.Fold, "hotel") || strings.HasPrefix(w.Fold, "hosped") {
			return true
		}
	}
	return false
}

// amountAt reads an amount at ws[i]: "120", "1.500", "1,500", "3 mil",
// "3k". It returns the amount and how many words it took.
func amountAt(ws []textnorm.Word, i int) (float64, int, bool) {
	f := ws[i].Fold
	if f == "" || f[0] < '0' || f[0] > '9' {
		return 0, 0, false
	}
	mult := 1.0
	if strings.HasSuffix(f, "k") {
		f, mult = strings.TrimSuffix(f, "k"), 1000
	}
	v, ok := number(f)
	if !ok {
		return 0, 0, false
	}
	n := 1
	// "1.500" and "1,500" are split into two words by the punctuation.
	if i+1 < len(ws) && len(ws[i+1].Fold) == 3 && isDigits(ws[i+1].Fold) && ws[i+1].Start == ws[i].End+1 {
		w, _ := number(ws[i+1].Fold)
		v, n = v*1000+w, 2
	}
	if i+n < len(ws) && (ws[i+n].Fold == "mil" || ws[i+n].Fold == "thousand") {
		mult, n = 1000, n+1
	}
	return v * mult, n, v > 0
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

func number(s string) (float64, bool) {
	if !isDigits(s) {
		return 0, false
	}
	v := 0.0
	for _, c := range s {
		v = v*10 + float64(c-'0')
	}
	return v, true
}

// capBefore reports a ceiling word in the few words before ws[i]: "under
// 120", "até R$ 400", "no more than", "nothing over", "no máximo".
func capBefore(ws []textnorm.Word, i int) bool {
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		f := ws[j].Fold
		switch {
		case capWords[f]:
			return true
		case (f == "over" || f == "above" || f == "acima") && j > 0 && (ws[j-1].Fold == "nothing" || ws[j-1].Fold == "not" || ws[j-1].Fold == "nada" || ws[j-1].Fold == "nao"):
			return true
		case f == "than" && j > 0 && (ws[j-1].Fold == "more" || ws[j-1].Fold == "less"):
			return true
		case f == "to" && j > 0 && ws[j-1].Fold == "up":
			return true
		}
	}
	return false
}

// budgetBefore reports a budget named before the amount: a budget is for
// the whole stay unless said per night.
func budgetBefore(ws []textnorm.Word, i int) bool {
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		if ws[j].Fold == "budget" || ws[j].Fold == "orcamento" {
			return true
		}
	}
	return false
}

// currencyAround reads the currency written next to the amount
// ws[i:end]: a sign before it ("R$ 400", "$200", "£500") or a word after
// it ("120 euros", "300 reais").
func currencyAround(text string, ws []textnorm.Word, i, end int) string {
	before := text[:ws[i].Start]
	if i > 0 {
		before = text[ws[i-1].End:ws[i].Start]
	}
	before = strings.TrimSpace(before)
	if i > 0 && strings.TrimSpace(text[ws[i-1].End:ws[i].Start]) == "$" && (ws[i-1].Raw == "R" || ws[i-1].Raw == "US" || ws[i-1].Raw == "U") {
		before = ws[i-1].Raw + "$"
	}
	for _, s := range currencySigns {
		if strings.HasSuffix(before, s.sign) {
			return s.code
		}
	}
	after := text[ws[end-1].End:]
	for _, s := range currencySigns {
		if strings.HasPrefix(strings.TrimSpace(after), s.sign) {
			return s.code
		}
	}
	if end < len(ws) {
		if c, ok := currencyWords[ws[end].Fold]; ok {
			return c
		}
	}
	return ""
}

// perAfter reports "a night", "/night", "per night", "por noite", "a
// diária" after the amount (and its currency).
func perAfter(ws []textnorm.Word, i int) bool {
	for j := i; j < len(ws) && j < i+4; j++ {
		if perNight[ws[j].Fold] {
			return true
		}
		if f := ws[j].Fold; (f == "dia" || f == "day") && (wf(ws, j-1) == "por" || wf(ws, j-1) == "per" || wf(ws, j-1) == "a" || wf(ws, j-1) == "ao") {
			return true // "250 por dia", "100 a day"
		}
	}
	return false
}

// totalAfter reports "total", "in total", "no total", "for the whole
// stay" after the amount.
func totalAfter(ws []textnorm.Word, i int) bool {
	for j := i; j < len(ws) && j < i+5; j++ {
		if wholeStay[ws[j].Fold] {
			return true
		}
		if perNight[ws[j].Fold] {
			return false
		}
	}
	return false
}

// wishWords name what travellers want of a stay that the catalog cannot
// filter by, folded, each for one wish.
var wishWords = map[string]string{
	"pool": "pool", "pools": "pool", "piscina": "pool", "piscinas": "pool",
	"pet": "pets", "pets": "pets", "dog": "pets", "dogs": "pets", "cat": "pets", "cachorro": "pets", "cachorros": "pets",
	"cao": "pets", "caes": "pets", "gato": "pets", "cachorrinho": "pets", "petfriendly": "pets",
	"kitchen": "kitchen", "kitchenette": "kitchen", "cozinha": "kitchen",
	"parking": "parking", "garage": "parking", "estacionamento": "parking", "garagem": "parking",
	"beach": "beach", "beachfront": "beach", "seafront": "beach", "praia": "beach", "beira-mar": "beach",
	"breakfast": "breakfast", "cafe": "breakfast",
	"wifi": "wifi", "gym": "gym", "academia": "gym", "spa": "spa", "jacuzzi": "spa", "hidromassagem": "spa",
	"wheelchair": "accessible", "accessible": "accessible", "acessivel": "accessible", "acessibilidade": "accessible",
}

// Wishes lists, in order, what a message wishes of a stay that the
// catalog cannot filter by: "pool", "pets", "kitchen", "parking",
// "beach", "breakfast", "wifi", "gym", "spa", "accessible".
func Wishes(text string) []string {
	var out []string
	ws := textnorm.Words(text)
	photos := false
	for _, w := range ws {
		photos = photos || photoWords[w.Fold]
	}
	for i, w := range ws {
		wish, ok := wishWords[w.Fold]
		if !ok || wish == "breakfast" && w.Fold == "cafe" && !(i+2 < len(ws) && ws[i+1].Fold == "da" && ws[i+2].Fold == "manha") {
			continue
		}
		if wish == "beach" && photos {
			continue // "photos of the beach" wish for nothing
		}
		if !contains(out, wish) {
			out = append(out, wish)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, t := range list {
		if t == s {
			return true
		}
	}
	return false
}
