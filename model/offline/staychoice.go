package offline

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tripgraph/tripgraph/model/intent"
)

// stay is a place to stay of a list-accommodations result, as the reply
// names it.
type stay struct {
	name, kind, currency string
	nightly              float64
}

func staysOf(list []any) []stay {
	var out []stay
	for _, it := range list {
		obj, ok := it.(map[string]any)
		if !ok || str(obj["name"]) == "" {
			continue
		}
		price, _ := obj["nightlyPrice"].(float64)
		out = append(out, stay{name: str(obj["name"]), kind: str(obj["kind"]), currency: str(obj["currency"]), nightly: price})
	}
	return out
}

// stayKindNames name the catalog's kinds of stay, singular and plural, in
// English and Portuguese.
var stayKindNames = map[string][4]string{
	"hostel":     {"hostel", "hostels", "hostel", "hostels"},
	"apartment":  {"apartment", "apartments", "apartamento", "apartamentos"},
	"guesthouse": {"guesthouse", "guesthouses", "pousada", "pousadas"},
}

// masculine are the kinds Portuguese says with "o", "os".
var masculine = map[string]bool{"hostel": true, "apartment": true}

// stayChoice answers what the traveller asked of the stays beyond the
// search's filters: the price level ("cheap", "barato", "luxury") and the
// kind ("hostel", "pousada"). The catalog filters by neither, so the
// reply picks from the list: the cheapest first, or the dearest; the
// places of the kind asked, or that none is of it. "" when nothing of
// the sort was asked or the list names no place.
func stayChoice(e Extraction, list []any) string {
	if e.Budget == "" && e.StayKind == "" {
		return ""
	}
	all := staysOf(list)
	if len(all) == 0 {
		return ""
	}
	lang := e.Language
	picked := all
	kind, kindOK := stayKindNames[e.StayKind]
	var lead string
	if kindOK {
		var of []stay
		for _, s := range all {
			if s.kind == e.StayKind {
				of = append(of, s)
			}
		}
		if len(of) == 0 {
			a := "a "
			if strings.ContainsRune("aeiou", rune(kind[0][0])) {
				a = "an "
			}
			lead = say(lang, "None of them is "+a+kind[0]+".", "Nenhuma delas é "+kind[2]+".")
			if e.Budget == "" {
				return lead
			}
		} else {
			picked = of
		}
	}
	switch e.Budget {
	case intent.Cheap:
		slices.SortStableFunc(picked, func(a, b stay) int { return cmpPrice(a.nightly, b.nightly) })
	case intent.Luxury:
		slices.SortStableFunc(picked, func(a, b stay) int { return cmpPrice(b.nightly, a.nightly) })
	}
	picked = picked[:min(3, len(picked))]
	named := make([]string, len(picked))
	for i, s := range picked {
		named[i] = s.name
		if e.Budget != "" && s.nightly > 0 {
			named[i] += " (" + say(lang, nightly(s)+" a night", nightly(s)+" por noite") + ")"
		}
	}
	list3 := andList(named, lang)
	var what string
	switch {
	case e.Budget == intent.Cheap && kindOK && lead == "" && masculine[e.StayKind]:
		what = say(lang, "The cheapest "+kind[1]+": "+list3+".", "Os "+kind[3]+" mais baratos: "+list3+".")
	case e.Budget == intent.Cheap && kindOK && lead == "":
		what = say(lang, "The cheapest "+kind[1]+": "+list3+".", "As "+kind[3]+" mais baratas: "+list3+".")
	case e.Budget == intent.Luxury && kindOK && lead == "" && masculine[e.StayKind]:
		what = say(lang, "The most upscale "+kind[1]+": "+list3+".", "Os "+kind[3]+" mais sofisticados: "+list3+".")
	case e.Budget == intent.Luxury && kindOK && lead == "":
		what = say(lang, "The most upscale "+kind[1]+": "+list3+".", "As "+kind[3]+" mais sofisticadas: "+list3+".")
	case e.Budget == intent.Cheap:
		what = say(lang, "Cheapest first: "+list3+".", "As mais baratas primeiro: "+list3+".")
	case e.Budget == intent.Luxury:
		what = say(lang, "The most upscale first: "+list3+".", "As mais sofisticadas primeiro: "+list3+".")
	case len(picked) == 1 && masculine[e.StayKind]:
		what = say(lang, "The "+kind[0]+" among them: "+list3+".", "O "+kind[2]+" entre elas: "+list3+".")
	case len(picked) == 1:
		what = say(lang, "The "+kind[0]+" among them: "+list3+".", "A "+kind[2]+" entre elas: "+list3+".")
	default:
		what = say(lang, capFirst(kind[1])+" among them: "+list3+".", capFirst(kind[3])+" entre elas: "+list3+".")
	}
	if lead != "" {
		return lead + " " + what
	}
	return what
}

func cmpPrice(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// nightly writes a place's price a night, rounded to whole units.
func nightly(s stay) string {
	v := math.Round(s.nightly)
	return money(v, s.currency)
}

func capFirst(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// costMore reads how many places cost more than the cap from the
// catalog's message ("…keeps to the price cap; 8 cost more").
var costMore = regexp.MustCompile(`(\d+) cost more`)

// overCap says that no place keeps to the traveller's cap, how many cost
// more, and asks whether a higher budget would do.
func overCap(e Extraction, in string, message string) string {
	n := 0
	if m := costMore.FindStringSubmatch(message); m != nil {
		n, _ = strconv.Atoi(m[1])
	}
	cp := capPhrase(e.PriceCap, e.Language)
	if n > 0 {
		return say(e.Language,
			fmt.Sprintf("No place to stay %s costs %s for those dates: %d %s more. Would a higher budget work?", in, cp, n, plural(n, "costs", "cost")),
			fmt.Sprintf("Nenhuma hospedagem %s custa %s nessas datas: %d %s mais. Podemos aumentar o orçamento?", in, cp, n, plural(n, "custa", "custam")))
	}
	return say(e.Language,
		fmt.Sprintf("No place to stay %s costs %s for those dates. Would a higher budget work?", in, cp),
		fmt.Sprintf("Nenhuma hospedagem %s custa %s nessas datas. Podemos aumentar o orçamento?", in, cp))
}
