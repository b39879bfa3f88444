package nodes

import (
	"encoding/json"

	"github.com/tripgraph/tripgraph/card"
)

// resultProps make the props of each card that shows a tool's results,
// around what every such card carries: the tool's result is decoded into
// them.
var resultProps = map[string]func(ToolProps) any{
	card.Accommodations: func(b ToolProps) any { return &AccommodationsListProps{ToolProps: b} },
	card.Restaurants:    func(b ToolProps) any { return &RestaurantsListProps{ToolProps: b} },
	card.Albums:         func(b ToolProps) any { return &AlbumListProps{ToolProps: b} },
	card.Photos:         func(b ToolProps) any { return &PhotoGridProps{ToolProps: b} },
	card.TripStats:      func(b ToolProps) any { return &TripStatsProps{ToolProps: b} },
}

// TripDetailsProps are the props of a trip-details component.
type TripDetailsProps struct {
	TripDetails TripDetails `json:"tripDetails"`
	Nights      int         `json:"nights"`
	Assumed     []string    `json:"assumed,omitempty"` // fields filled in by default, not stated (Field*)
}

// ToolProps is what every tool-result component carries besides its data.
type ToolProps struct {
	ToolCallID string `json:"toolCallId"`
	Tool       string `json:"tool"`
	// Args are the call's arguments, keys sorted: a later call with the
	// same ones repeats this search.
	Args        json.RawMessage `json:"args,omitempty"`
	TripDetails *TripDetails    `json:"tripDetails,omitempty"`
	Error       *ToolError      `json:"error,omitempty"`
}

// ToolError is a tool's failure, as the tool reported it.
type ToolError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Accommodation is one place to stay.
type Accommodation struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	Kind         string  `json:"kind,omitempty"` // hotel, apartment, guesthouse or hostel
	NightlyPrice float64 `json:"nightlyPrice"`
	Currency     string  `json:"currency"`
	TotalPrice   float64 `json:"totalPrice"`
	Rating       float64 `json:"rating"`
	ImageURL     string  `json:"imageUrl"`
	Capacity     int     `json:"capacity"`
	Lat          float64 `json:"lat"`
	Lng          float64 `json:"lng"`
	// CentreKm and Area say where it is in its city: Area is "centre", or
	// the direction from the centre ("north-east"); "" when unknown.
	CentreKm float64 `json:"centreKm,omitempty"`
	Area     string  `json:"area,omitempty"`
}

// Place is the place a catalog tool understood a location as.
type Place struct {
	Name        string  `json:"name"`
	Region      string  `json:"region,omitempty"` // the US state, for a US city
	Country     string  `json:"country"`
	CountryName string  `json:"countryName"`
	Lat         float64 `json:"lat"`
	Lng         float64 `json:"lng"`
}

// NearbyCity is a covered city near a place the catalog does not cover.
type NearbyCity struct {
	Name       string  `json:"name"`
	Country    string  `json:"country"`
	DistanceKm float64 `json:"distanceKm"`
}

// AccommodationsListProps are the props of an accommodations-list.
type AccommodationsListProps struct {
	ToolProps
	Location  string       `json:"location"`
	Place     *Place       `json:"place,omitempty"`
	Covered   bool         `json:"covered"`
	Nearby    []NearbyCity `json:"nearby,omitempty"`
	Message   string       `json:"message,omitempty"`
	StartDate string       `json:"startDate,omitempty"`
	EndDate   string       `json:"endDate,omitempty"`
	Nights    int          `json:"nights,omitempty"`
	Guests    int          `json:"guests,omitempty"`
	PriceCap
	Accommodations []Accommodation `json:"accommodations"`
}

// PriceCap is the most the traveller pays that a stay search kept to:
// per night, for the whole stay, in Currency (each place's own when "").
type PriceCap struct {
	MaxNightlyPrice float64 `json:"maxNightlyPrice,omitempty"`
	MaxTotalPrice   float64 `json:"maxTotalPrice,omitempty"`
	Currency        string  `json:"currency,omitempty"`
}

// Restaurant is one place to eat.
type Restaurant struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	Cuisine      string  `json:"cuisine"`
	PriceRange   string  `json:"priceRange"`
	Rating       float64 `json:"rating"`
	DistanceKm   float64 `json:"distanceKm"`
	OpeningHours string  `json:"openingHours"`
	ImageURL     string  `json:"imageUrl"`
	Popular      bool    `json:"popular"`
}

// RestaurantsListProps are the props of a restaurants-list.
type RestaurantsListProps struct {
	ToolProps
	Location    string       `json:"location"`
	Place       *Place       `json:"place,omitempty"`
	Covered     bool         `json:"covered"`
	Nearby      []NearbyCity `json:"nearby,omitempty"`
	Message     string       `json:"message,omitempty"`
	Cuisine     string       `json:"cuisine,omitempty"`  // the cuisine asked for, as the tool understood it
	Cuisines    []string     `json:"cuisines,omitempty"` // every cuisine the city has
	Restaurants []Restaurant `json:"restaurants"`
}

// Album is one of the traveller's photo albums.
type Album struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	CoverURL    string   `json:"coverUrl"`
	StartDate   string   `json:"startDate"`
	EndDate     string   `json:"endDate"`
	PhotoCount  int      `json:"photoCount"`
	Locations   []string `json:"locations,omitempty"`
}

// AlbumListProps are the props of an album-list.
type AlbumListProps struct {
	ToolProps
	Albums []Album `json:"albums"`
}

// Photo is one photo of an album.
type Photo struct {
	ID           string  `json:"id"`
	AlbumID      string  `json:"albumId"`
	AlbumName    string  `json:"albumName,omitempty"`
	URL          string  `json:"url"`
	ThumbnailURL string  `json:"thumbnailUrl"`
	Description  string  `json:"description"`
	LocationName string  `json:"locationName"`
	TakenAt      string  `json:"takenAt"`
	Lat          float64 `json:"lat"`
	Lng          float64 `json:"lng"`
}

// PhotoGridProps are the props of a photo-grid.
type PhotoGridProps struct {
	ToolProps
	AlbumID string `json:"albumId,omitempty"`
	Query   string `json:"query,omitempty"`
	Date    string `json:"date,omitempty"`
	Total   int    `json:"total,omitempty"`
	// TotalIsLowerBound says that at least Total photos match (the tools
	// stop counting at 1000).
	TotalIsLowerBound bool    `json:"totalIsLowerBound,omitempty"`
	Photos            []Photo `json:"photos"`
}

// LocationCount is how many photos were taken at a place.
type LocationCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// TripStatsProps are the props of a trip-stats component.
type TripStatsProps struct {
	ToolProps
	AlbumID     string          `json:"albumId"`
	Name        string          `json:"name"`
	TotalPhotos int             `json:"totalPhotos"`
	Locations   []LocationCount `json:"locations"`
	StartDate   string          `json:"startDate"`
	EndDate     string          `json:"endDate"`
	Days        int             `json:"days"`
}

// Booking statuses, as a booking-confirmation shows them.
const (
	BookingPending  = "pending"  // waiting for the traveller's answer
	BookingBooked   = "booked"   // confirmed and booked
	BookingDeclined = "declined" // the traveller said no
	BookingExpired  = "expired"  // the answer came after ExpiresAt
	BookingChanged  = "changed"  // the answer was for another booking
	BookingFailed   = "failed"   // confirmed, but the booking tool failed
	// BookingUnavailable: confirmed, but the stay is booked for some of
	// the nights already (the tool's CONFLICT).
	BookingUnavailable = "unavailable"
	// BookingSetAside: the traveller moved on (a new message, another
	// booking) before answering; nothing was booked.
	BookingSetAside = "set-aside"
)

// BookingStatusOf is s when it is one of the booking statuses above, and
// BookingFailed for anything else: an unknown status reads as a failure.
func BookingStatusOf(s string) string {
	switch s {
	case BookingPending, BookingBooked, BookingDeclined, BookingExpired, BookingChanged, BookingUnavailable, BookingSetAside:
		return s
	}
	return BookingFailed
}

// Warnings a pending booking-confirmation gives before it is confirmed.
const (
	// WarnBookedHere: this conversation booked the stay for some of these
	// nights already (Previous says when, and its reference).
	WarnBookedHere = "booked-here"
	// WarnBookedBefore: this conversation booked the place already, for
	// other nights (Previous); confirming books it a second time.
	WarnBookedBefore = "booked-before"
	// WarnTaken: the catalog says another booking holds some of the
	// nights, so confirming will fail.
	WarnTaken = "taken"
)

// PreviousBooking is a booking of the same place this conversation made.
type PreviousBooking struct {
	Reference string `json:"reference"`
	StartDate string `json:"startDate"`
	EndDate   string `json:"endDate"`
}

// BookingConfirmationProps are the props of a booking-confirmation. Total is
// Nights × NightlyPrice, rounded to the cent.
type BookingConfirmationProps struct {
	ToolProps
	AccommodationID string  `json:"accommodationId"`
	Name            string  `json:"name"`
	City            string  `json:"city,omitempty"`
	Kind            string  `json:"kind,omitempty"` // hotel, apartment, guesthouse or hostel
	StartDate       string  `json:"startDate"`
	EndDate         string  `json:"endDate"`
	Nights          int     `json:"nights"`
	Guests          int     `json:"guests"`
	NightlyPrice    float64 `json:"nightlyPrice"`
	Total           float64 `json:"total"`
	Currency        string  `json:"currency"`
	ExpiresAt       string  `json:"expiresAt"` // RFC 3339
	// Key identifies this booking and its deadline; the answer must carry it
	// back: BookingAnswer{Confirmed: true, Key: Key}.
	Key       string `json:"key"`
	Status    string `json:"status"` // one of the Booking* statuses
	BookingID string `json:"bookingId,omitempty"`
	// Reference is the booking's reference as a person reads it aloud
	// ("K7QM-4X2D"), from book-accommodation.
	Reference string `json:"reference,omitempty"`
	// Warning, while pending, is one of the Warn* warnings, or "".
	Warning  string           `json:"warning,omitempty"`
	Previous *PreviousBooking `json:"previous,omitempty"`
}

// BookingAnswer is the traveller's answer to a booking-confirmation: the
// resume value of the run it paused.
type BookingAnswer struct {
	Confirmed bool   `json:"confirmed"`
	Key       string `json:"key"`
}
