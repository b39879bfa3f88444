package mcpserver

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/toolname"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/tripdata"
)

// AccommodationOut is a place to stay as the catalog tools return it.
type AccommodationOut struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	City         string  `json:"city"`
	Kind         string  `json:"kind" jsonschema:"hotel, apartment, guesthouse or hostel"`
	NightlyPrice float64 `json:"nightlyPrice"`
	Currency     string  `json:"currency"`
	TotalPrice   float64 `json:"totalPrice,omitempty" jsonschema:"nights × nightlyPrice for the asked dates"`
	Rating       float64 `json:"rating" jsonschema:"0 to 5"`
	ImageURL     string  `json:"imageUrl"`
	Capacity     int     `json:"capacity" jsonschema:"how many guests it holds"`
	Lat          float64 `json:"lat"`
	Lng          float64 `json:"lng"`
	CentreKm     float64 `json:"centreKm" jsonschema:"how far it is from the city centre, in km, to 0.1"`
	Area         string  `json:"area" jsonschema:"where it is: centre (within 1 km of the centre), or north, north-east, east, south-east, south, south-west, west or north-west of it"`
}

// ListAccommodationsIn is the input of list-accommodations.
type ListAccommodationsIn struct {
	Caller
	Location  string `json:"location" jsonschema:"the city, in English, Portuguese or its local name ('Lisbon', 'Lisboa', 'Nova York'), with its country or US state when the name is shared ('Paris, Texas', 'Córdoba, Argentina')"`
	StartDate string `json:"startDate" jsonschema:"check-in day, YYYY-MM-DD, from today (UTC) to 730 days ahead"`
	EndDate   string `json:"endDate" jsonschema:"check-out day, YYYY-MM-DD, 1 to 90 nights after startDate"`
	Guests    int    `json:"guests" jsonschema:"number of guests, 1 to 20"`
	PriceCap
}

// PriceCap is the most a traveller pays, per night or for the whole stay,
// in a currency of their choosing.
type PriceCap struct {
	MaxNightlyPrice float64 `json:"maxNightlyPrice,omitempty" jsonschema:"optional: only places costing at most this per night, in currency"`
	MaxTotalPrice   float64 `json:"maxTotalPrice,omitempty" jsonschema:"optional: only places costing at most this for the whole stay, in currency"`
	Currency        string  `json:"currency,omitempty" jsonschema:"optional ISO 4217 code of the caps (EUR, USD, BRL, GBP, JPY…); each place's own currency when omitted"`
}

// ListAccommodationsOut is the output of list-accommodations.
type ListAccommodationsOut struct {
	CityOut
	StartDate string `json:"startDate"`
	EndDate   string `json:"endDate"`
	Nights    int    `json:"nights"`
	Guests    int    `json:"guests"`
	PriceCap
	Accommodations []AccommodationOut `json:"accommodations" jsonschema:"places that hold the guests, are free for every night of the stay and keep to the price caps"`
}

// GetAccommodationIn is the input of get-accommodation.
type GetAccommodationIn struct {
	Caller
	ID        string `json:"id" jsonschema:"the accommodation's id, from list-accommodations"`
	StartDate string `json:"startDate,omitempty" jsonschema:"optional check-in day, YYYY-MM-DD, from today (UTC) to 730 days ahead: with endDate, says whether the place is free"`
	EndDate   string `json:"endDate,omitempty" jsonschema:"optional check-out day, YYYY-MM-DD, 1 to 90 nights after startDate"`
}

// GetAccommodationOut is the output of get-accommodation.
type GetAccommodationOut struct {
	AccommodationOut
	StartDate    string `json:"startDate,omitempty"`
	EndDate      string `json:"endDate,omitempty"`
	Availability string `json:"availability,omitempty" jsonschema:"for the dates asked: free, or booked (another booking holds some of the nights); absent without dates"`
}

// BookAccommodationIn is the input of book-accommodation.
type BookAccommodationIn struct {
	Caller
	ID             string `json:"id" jsonschema:"the accommodation's id"`
	StartDate      string `json:"startDate" jsonschema:"check-in day, YYYY-MM-DD, from today (UTC) to 730 days ahead"`
	EndDate        string `json:"endDate" jsonschema:"check-out day, YYYY-MM-DD, 1 to 90 nights after startDate"`
	Guests         int    `json:"guests" jsonschema:"number of guests, 1 to 20, at most the place's capacity"`
	IdempotencyKey string `json:"idempotencyKey" jsonschema:"a fresh unique string per booking (1 to 200 characters); repeating a key with the same request returns the booking first made with it, with a different request fails with CONFLICT"`
}

// BookingOut is a stored booking.
type BookingOut struct {
	ID              string  `json:"id"`
	Reference       string  `json:"reference" jsonschema:"the booking's reference as a person reads it aloud (K7QM-4X2D): give the user this, not the id"`
	AccommodationID string  `json:"accommodationId"`
	StartDate       string  `json:"startDate"`
	EndDate         string  `json:"endDate"`
	Nights          int     `json:"nights"`
	Guests          int     `json:"guests"`
	NightlyPrice    float64 `json:"nightlyPrice"`
	TotalPrice      float64 `json:"totalPrice"`
	Currency        string  `json:"currency"`
	IdempotencyKey  string  `json:"idempotencyKey"`
	CreatedAt       string  `json:"createdAt"`
}

// BookAccommodationOut is the output of book-accommodation.
type BookAccommodationOut struct {
	Booking  BookingOut `json:"booking"`
	Replayed bool       `json:"replayed" jsonschema:"true when the idempotencyKey was used before for the same request and this is that first booking"`
}

// RestaurantOut is a restaurant as list-restaurants returns it.
type RestaurantOut struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	Cuisine      string  `json:"cuisine"`
	PriceRange   string  `json:"priceRange" jsonschema:"$ to $$$$"`
	Rating       float64 `json:"rating"`
	DistanceKm   float64 `json:"distanceKm" jsonschema:"from the city centre"`
	OpeningHours string  `json:"openingHours"`
	ImageURL     string  `json:"imageUrl"`
	Popular      bool    `json:"popular"`
}

// ListRestaurantsIn is the input of list-restaurants.
type ListRestaurantsIn struct {
	Caller
	Location   string `json:"location" jsonschema:"the city, in English, Portuguese or its local name"`
	Cuisine    string `json:"cuisine,omitempty" jsonschema:"optional, in English or Portuguese: 'Portuguese', 'portuguesa', 'japonesa', 'sushi'; an unknown word matches part of a cuisine's name"`
	PriceRange string `json:"priceRange,omitempty" jsonschema:"optional: $, $$, $$$ or $$$$"`
}

// ListRestaurantsOut is the output of list-restaurants.
type ListRestaurantsOut struct {
	CityOut
	Cuisine     string          `json:"cuisine,omitempty" jsonschema:"the cuisine the filter was understood as"`
	Cuisines    []string        `json:"cuisines" jsonschema:"every cuisine the city's restaurants serve, so that 'none of that cuisine' differs from 'no restaurants'"`
	Restaurants []RestaurantOut `json:"restaurants"`
}

func (t *tools) addCatalogTools(s *mcp.Server) {
	addTool(s, t, readOnly(toolname.ListAccommodations, card.Accommodations, "Find places to stay",
		"Lists the accommodations of a city that hold the guests and are free for every night of the stay, with the total price (nights × nightly price). "+
			"Optional caps (maxNightlyPrice, maxTotalPrice) keep only the places that cost at most that, in the currency given, converted at rough rates. "+
			"Dates run from today (UTC) to 730 days ahead; earlier dates fail with BAD_REQUEST. "+
			"The result says which place the location was understood as; for a city the catalog does not cover it names the nearest covered cities. "+
			"Use when: the user wants a hotel or a place to stay in a city for some dates. "+
			"Don't use when: the user wants to book a place you already listed (use book-accommodation) or asks about food (list-restaurants)."),
		t.listAccommodations)
	addTool(s, t, readOnly(toolname.GetAccommodation, card.Accommodations, "Details of one place to stay",
		"Returns one accommodation by id; with startDate and endDate, also whether it is free for those dates. "+
			"Use when: the user asks about a place you already listed, or whether it is free on other dates."),
		t.getAccommodation)
	addTool(s, t, &mcp.Tool{Name: toolname.BookAccommodation, Title: "Book a place to stay", Meta: cardMeta(card.BookingConfirmation),
		Description: "Books an accommodation for the user for a stay. Dates that overlap another booking of the place fail with CONFLICT; " +
			"dates before today (UTC) or more than 730 days ahead fail with BAD_REQUEST. " +
			"Send a fresh idempotencyKey per booking: retrying the same request with the same key returns the first booking and books nothing more; " +
			"the same key with another place, other dates or other guests fails with CONFLICT. " +
			"Use when: the user clearly asks to book a place you listed, for known dates and guests. " +
			"Don't use when: the user is still comparing places (use list-accommodations).",
		Annotations: &mcp.ToolAnnotations{IdempotentHint: true, DestructiveHint: new(false), OpenWorldHint: new(false)}},
		t.bookAccommodation)
	addTool(s, t, readOnly(toolname.ListRestaurants, card.Restaurants, "Find places to eat",
		"Lists the restaurants of a city, popular and best rated first, optionally of one cuisine (English or Portuguese: 'Japanese', 'japonesa') or price range. "+
			"The result lists every cuisine the city has, so that none of one cuisine is not taken for no restaurants at all. "+
			"Use when: the user asks where to eat in a city. Don't use when: the user asks about places to stay."),
		t.listRestaurants)
}

func (t *tools) accommodation(a tripdata.Accommodation, city tripdata.City, nights int) AccommodationOut {
	out := AccommodationOut{ID: a.ID, Name: a.Name, City: a.City, Kind: a.Kind, NightlyPrice: a.NightlyPrice,
		Currency: a.Currency, Rating: a.Rating, ImageURL: t.cfg.URLs.PictureURL("accommodation", a.ID),
		Capacity: a.Capacity, Lat: a.Lat, Lng: a.Lng}
	out.CentreKm, out.Area = whereInCity(city, a.Lat, a.Lng)
	if nights > 0 {
		out.TotalPrice = price(a.NightlyPrice, nights)
	}
	return out
}

// price is the cost of nights at nightly, in cents rounded.
func price(nightly float64, nights int) float64 {
	return math.Round(nightly*float64(nights)*100) / 100
}

func (t *tools) listAccommodations(ctx context.Context, _ string, in ListAccommodationsIn) (ListAccommodationsOut, error) {
	place, err := term("location", in.Location)
	if err != nil {
		return ListAccommodationsOut{}, err
	}
	start, end, nights, err := t.stay(in.StartDate, in.EndDate)
	if err != nil {
		return ListAccommodationsOut{}, err
	}
	n, err := guests(in.Guests)
	if err != nil {
		return ListAccommodationsOut{}, err
	}
	caps, err := priceCap(in.PriceCap)
	if err != nil {
		return ListAccommodationsOut{}, err
	}
	answer, city, err := t.city(ctx, place)
	if err != nil {
		return ListAccommodationsOut{}, err
	}
	out := ListAccommodationsOut{CityOut: answer, StartDate: in.StartDate, EndDate: in.EndDate, Nights: nights,
		Guests: n, PriceCap: caps, Accommodations: []AccommodationOut{}}
	if !answer.Covered {
		return out, nil
	}
	list, err := t.cfg.Backend.Accommodations(ctx, tripdata.StayQuery{CityID: city.ID, Guests: n, Start: start, End: end})
	if err != nil {
		return ListAccommodationsOut{}, err
	}
	for _, a := range list {
		if caps.keeps(a, nights) {
			out.Accommodations = append(out.Accommodations, t.accommodation(a, city, nights))
		}
	}
	switch {
	case len(list) == 0:
		out.Message = fmt.Sprintf("no accommodation in %s holds %d guests and is free from %s to %s", city.Name, n, in.StartDate, in.EndDate)
	case len(out.Accommodations) == 0:
		out.Message = fmt.Sprintf("no accommodation in %s free from %s to %s for %d guests keeps to the price cap; %d cost more", city.Name, in.StartDate, in.EndDate, n, len(list))
	}
	return out, nil
}

// priceCap checks a price cap: no negative amount, a known currency.
func priceCap(c PriceCap) (PriceCap, error) {
	if c.MaxNightlyPrice < 0 || c.MaxTotalPrice < 0 {
		return PriceCap{}, badRequest("a price cap cannot be negative")
	}
	c.Currency = strings.ToUpper(strings.TrimSpace(c.Currency))
	if _, ok := tripdata.PerEuro(c.Currency); c.Currency != "" && !ok {
		return PriceCap{}, badRequest("currency %q is not one the catalog knows; use an ISO 4217 code such as EUR, USD or BRL", c.Currency)
	}
	return c, nil
}

// keeps reports whether a place costs at most the caps for a stay of
// nights: its prices are converted into the caps' currency, and compared
// as they are when the caps name none.
func (c PriceCap) keeps(a tripdata.Accommodation, nights int) bool {
	nightly := a.NightlyPrice
	if c.Currency != "" {
		if v, ok := tripdata.Convert(nightly, a.Currency, c.Currency); ok {
			nightly = v
		}
	}
	const cent = 0.005 // rounding of the converted price
	return (c.MaxNightlyPrice == 0 || nightly <= c.MaxNightlyPrice+cent) &&
		(c.MaxTotalPrice == 0 || nightly*float64(nights) <= c.MaxTotalPrice+cent)
}

func (t *tools) getAccommodation(ctx context.Context, _ string, in GetAccommodationIn) (GetAccommodationOut, error) {
	var start, end time.Time
	nights := 0
	if in.StartDate != "" || in.EndDate != "" {
		var err error
		if start, end, nights, err = t.stay(in.StartDate, in.EndDate); err != nil {
			return GetAccommodationOut{}, err
		}
	}
	a, err := t.cfg.Backend.AccommodationByID(ctx, in.ID)
	if err != nil {
		return GetAccommodationOut{}, err
	}
	city, err := t.cityByID(ctx, a.CityID)
	if err != nil {
		return GetAccommodationOut{}, err
	}
	out := GetAccommodationOut{AccommodationOut: t.accommodation(a, city, nights)}
	if nights == 0 {
		return out, nil
	}
	booked, err := t.cfg.Backend.Booked(ctx, a.ID, start, end)
	if err != nil {
		return GetAccommodationOut{}, err
	}
	out.StartDate, out.EndDate, out.Availability = in.StartDate, in.EndDate, "free"
	if booked {
		out.Availability = "booked"
	}
	return out, nil
}

func (t *tools) bookAccommodation(ctx context.Context, user string, in BookAccommodationIn) (BookAccommodationOut, error) {
	start, end, nights, err := t.stay(in.StartDate, in.EndDate)
	if err != nil {
		return BookAccommodationOut{}, err
	}
	n, err := guests(in.Guests)
	if err != nil {
		return BookAccommodationOut{}, err
	}
	key, err := term("idempotencyKey", in.IdempotencyKey)
	if err != nil {
		return BookAccommodationOut{}, err
	}
	a, err := t.cfg.Backend.AccommodationByID(ctx, in.ID)
	if err != nil {
		return BookAccommodationOut{}, err
	}
	if n > a.Capacity {
		return BookAccommodationOut{}, badRequest("%s holds %d guests, not %d", a.Name, a.Capacity, n)
	}
	b, created, err := t.cfg.Backend.Book(ctx, tripdata.Booking{UserID: user, AccommodationID: a.ID, StartDate: start, EndDate: end,
		Guests: n, NightlyPrice: a.NightlyPrice, TotalPrice: price(a.NightlyPrice, nights), Currency: a.Currency, IdempotencyKey: key})
	if err != nil {
		return BookAccommodationOut{}, err
	}
	if !created && (b.AccommodationID != a.ID || !b.StartDate.Equal(start) || !b.EndDate.Equal(end) || b.Guests != n) {
		return BookAccommodationOut{}, errcode.New(errcode.Conflict,
			"idempotencyKey %q was already used for booking %s (accommodation %s, %s to %s, %d guests); send a fresh key for another booking",
			key, b.ID, b.AccommodationID, dateString(b.StartDate), dateString(b.EndDate), b.Guests)
	}
	return BookAccommodationOut{Replayed: !created, Booking: bookingOut(b)}, nil
}

func bookingOut(b tripdata.Booking) BookingOut {
	return BookingOut{ID: b.ID, Reference: tripdata.BookingReference(b.ID), AccommodationID: b.AccommodationID,
		StartDate: dateString(b.StartDate), EndDate: dateString(b.EndDate), Nights: int(b.EndDate.Sub(b.StartDate).Hours() / 24),
		Guests: b.Guests, NightlyPrice: b.NightlyPrice, TotalPrice: b.TotalPrice, Currency: b.Currency,
		IdempotencyKey: b.IdempotencyKey, CreatedAt: b.CreatedAt.UTC().Format(time.RFC3339)}
}

var priceRanges = map[string]bool{"": true, "$": true, "$$": true, "$$$": true, "$$$$": true}

func (t *tools) listRestaurants(ctx context.Context, _ string, in ListRestaurantsIn) (ListRestaurantsOut, error) {
	place, err := term("location", in.Location)
	if err != nil {
		return ListRestaurantsOut{}, err
	}
	var cuisines []string
	if c := strings.TrimSpace(in.Cuisine); c != "" {
		if c, err = term("cuisine", c); err != nil {
			return ListRestaurantsOut{}, err
		}
		cuisines = cuisinesFor(c)
	}
	if !priceRanges[in.PriceRange] {
		return ListRestaurantsOut{}, badRequest("priceRange must be $, $$, $$$ or $$$$, got %q", in.PriceRange)
	}
	answer, city, err := t.city(ctx, place)
	if err != nil {
		return ListRestaurantsOut{}, err
	}
	out := ListRestaurantsOut{CityOut: answer, Cuisine: strings.Join(cuisines, ", "), Cuisines: []string{}, Restaurants: []RestaurantOut{}}
	if !answer.Covered {
		return out, nil
	}
	if out.Cuisines, err = t.cfg.Backend.Cuisines(ctx, city.ID); err != nil {
		return ListRestaurantsOut{}, err
	}
	list, err := t.cfg.Backend.Restaurants(ctx, tripdata.RestaurantFilter{CityID: city.ID, Cuisines: cuisines, PriceRange: in.PriceRange})
	if err != nil {
		return ListRestaurantsOut{}, err
	}
	for _, r := range list {
		out.Restaurants = append(out.Restaurants, RestaurantOut{ID: r.ID, Name: r.Name, Cuisine: r.Cuisine,
			PriceRange: r.PriceRange, Rating: r.Rating, DistanceKm: r.DistanceKm, OpeningHours: r.OpeningHours,
			ImageURL: t.cfg.URLs.PictureURL("restaurant", r.ID), Popular: r.Popular})
	}
	if len(list) == 0 && len(out.Cuisines) > 0 {
		out.Message = fmt.Sprintf("none of the restaurants of %s matches; their cuisines are %s", city.Name, strings.Join(out.Cuisines, ", "))
	}
	return out, nil
}
