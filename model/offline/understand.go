package offline

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/locale"

	"github.com/tripgraph/tripgraph/model/dates"
	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/guests"
	"github.com/tripgraph/tripgraph/model/intent"
	"github.com/tripgraph/tripgraph/model/suggest"
	"github.com/tripgraph/tripgraph/tripdata"
)

// Extraction is what the offline model understands from the user's side
// of a conversation. Later messages override earlier ones.
type Extraction struct {
	Location string // English city name, "" if none
	Country  string // English country name, "" if none
	Dates    dates.Result
	Guests   int
	Intent   intent.Intent
	Language string // one of locale.All

	Photo      intent.PhotoRequest // when Intent is Photos
	PhotoDay   time.Time           // a day asked for in a photo request
	PhotoYear  int                 // a year asked about ("where did I travel in 2022?")
	PhotoPlace string              // the place a photo request names, as written
	Within     string              // an earlier search term a narrower search keeps to
	Cuisine    string
	PriceRange string

	Legs     []Leg // the cities of a trip of several, in order; nil for one city
	legTotal int   // the trip's nights, to share among legs without their own

	PriceCap intent.PriceCap // the most the traveller pays for a stay, if said
	Wishes   []string        // what they wish of a stay the catalog cannot filter by
	Budget   intent.Budget   // the price level asked of a stay: cheap, luxury or ""
	StayKind string          // the kind of stay asked for: hostel, apartment, guesthouse or ""
	cc       string          // ISO code of the destination's country

	// Unsure lists the fields read by a guess from the last message: a
	// misspelt place ("location"), two dates offered ("startDate"), a
	// party counted two ways ("numberOfGuests").
	// The planner asks before relying on them; the traveller's next
	// message, whatever it says, settles them.
	Unsure []string
	fuzzy  bool // the destination is the nearest name to a misspelt one that another place competes for

	// Misspelt are the trip's places the last message misspelt, read
	// with no doubt ("krakov" is Kraków): the reply names them.
	Misspelt []Misspelling

	// Suggested are the destinations proposed for Wish (see
	// withSuggestions).
	Suggested []suggest.Destination

	// What the traveller tells of themselves, for the planner's profile:
	// where they live, their children's ages, the diets they keep; and
	// whether the last message asks to forget all that.
	HomeCity, HomeCountry string
	ChildrenAges          []int
	Diets                 []string
	Forget                bool

	// Injection is set when the last message tries to change or reveal
	// the assistant's instructions (alone, or completing an attempt begun
	// in the messages before it). Such messages add nothing to the trip.
	Injection bool

	// Wish is set when the last message is an open question: it asks for
	// destinations to be suggested ("somewhere warm in December?",
	// "praia perto de SP pra um fds") and names none of its own. The
	// trip then has no place (Country may be one the wish keeps to), and
	// from is the city it starts from, if the message names one.
	Wish *intent.DestinationWish
	from *gazetteer.City
}

// assumedGuests is the count a change applies to when none was stated:
// the planner assumes two travellers.
const assumedGuests = 2

// Understand reads the user's messages of a conversation, oldest first.
// today is the clock for relative dates. A reading depends on nothing
// else, and a run reads its conversation several times (to extract the
// trip, to call tools, to reply), as the next turn does with one message
// more: recent readings are kept (readings) and handed out as copies.
func Understand(turns []string, today time.Time) Extraction {
	if e, ok := readings.get(turns, today); ok {
		return e.clone()
	}
	e := understand(turns, today)
	readings.put(turns, today, e.clone())
	return e
}

// clone is e with slices of its own.
func (e Extraction) clone() Extraction {
	e.Legs, e.Wishes, e.Unsure = slices.Clone(e.Legs), slices.Clone(e.Wishes), slices.Clone(e.Unsure)
	if e.Wish != nil {
		w := *e.Wish
		w.Months, w.Climates, w.Kinds = slices.Clone(w.Months), slices.Clone(w.Climates), slices.Clone(w.Kinds)
		e.Wish = &w
	}
	e.Misspelt, e.Suggested = slices.Clone(e.Misspelt), slices.Clone(e.Suggested)
	e.ChildrenAges, e.Diets = slices.Clone(e.ChildrenAges), slices.Clone(e.Diets)
	return e
}

func understand(turns []string, today time.Time) Extraction {
	var e Extraction
	e.Language = language(turns)
	var last intent.Intent
	places := make([]gazetteer.Mention, len(turns))
	attempt := make([]bool, len(turns))
	for i, t := range turns {
		if attempt[i] = intent.InjectionIn(turns[:i+1]); !attempt[i] {
			places[i] = gazetteer.Find(t)
		}
	}
	south := southern(places)
	for i, t := range turns {
		e.Wish, e.from = nil, nil // of the last message only
		if attempt[i] {
			continue // an attempt on the instructions tells nothing of the trip
		}
		e.fuzzy = false
		lang := intent.Language(t)
		if lang == "" {
			lang = e.Language
		}
		it := intent.Detect(t)
		planned := e.Location != "" || e.Country != "" || !e.Dates.Empty() || e.Guests > 0 // before this message
		follow := last == intent.Photos && it == intent.None && followsUp(t, lang, today)
		added, appends := appendsLeg(t, places[i])
		appends = appends && e.Location != "" && it != intent.Photos
		switch {
		case appends:
			e.appendLeg(t, added, lang, today)
		case it == intent.Other && planned && intent.ReadTalk(t) == intent.Unrelated && !intent.AsksSuggestion(t):
			// A question off the trip names no destination ("who is the
			// president of France?").
		case it == intent.Other && intent.ReadTalk(t) == intent.Unrelated && !intent.AsksSuggestion(t):
			// Before any trip, its place may be the one to come; its days
			// are not a stay's ("is it going to rain tomorrow?").
			e.readPlace(places[i])
		case it != intent.Photos && !follow:
			if e.Wish, e.from = openQuestion(t, places[i], e.Location != "" || e.Country != ""); e.Wish != nil {
				e.wishPlace(places[i])
			} else {
				e.readPlace(places[i])
			}
			e.Dates = dates.UpdateIn(e.Dates, withoutPlaces(t, places[i], today), lang, today, south)
			if e.Wish == nil && !e.readLegs(t, places[i], lang, today, south) && len(places[i].Cities) > 0 && e.changesPlace(places[i]) {
				e.Legs = nil // a new destination replaces the trip
			}
		default:
			e.readPhotoPlace(places[i])
		}
		e.readSelf(t, places[i])
		if it == intent.Photos || follow {
			// A question about a past trip states no party ("our honeymoon").
		} else if d := guests.Change(t); d != 0 && planned {
			// A change of the party of a trip already told; before that,
			// "eu e mais 3", "vou levar minha mãe" state the party. A
			// whole count beside it is the party after the change
			// ("somos 6 agora, vem mais um casal", "just 3 now").
			if n := guests.Total(t); n > 0 {
				e.Guests = n
			} else {
				e.Guests = max(1, cmp.Or(e.Guests, assumedGuests)+d)
			}
		} else if n := guests.Total(t); n > 0 && planned {
			e.Guests = n
		} else if n := guests.Count(t); n > 0 {
			e.Guests = n
		}
		if it == intent.Other && (i < len(turns)-1 || chat(t) && concrete(places[i], t, lang, today)) {
			it = intent.None // a greeting before the request, or with it ("hi! Lisbon in May")
		}
		switch {
		case follow:
			e.narrow(t, lang, today)
		case it == intent.None && (last == intent.Restaurants || last == intent.Trip || last == intent.Accommodations):
			if c := intent.CuisineFollowUp(t); c != "" && last != intent.Accommodations {
				e.Cuisine = c // "and italian ones?", "e italianos?"
			}
			if p := intent.PriceRange(t); p != "" && last != intent.Accommodations {
				e.PriceRange = p
			}
			e.readWishes(t) // "cheaper, under 100 a night"
		case it != intent.None:
			last = it
			e.readDetails(t, it, lang, today)
		case last == intent.None:
			// A trip told with no word of what it wants ("Porto in May,
			// under 100 a night"): settled as a trip, its stay's wishes
			// count.
			e.readDetails(t, intent.Trip, lang, today)
		}
	}
	e.settleLegs()
	e.Intent = e.settle(last)
	if e.Wish != nil {
		e.Intent = intent.Other // answered with destinations to choose from, not a search
	}
	if n := len(turns); n > 0 {
		e.countryAsPlace(last, turns[n-1])
	}
	if n := len(turns); n > 0 && !attempt[n-1] && intent.Forget(turns[n-1]) {
		e.Forget, e.Intent = true, intent.Other
	}
	if e.Injection = len(turns) > 0 && attempt[len(turns)-1]; e.Injection {
		e.Intent = intent.Other
	}
	if n := len(turns); n > 0 && !e.Injection && e.Intent != intent.Photos && e.Intent != intent.Other {
		if e.fuzzy || e.legsFuzzy(places[n-1]) {
			e.Unsure = append(e.Unsure, "location")
		} else {
			e.Misspelt = misspellings(places[n-1], &e)
		}
		if dates.Alternatives(turns[n-1], e.Language, today) {
			e.Unsure = append(e.Unsure, "startDate") // "the 14th or the 15th"
		}
		if guests.Conflict(turns[n-1]) {
			e.Unsure = append(e.Unsure, "numberOfGuests")
		}
	}
	if e.PriceCap.Amount > 0 && e.PriceCap.Currency == "" && e.cc != "" {
		e.PriceCap.Currency = tripdata.CurrencyOf(e.cc) // "até 350 por noite" in São Paulo: reais
	}
	return e
}

// legsFuzzy reports a leg of the trip read from a misspelt name in m
// that another place competes for.
func (e *Extraction) legsFuzzy(m gazetteer.Mention) bool {
	for _, c := range m.Cities {
		if !c.Fuzzy || !c.Unsure {
			continue
		}
		for _, l := range e.Legs {
			if l.Location == c.Name {
				return true
			}
		}
	}
	return false
}

// changesPlace reports whether a message names a destination other than
// the trip's cities.
func (e *Extraction) changesPlace(m gazetteer.Mention) bool {
	c, ok := m.Destination()
	if !ok || c.Role.Passing() {
		return false
	}
	for _, l := range e.Legs {
		if l.Location == c.Name {
			return false
		}
	}
	return true
}

// chat reports small talk that may come with a request: a greeting,
// thanks, laughter, or a word of small talk that is no talk of its own
// ("something central would be great", "algo no centro seria ótimo").
func chat(t string) bool {
	switch intent.ReadTalk(t) {
	case intent.Greeting, intent.Thanks, intent.Laugh, intent.NoTalk:
		return true
	}
	return false
}

// concrete reports a message that states a place, dates or a party.
func concrete(m gazetteer.Mention, t, lang string, today time.Time) bool {
	return len(m.Cities) > 0 || len(m.Countries) > 0 || !dates.Parse(t, lang, today).Empty() || guests.Count(t) > 0
}

// settle decides the intent when the messages named none: a trip when
// they say something concrete, else other. Talk of a trip with nothing
// concrete ("can you help me plan something?") is other too.
func (e *Extraction) settle(last intent.Intent) intent.Intent {
	concrete := e.Location != "" || e.Country != "" || !e.Dates.Empty() || e.Guests > 0
	switch {
	case last == intent.None && concrete:
		return intent.Trip
	case last == intent.None, last == intent.Trip && !concrete:
		return intent.Other
	}
	return last
}

// southern reports whether the destination the messages settle on is in
// the southern hemisphere, which decides what a season means.
func southern(places []gazetteer.Mention) bool {
	for i := len(places) - 1; i >= 0; i-- {
		if c, ok := places[i].Destination(); ok {
			return c.Lat < 0
		}
	}
	return false
}

func (e *Extraction) readPlace(m gazetteer.Mention) {
	if c, ok := m.Destination(); ok && !(c.Role.Passing() && e.Location != "") {
		e.Location, e.Country, e.cc, e.fuzzy = c.Name, c.CountryName(), c.City.Country, c.Fuzzy && c.Unsure
		return
	}
	if len(m.Countries) > 0 {
		e.Location, e.Country = "", gazetteer.CountryName(m.Countries[0], locale.English)
	}
}

// wishPlace leaves the trip with no place for an open question: the
// traveller asks where to go. A country it names is one the destinations
// keep to ("somewhere warm in Greece?").
func (e *Extraction) wishPlace(m gazetteer.Mention) {
	e.Location, e.Country, e.cc, e.Legs = "", "", "", nil
	if len(m.Countries) > 0 {
		e.Country, e.cc = gazetteer.CountryName(m.Countries[0], locale.English), m.Countries[0]
	}
}

func (e *Extraction) readDetails(t string, it intent.Intent, lang string, today time.Time) {
	switch it {
	case intent.Photos:
		e.readPhoto(t, lang, today)
	case intent.Restaurants, intent.Trip:
		if c := intent.Cuisine(t); c != "" {
			e.Cuisine = c
		}
		if p := intent.PriceRange(t); p != "" {
			e.PriceRange = p
		}
	}
	if it == intent.Accommodations || it == intent.Trip {
		e.readWishes(t)
	}
}

// readWishes reads a price cap and what the traveller wishes of the stay
// that the catalog cannot filter by; a later cap replaces an earlier one.
func (e *Extraction) readWishes(t string) {
	if c, ok := intent.ReadPriceCap(t); ok {
		e.PriceCap = c
	}
	if b := intent.StayBudget(t); b != "" {
		e.Budget = b // "cheap", "budget-friendly", "barato", "luxo"
	}
	if k := intent.StayKind(t); k != "" {
		e.StayKind = k // "hostel", "pousada", "apartment"
	}
	for _, w := range intent.Wishes(t) {
		if !slices.Contains(e.Wishes, w) {
			e.Wishes = append(e.Wishes, w)
		}
	}
}

// language is the language of the last message that shows one, else of
// all messages together, else English.
func language(turns []string) string {
	for i := len(turns) - 1; i >= 0; i-- {
		if l := intent.Language(withoutAlbumName(turns[i])); l != "" {
			return l
		}
	}
	if l := intent.Language(strings.Join(turns, " ")); l != "" {
		return l
	}
	return locale.English
}

// withoutAlbumName is a photo request without the album's name, whose
// words say nothing of the sentence's language ("show my Rio de Janeiro
// album" is English).
func withoutAlbumName(t string) string {
	if intent.Detect(t) != intent.Photos {
		return t
	}
	if p := intent.ParsePhoto(t); p.Kind == intent.Album && p.Album != "" {
		return strings.Replace(t, p.Album, " ", 1)
	}
	return t
}
