package offline

import (
	"encoding/json"

	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/intent"
)

// readSelf reads what a message tells of the traveller: where they live
// ("I live in Houston", "we're from São Paulo", "saindo de Campinas"),
// their children's ages and the diets they keep. A later message's home or
// ages replace earlier ones; diets add up.
func (e *Extraction) readSelf(t string, m gazetteer.Mention) {
	dest, hasDest := m.Destination()
	for _, c := range m.Cities {
		if (c.Role == gazetteer.Origin || c.Origin) && !(hasDest && dest.City == c.City) {
			e.HomeCity, e.HomeCountry = c.Name, c.CountryName()
		}
	}
	if ages := intent.ChildrenAges(t); len(ages) > 0 {
		e.ChildrenAges = ages
	}
	for _, d := range intent.Diets(t) {
		if !contains(e.Diets, d) {
			e.Diets = append(e.Diets, d)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Profile is the "Traveller profile:" line of a system prompt: what the
// planner remembers of the traveller from earlier conversations. The model
// answers in its language when the messages show none, and searches stays
// within its budget when the messages state none.
type Profile struct {
	Language string `json:"language,omitempty"`
	Budget   *struct {
		Amount   float64 `json:"amount"`
		Currency string  `json:"currency,omitempty"`
		Total    bool    `json:"total,omitempty"`
	} `json:"budget,omitempty"`
}

// profileFrom reads the "Traveller profile: {json}" line, if there is one.
func profileFrom(system string) *Profile {
	v, ok := lineValue(system, "Traveller profile:")
	if !ok {
		return nil
	}
	var p Profile
	if json.Unmarshal([]byte(v), &p) != nil {
		return nil
	}
	return &p
}

// withProfile fills what the messages left unsaid from the profile: the
// language, when no message shows one, and the price cap of stays.
func (e Extraction) withProfile(p *Profile, users []string) Extraction {
	if p == nil {
		return e
	}
	if p.Language != "" && !languageShown(users) {
		e.Language = p.Language
	}
	if b := p.Budget; b != nil && b.Amount > 0 && e.PriceCap.Amount == 0 {
		e.PriceCap = intent.PriceCap{Amount: b.Amount, Currency: b.Currency, Total: b.Total}
	}
	return e
}

// languageShown reports whether any message shows its language.
func languageShown(users []string) bool {
	for _, u := range users {
		if intent.Language(u) != "" {
			return true
		}
	}
	return false
}
