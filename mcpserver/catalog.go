package mcpserver

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store"
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
}

// ListAccommodationsIn is the input of list-accommodations.
type ListAccommodationsIn struct {
	Caller
	Location  string `json:"location" jsonschema:"the city, in English, Portuguese or its local name ('Lisbon', 'Lisboa', 'Nova York')"`
	StartDate string `json:"startDate" jsonschema:"check-in day, YYYY-MM-DD"`
	EndDate   string `json:"endDate" jsonschema:"check-out day, YYYY-MM-DD, after startDate"`
	Guests    int    `json:"guests" jsonschema:"number of guests, 1 to 20"`
}

// ListAccommodationsOut is the output of list-accommodations.
type ListAccommodationsOut struct {
	Location       string             `json:"location"`
	Covered        bool               `json:"covered" jsonschema:"false when the catalog has no such city"`
	Message        string             `json:"message,omitempty"`
	StartDate      string             `json:"startDate"`
	EndDate        string             `json:"endDate"`
	Nights         int                `json:"nights"`
	Guests         int                `json:"guests"`
	Accommodations []AccommodationOut `json:"accommodations"`
}

// GetAccommodationIn is the input of get-accommodation.
type GetAccommodationIn struct {
	Caller
	ID string `json:"id" jsonschema:"the accommodation's id, from list-accommodations"`
}

// BookAccommodationIn is the input of book-accommodation.
type BookAccommodationIn struct {
	Caller
	ID             string `json:"id" jsonschema:"the accommodation's id"`
	StartDate      string `json:"startDate" jsonschema:"check-in day, YYYY-MM-DD"`
	EndDate        string `json:"endDate" jsonschema:"check-out day, YYYY-MM-DD, after startDate"`
	Guests         int    `json:"guests" jsonschema:"number of guests, 1 to 20, at most the place's capacity"`
	IdempotencyKey string `json:"idempotencyKey" jsonschema:"a fresh unique string per booking; repeating a key returns the booking first made with it instead of booking again"`
}

// BookingOut is a stored booking.
type BookingOut struct {
	ID              string  `json:"id"`
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
	Replayed bool       `json:"replayed" jsonschema:"true when the idempotencyKey was used before and this is that first booking"`
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
	Cuisine    string `json:"cuisine,omitempty" jsonschema:"optional, e.g. Portuguese, Japanese, Italian; partial match"`
	PriceRange string `json:"priceRange,omitempty" jsonschema:"optional: $, $$, $$$ or $$$$"`
}

// ListRestaurantsOut is the output of list-restaurants.
type ListRestaurantsOut struct {
	Location    string          `json:"location"`
	Covered     bool            `json:"covered"`
	Message     string          `json:"message,omitempty"`
	Restaurants []RestaurantOut `json:"restaurants"`
}

func (t *tools) addCatalogTools(s *mcp.Server) {
	addTool(s, t, readOnly("list-accommodations", "Find places to stay",
		"Lists the accommodations of a city that hold the guests, with the total price of the stay (nights × nightly price). "+
			"Use when: the user wants a hotel or a place to stay in a city for some dates. "+
			"Don't use when: the user wants to book a place you already listed (use book-accommodation) or asks about food (list-restaurants)."),
		t.listAccommodations)
	addTool(s, t, readOnly("get-accommodation", "Details of one place to stay",
		"Returns one accommodation by id. Use when: the user asks about a place you already listed."),
		t.getAccommodation)
	addTool(s, t, &mcp.Tool{Name: "book-accommodation", Title: "Book a place to stay",
		Description: "Books an accommodation for the user for a stay. Dates that overlap another booking of the place fail with CONFLICT. " +
			"Send a fresh idempotencyKey per booking: retrying with the same key returns the first booking and books nothing more. " +
			"Use when: the user clearly asks to book a place you listed, for known dates and guests. " +
			"Don't use when: the user is still comparing places (use list-accommodations).",
		Annotations: &mcp.ToolAnnotations{IdempotentHint: true, DestructiveHint: new(false), OpenWorldHint: new(false)}},
		t.bookAccommodation)
	addTool(s, t, readOnly("list-restaurants", "Find places to eat",
		"Lists the restaurants of a city, popular and best rated first, optionally of one cuisine or price range. "+
			"Use when: the user asks where to eat in a city. Don't use when: the user asks about places to stay."),
		t.listRestaurants)
}

// city finds the catalog city a traveller's place name means. A city the
// catalog does not cover is not an error: ok is false and message says
// which cities are covered.
func (t *tools) city(ctx context.Context, place string) (c store.City, ok bool, message string, err error) {
	tries := [][2]string{}
	if t.cfg.Locate != nil {
		if name, country, found := t.cfg.Locate(place); found {
			tries = append(tries, [2]string{name, country})
		}
	}
	tries = append(tries, [2]string{place, ""})
	if before, _, cut := strings.Cut(place, ","); cut {
		tries = append(tries, [2]string{strings.TrimSpace(before), ""})
	}
	for _, try := range tries {
		c, err = t.cfg.Store.CityNamed(ctx, try[0], try[1])
		if err == nil {
			return c, true, "", nil
		}
		if errcode.Of(err) != errcode.NotFound {
			return store.City{}, false, "", err
		}
	}
	return store.City{}, false, t.coverage(ctx, place), nil
}

func (t *tools) coverage(ctx context.Context, place string) string {
	n, err := t.cfg.Store.CountCities(ctx)
	if err != nil || n == 0 {
		return fmt.Sprintf("tripgraph has no places for %q: its catalog is empty (run tripgraph seed)", place)
	}
	top, err := t.cfg.Store.TopCities(ctx, 5)
	if err != nil {
		return fmt.Sprintf("the catalog covers %d cities, the most populous and the best-known destinations, and %q is not one of them", n, place)
	}
	names := make([]string, len(top))
	for i, c := range top {
		names[i] = c.Name
	}
	return fmt.Sprintf("the catalog covers %d cities, the most populous and the best-known destinations, and %q is not one of them; try %s",
		n, place, strings.Join(names, ", "))
}

func (t *tools) accommodation(a store.Accommodation, nights int) AccommodationOut {
	out := AccommodationOut{ID: a.ID, Name: a.Name, City: a.City, Kind: a.Kind, NightlyPrice: a.NightlyPrice,
		Currency: a.Currency, Rating: a.Rating, ImageURL: t.cfg.URLs.PictureURL("accommodation", a.ID),
		Capacity: a.Capacity, Lat: a.Lat, Lng: a.Lng}
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
	_, _, nights, err := stay(in.StartDate, in.EndDate)
	if err != nil {
		return ListAccommodationsOut{}, err
	}
	n, err := guests(in.Guests)
	if err != nil {
		return ListAccommodationsOut{}, err
	}
	out := ListAccommodationsOut{Location: place, StartDate: in.StartDate, EndDate: in.EndDate, Nights: nights,
		Guests: n, Accommodations: []AccommodationOut{}}
	c, ok, msg, err := t.city(ctx, place)
	if err != nil || !ok {
		out.Message = msg
		return out, err
	}
	out.Location, out.Covered = c.Name, true
	list, err := t.cfg.Store.Accommodations(ctx, c.ID, n)
	if err != nil {
		return ListAccommodationsOut{}, err
	}
	for _, a := range list {
		out.Accommodations = append(out.Accommodations, t.accommodation(a, nights))
	}
	if len(list) == 0 {
		out.Message = fmt.Sprintf("no accommodation in %s holds %d guests", c.Name, n)
	}
	return out, nil
}

func (t *tools) getAccommodation(ctx context.Context, _ string, in GetAccommodationIn) (AccommodationOut, error) {
	a, err := t.cfg.Store.AccommodationByID(ctx, in.ID)
	if err != nil {
		return AccommodationOut{}, err
	}
	return t.accommodation(a, 0), nil
}

func (t *tools) bookAccommodation(ctx context.Context, user string, in BookAccommodationIn) (BookAccommodationOut, error) {
	start, end, nights, err := stay(in.StartDate, in.EndDate)
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
	a, err := t.cfg.Store.AccommodationByID(ctx, in.ID)
	if err != nil {
		return BookAccommodationOut{}, err
	}
	if n > a.Capacity {
		return BookAccommodationOut{}, badRequest("%s holds %d guests, not %d", a.Name, a.Capacity, n)
	}
	b, created, err := t.cfg.Store.Book(ctx, store.Booking{UserID: user, AccommodationID: a.ID, StartDate: start, EndDate: end,
		Guests: n, NightlyPrice: a.NightlyPrice, TotalPrice: price(a.NightlyPrice, nights), Currency: a.Currency, IdempotencyKey: key})
	if err != nil {
		return BookAccommodationOut{}, err
	}
	return BookAccommodationOut{Replayed: !created, Booking: BookingOut{ID: b.ID, AccommodationID: b.AccommodationID,
		StartDate: dateString(b.StartDate), EndDate: dateString(b.EndDate), Nights: int(b.EndDate.Sub(b.StartDate).Hours() / 24),
		Guests: b.Guests, NightlyPrice: b.NightlyPrice, TotalPrice: b.TotalPrice, Currency: b.Currency,
		IdempotencyKey: b.IdempotencyKey, CreatedAt: b.CreatedAt.UTC().Format(time.RFC3339)}}, nil
}

var priceRanges = map[string]bool{"": true, "$": true, "$$": true, "$$$": true, "$$$$": true}

func (t *tools) listRestaurants(ctx context.Context, _ string, in ListRestaurantsIn) (ListRestaurantsOut, error) {
	place, err := term("location", in.Location)
	if err != nil {
		return ListRestaurantsOut{}, err
	}
	cuisine := strings.TrimSpace(in.Cuisine)
	if cuisine != "" {
		if cuisine, err = term("cuisine", cuisine); err != nil {
			return ListRestaurantsOut{}, err
		}
	}
	if !priceRanges[in.PriceRange] {
		return ListRestaurantsOut{}, badRequest("priceRange must be $, $$, $$$ or $$$$, got %q", in.PriceRange)
	}
	out := ListRestaurantsOut{Location: place, Restaurants: []RestaurantOut{}}
	c, ok, msg, err := t.city(ctx, place)
	if err != nil || !ok {
		out.Message = msg
		return out, err
	}
	out.Location, out.Covered = c.Name, true
	list, err := t.cfg.Store.Restaurants(ctx, store.RestaurantFilter{CityID: c.ID, Cuisine: cuisine, PriceRange: in.PriceRange})
	if err != nil {
		return ListRestaurantsOut{}, err
	}
	for _, r := range list {
		out.Restaurants = append(out.Restaurants, RestaurantOut{ID: r.ID, Name: r.Name, Cuisine: r.Cuisine,
			PriceRange: r.PriceRange, Rating: r.Rating, DistanceKm: r.DistanceKm, OpeningHours: r.OpeningHours,
			ImageURL: t.cfg.URLs.PictureURL("restaurant", r.ID), Popular: r.Popular})
	}
	return out, nil
}
