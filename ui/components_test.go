package ui_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/ui"
)

var lisbon = nodes.TripDetails{Location: "Lisbon", Country: "Portugal", StartDate: "2026-05-04", EndDate: "2026-05-08", NumberOfGuests: 3}

func stays(accs ...nodes.Accommodation) nodes.AccommodationsListProps {
	return nodes.AccommodationsListProps{ToolProps: nodes.ToolProps{Tool: "list-accommodations"}, Location: "Lisbon", Covered: true,
		StartDate: "2026-05-04", EndDate: "2026-05-08", Nights: 4, Guests: 3, Accommodations: accs}
}

func eats(rs ...nodes.Restaurant) nodes.RestaurantsListProps {
	return nodes.RestaurantsListProps{ToolProps: nodes.ToolProps{Tool: "list-restaurants"}, Location: "Porto", Covered: true, Restaurants: rs}
}

var failed = nodes.ToolProps{Tool: "x", Error: &nodes.ToolError{Code: "UNAVAILABLE", Message: "the catalogue timed out"}}

// TestComponents renders each component from fixture props and checks the
// text and attributes that matter.
func TestComponents(t *testing.T) {
	tests := []struct {
		name   string
		lang   string
		c      nodes.UIComponent
		want   []string
		absent []string
	}{
		{"trip details", "en", component(t, "td-1", card.TripDetails, nodes.TripDetailsProps{TripDetails: lisbon, Nights: 4}),
			[]string{`id="ui-td-1"`, "Lisbon, Portugal", "4 May 2026 – 8 May 2026", "4 nights", "3 guests"},
			[]string{"assumed"}},
		{"trip details, assumed guests and dates", "en", component(t, "td-2", card.TripDetails, nodes.TripDetailsProps{
			TripDetails: nodes.TripDetails{Location: "Kyoto", StartDate: "2026-12-19", EndDate: "2026-12-20", NumberOfGuests: 1},
			Nights:      1, Assumed: []string{nodes.FieldGuests, nodes.FieldStartDate}}),
			[]string{"Kyoto", "1 night", "1 guest", `<span class="badge assumed-mark">assumed</span>`, "were not stated"},
			[]string{"Kyoto, "}},
		{"trip details with legs", "en", component(t, "td-4", card.TripDetails, nodes.TripDetailsProps{TripDetails: nodes.TripDetails{
			Location: "Lisbon", Country: "Portugal", StartDate: "2026-05-04", EndDate: "2026-05-10", NumberOfGuests: 2,
			Legs: []nodes.Leg{{Location: "Lisbon", Country: "Portugal", StartDate: "2026-05-04", EndDate: "2026-05-07"}, {Location: "Porto", Country: "Portugal", StartDate: "2026-05-07", EndDate: "2026-05-10"}}}, Nights: 6}),
			[]string{"Lisbon → Porto", "Itinerary", `<ol class="legs">`, `<span class="leg-place">Lisbon, Portugal</span>`, "4 May 2026 – 7 May 2026",
				`<span class="leg-place">Porto, Portugal</span>`, "7 May 2026 – 10 May 2026", "3 nights", "6 nights"},
			[]string{"assumed"}},
		{"trip details with legs in Portuguese", "pt", component(t, "td-5", card.TripDetails, nodes.TripDetailsProps{TripDetails: nodes.TripDetails{
			Location: "Tokyo", StartDate: "2026-04-01", EndDate: "2026-04-11", NumberOfGuests: 2,
			Legs: []nodes.Leg{{Location: "Tokyo", StartDate: "2026-04-01", EndDate: "2026-04-06"}, {Location: "Kyoto", StartDate: "2026-04-06", EndDate: "2026-04-11"}}}, Nights: 10}),
			[]string{"Tóquio → Quioto", "Roteiro", `<span class="leg-place">Tóquio</span>`, `<span class="leg-place">Quioto</span>`, "5 noites"},
			[]string{"Tokyo", "Kyoto"}},
		{"trip details in Portuguese", "pt", component(t, "td-3", card.TripDetails, nodes.TripDetailsProps{TripDetails: lisbon, Nights: 4, Assumed: []string{nodes.FieldGuests}}),
			[]string{"Destino", "Lisboa, Portugal", "4 mai 2026 – 8 mai 2026", "4 noites", `3 hóspedes<span class="badge assumed-mark">estimativa</span>`, "marcados como estimativa"},
			[]string{"nights", "Guests", "Lisbon", "suposto"}},
		{"accommodations", "en", component(t, "acc", card.Accommodations, stays(
			nodes.Accommodation{ID: "h1", Name: "Casa Azul", NightlyPrice: 92.5, Currency: "EUR", TotalPrice: 1, Rating: 4.6, ImageURL: "/media/h1.jpg", Capacity: 4},
			nodes.Accommodation{ID: "h2", Name: "Hotel Tejo", NightlyPrice: 1200, Currency: "USD", Rating: 4},
		)),
			[]string{`id="ui-acc"`, `class="carousel"`, "Casa Azul", "★ 4.6", `<span class="city">Lisbon</span>`, "€92.50", "per night",
				`src="/media/h1.jpg"`, `loading="lazy"`, `width="320"`, `height="200"`,
				"Check-in", "4 May 2026", "Check-out", "8 May 2026", "3 guests", "Sleeps 4",
				`<strong class="total-amount">€370</strong>`, "4 nights × €92.50", `<strong class="total-amount">$4,800</strong>`},
			[]string{"€1<"}},
		{"accommodations in Portuguese", "pt", component(t, "acc", card.Accommodations, stays(
			nodes.Accommodation{ID: "h2", Name: "Hotel Tejo", NightlyPrice: 1200.25, Currency: "EUR", Rating: 4})),
			[]string{"Onde ficar: Lisboa", `<span class="city">Lisboa</span>`, "1 hospedagem", "€ 1.200,25", "por noite", `<strong class="total-amount">€ 4.801</strong>`, "Entrada", "Saída"},
			[]string{"Lisbon", "em Lisboa", "Alojamento"}},
		{"stay cards: kind, rating, sleeps, area, total, sorts", "en", component(t, "acc", card.Accommodations, stays(
			nodes.Accommodation{ID: "h1", Name: "Casa Azul", Kind: "apartment", NightlyPrice: 92.5, Currency: "EUR", Rating: 4.1, Capacity: 4, Area: "centre", CentreKm: 0.4},
			nodes.Accommodation{ID: "h2", Name: "Hotel Tejo", Kind: "hotel", NightlyPrice: 80, Currency: "EUR", Rating: 4.8, Capacity: 3, Area: "north-east", CentreKm: 2.3},
			nodes.Accommodation{ID: "h3", Name: "Hostel Sol", Kind: "hostel", NightlyPrice: 30, Currency: "EUR", Rating: 4.1, Capacity: 6, Area: "west", CentreKm: 1.5})),
			[]string{"<legend>Sort by</legend>", `<input type="radio" name="ui-acc-sort" value="recommended" checked> Recommended`,
				`value="price"> Price`, `value="rating"> Rating`,
				`data-id="h1" data-price="3" data-rating="2"`, `<span class="kind">Apartment</span>`, `<span class="sleeps">Sleeps 4</span>`,
				`<p class="area">In the centre of Lisbon</p>`, `<strong>€92.50</strong> per night`, `<span class="trip-total"><strong>€370</strong> for 4 nights</span>`,
				`data-id="h2" data-price="2" data-rating="1"`, `<p class="area">2.3 km north-east of the centre</p>`,
				`data-id="h3" data-price="1" data-rating="3"`, `<span class="kind">Hostel</span>`, `<p class="area">1.5 km west of the centre</p>`},
			[]string{`<span class="city">`}},
		{"stay cards in Portuguese", "pt", component(t, "acc", card.Accommodations, stays(
			nodes.Accommodation{ID: "h1", Name: "Casa Azul", Kind: "guesthouse", NightlyPrice: 92.5, Currency: "EUR", Rating: 4.1, Capacity: 4, Area: "south", CentreKm: 3.2})),
			[]string{`<span class="kind">Pousada</span>`, "Para 4", `<p class="area">3,2 km ao sul do centro</p>`, "€ 370</strong> por 4 noites"},
			[]string{"<legend>", "guesthouse"}},
		{"accommodations under a price cap", "en", component(t, "acc", card.Accommodations, nodes.AccommodationsListProps{
			ToolProps: nodes.ToolProps{Tool: "list-accommodations", TripDetails: &lisbon}, Location: "Lisbon", Covered: true,
			PriceCap:       nodes.PriceCap{MaxNightlyPrice: 120, Currency: "EUR"},
			Accommodations: []nodes.Accommodation{{ID: "h1", Name: "Casa Azul", NightlyPrice: 92.5, Currency: "EUR"}}}),
			[]string{`<p class="cap">Up to €120 a night</p>`}, []string{"for the stay"}},
		{"accommodations under a cap for the stay, in Portuguese", "pt", component(t, "acc", card.Accommodations, nodes.AccommodationsListProps{
			ToolProps: nodes.ToolProps{Tool: "list-accommodations", TripDetails: &lisbon}, Location: "Lisbon", Covered: true,
			PriceCap:       nodes.PriceCap{MaxTotalPrice: 1500},
			Accommodations: []nodes.Accommodation{{ID: "h1", Name: "Casa Azul", NightlyPrice: 300, Currency: "BRL"}}}),
			[]string{`<p class="cap">Até R$ 1.500 pela estadia</p>`}, []string{"Até R$ 1.500 por noite"}},
		{"accommodations, empty", "en", component(t, "acc", card.Accommodations, stays()),
			[]string{`id="ui-acc"`, "No places to stay were found", "Try other dates"}, []string{"carousel"}},
		{"accommodations, not covered", "en", component(t, "acc", card.Accommodations, nodes.AccommodationsListProps{Location: "Atlantis"}),
			[]string{"We do not cover Atlantis yet"}, []string{"carousel", `class="nearby"`}},
		{"restaurants, not covered, with cities nearby", "pt", component(t, "r", card.Restaurants, nodes.RestaurantsListProps{Location: "Óbidos",
			Message: "Óbidos is not in the catalogue.", Nearby: []nodes.NearbyCity{{Name: "Lisbon", DistanceKm: 72.4}, {Name: "Porto", DistanceKm: 230}}}),
			[]string{"Restaurantes: Óbidos", "Ainda não cobrimos Óbidos.", "Cidades próximas cobertas:", "<span>Lisboa (72,4 km)</span>", "<span>Porto (230,0 km)</span>"}, []string{"radio", "catalogue", "Lisbon"}},
		{"accommodations, error", "en", component(t, "acc", card.Accommodations, nodes.AccommodationsListProps{ToolProps: failed, Location: "Lisbon"}),
			[]string{`role="alert"`, `data-code="UNAVAILABLE"`, "the catalogue timed out", "Send your message again in a minute"},
			[]string{"carousel"}},
		{"restaurants", "en", component(t, "r", card.Restaurants, eats(
			nodes.Restaurant{ID: "r1", Name: "Tasca", Cuisine: "portuguese", PriceRange: "€€", Rating: 4.5, DistanceKm: 1.2, OpeningHours: "12:00–23:00", Popular: true},
			nodes.Restaurant{ID: "r2", Name: "Sushi Ya", Cuisine: "japanese", PriceRange: "€€€", DistanceKm: 0.4, OpeningHours: "19:00–23:00"},
			nodes.Restaurant{ID: "r3", Name: "Adega", Cuisine: "portuguese"},
		)),
			[]string{`id="ui-r"`, "Restaurants in Porto", "3 restaurants", "<legend>Filter by cuisine</legend>",
				`<input type="radio" name="ui-r-cuisine" value="" data-slot="0" checked>`,
				`<input type="radio" name="ui-r-cuisine" value="portuguese" data-slot="1">`,
				`<input type="radio" name="ui-r-cuisine" value="japanese" data-slot="2">`,
				`data-id="r1" data-cuisine="portuguese" data-slot="1"`, `data-id="r2" data-cuisine="japanese" data-slot="2"`,
				`data-id="r3" data-cuisine="portuguese" data-slot="1"`,
				`<span class="price-range" aria-label="Price level 2 of 4">€€</span>`, `<span class="distance">1.2 km from the centre</span>`,
				"Hours", "12:00–23:00", "€€€", "0.4 km from the centre", "Popular"},
			[]string{`data-slot="3"`}},
		{"restaurants in Portuguese", "pt", component(t, "r", card.Restaurants, eats(
			nodes.Restaurant{ID: "r1", Name: "Tasca", Cuisine: "Portuguese"},
			nodes.Restaurant{ID: "r2", Name: "Grill", Cuisine: "Steakhouse"},
			nodes.Restaurant{ID: "r3", Name: "Odd", Cuisine: "Martian"},
		)),
			[]string{`value="Portuguese" data-slot="1"> Portuguesa</label>`, `value="Steakhouse" data-slot="2"> Churrascaria</label>`,
				`<span class="cuisine">Portuguesa</span>`, `<span class="cuisine">Churrascaria</span>`, `<span class="cuisine">Martian</span>`},
			[]string{"> Portuguese<", "> Steakhouse<", ">Portuguese<", ">Steakhouse<"}},
		{"restaurants of a cuisine the city lacks", "pt", component(t, "r", card.Restaurants, nodes.RestaurantsListProps{Location: "São Paulo", Covered: true,
			Cuisine: "Japanese", Cuisines: []string{"Brazilian", "Seafood"}, Restaurants: []nodes.Restaurant{}}),
			[]string{"Não foram encontrados restaurantes de cozinha japonesa. Cozinhas nesta cidade: brasileira, frutos do mar."},
			[]string{"cidade próxima", "radio"}},
		{"restaurants of a cuisine the city lacks, in English", "en", component(t, "r", card.Restaurants, nodes.RestaurantsListProps{Location: "São Paulo", Covered: true,
			Cuisine: "Japanese", Cuisines: []string{"Brazilian", "Seafood"}}),
			[]string{"No Japanese restaurants were found. Cuisines in this city: Brazilian, Seafood."},
			[]string{"nearby city"}},
		{"restaurants, empty", "pt", component(t, "r", card.Restaurants, eats()),
			[]string{"Não foram encontrados restaurantes"}, []string{"radio"}},
		{"restaurants, error", "en", component(t, "r", card.Restaurants, nodes.RestaurantsListProps{
			ToolProps: nodes.ToolProps{Error: &nodes.ToolError{Code: "NOT_FOUND", Message: "no such city"}}}),
			[]string{"no such city", "Check the name"}, []string{"radio"}},
		{"albums", "en", component(t, "al", card.Albums, nodes.AlbumListProps{Albums: []nodes.Album{
			{ID: "a1", Name: "Japan 2024", Description: "Spring trip", CoverURL: "/media/c.jpg", StartDate: "2024-04-01", EndDate: "2024-04-12", PhotoCount: 120, Locations: []string{"Kyoto", "Nara"}}}}),
			[]string{`id="ui-al"`, "Japan 2024", "Spring trip", "120 photos", "1 Apr 2024 – 12 Apr 2024", "<li>Kyoto</li>", `loading="lazy"`}, nil},
		{"albums, empty", "en", component(t, "al", card.Albums, nodes.AlbumListProps{}),
			[]string{"No albums yet"}, []string{`class="cards"`}},
		{"photos", "en", component(t, "ph", card.Photos, nodes.PhotoGridProps{Query: "praia", Total: 1000, TotalIsLowerBound: true, Photos: []nodes.Photo{
			{ID: "p1", URL: "/media/p1.jpg", ThumbnailURL: "/media/p1-thumb.jpg", Description: "beach at dusk", LocationName: "Nazaré", TakenAt: "2024-08-02T19:00:00Z"},
			{ID: "p2", URL: "/media/p2.jpg", Description: "pier"}}}),
			[]string{`id="ui-ph"`, "Photos for “praia”", "at least 1,000 photos found",
				`<img src="/media/p1-thumb.jpg" alt="beach at dusk" loading="lazy" decoding="async" width="320" height="240">`,
				`<img src="/media/p2.jpg" alt="pier" loading="lazy"`, `href="/media/p1.jpg"`, "Nazaré · 2 Aug 2024"}, nil},
		{"photos, more found than shown", "pt", component(t, "ph", card.Photos, nodes.PhotoGridProps{Query: "praia", Total: 70, Photos: []nodes.Photo{
			{ID: "p1", URL: "/media/p1.jpg", Description: "praia"}, {ID: "p2", URL: "/media/p2.jpg", Description: "mar"}}}),
			[]string{"70 fotos encontradas, 2 mostradas"}, nil},
		{"photos beyond the first page, behind show more", "en", component(t, "ph", card.Photos, nodes.PhotoGridProps{Query: "praia", Total: 60, Photos: manyPhotos(60)}),
			[]string{"60 photos found", `data-id="p47"`, `<details class="more"><summary>Show 12 more photos</summary><ul class="grid" role="list"><li data-id="p48">`, `data-id="p59"`},
			[]string{"shown"}},
		{"photos, one more, in Portuguese", "pt", component(t, "ph", card.Photos, nodes.PhotoGridProps{Query: "praia", Total: 49, Photos: manyPhotos(49)}),
			[]string{"Mostrar mais 1 foto<"}, nil},
		{"photos, empty", "pt", component(t, "ph", card.Photos, nodes.PhotoGridProps{Query: "neve"}),
			[]string{"Nenhuma foto encontrada"}, []string{"<img"}},
		{"photos, error", "en", component(t, "ph", card.Photos, nodes.PhotoGridProps{ToolProps: failed}),
			[]string{`role="alert"`, "the catalogue timed out"}, []string{"<img"}},
		{"trip stats", "en", component(t, "st", card.TripStats, nodes.TripStatsProps{Name: "Japan 2024", TotalPhotos: 120, Days: 12,
			StartDate: "2024-04-01", EndDate: "2024-04-12", Locations: []nodes.LocationCount{{Name: "Kyoto", Count: 80}, {Name: "Nara", Count: 40}}}),
			[]string{`id="ui-st"`, ">Trip in numbers: Japan 2024</h3>", "120 photos", "2 places", "1 Apr 2024 – 12 Apr 2024", "12 days", "Kyoto", ">80<"}, nil},
		{"trip stats in Portuguese, one of each", "pt", component(t, "st", card.TripStats, nodes.TripStatsProps{TotalPhotos: 1, Days: 1,
			StartDate: "2024-04-01", Locations: []nodes.LocationCount{{Name: "Sintra", Count: 1}}}),
			[]string{"1 foto", "1 lugar", "1 dia", "1 abr 2024"}, []string{"fotos", "lugares"}},
		{"trip stats, error", "pt", component(t, "st", card.TripStats, nodes.TripStatsProps{ToolProps: failed}),
			[]string{"Algo deu errado", "O serviço está indisponível agora.", "em um minuto"}, []string{"<dl", "the catalogue timed out"}},
		{"unknown name", "en", nodes.UIComponent{ID: "zz", Name: "weather", Props: []byte(`{}`)},
			[]string{`id="ui-zz"`, `role="alert"`, "cannot be shown"}, []string{"unknown component"}},
		{"unreadable props", "en", nodes.UIComponent{ID: "zz", Name: card.Restaurants, Props: []byte(`{"restaurants": 3}`)},
			[]string{`id="ui-zz"`, `role="alert"`, "cannot be shown"}, []string{"json", "nodes."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkHTML(t, render(t, tt.lang, ui.Component(tt.c)), tt.want, tt.absent)
		})
	}
}

// TestSwap checks that a streamed component carries hx-swap-oob on its
// root, with the same id as the one rendered in the page, and that the
// page's own rendering does not.
func TestSwap(t *testing.T) {
	for _, c := range []nodes.UIComponent{
		component(t, "call_1", card.TripDetails, nodes.TripDetailsProps{TripDetails: lisbon}),
		component(t, "call_2", card.Accommodations, stays()),
		component(t, "call_3", card.Restaurants, eats()),
		component(t, "call_4", card.Albums, nodes.AlbumListProps{}),
		component(t, "call_5", card.Photos, nodes.PhotoGridProps{}),
		component(t, "call_6", card.TripStats, nodes.TripStatsProps{}),
		component(t, "call_8", card.BookingConfirmation, booking(nodes.BookingPending)),
		{ID: "call_7", Name: "nope"},
	} {
		root := `<section id="` + ui.DOMID(c.ID) + `" class="component`
		swapped := render(t, "en", ui.Swap(c))
		if !strings.HasPrefix(swapped, root) || !strings.Contains(strings.SplitN(swapped, ">", 2)[0], `hx-swap-oob="true"`) {
			t.Errorf("%s: swapped root is %.160s", c.Name, swapped)
		}
		if inPage := render(t, "en", ui.Component(c)); !strings.HasPrefix(inPage, root) || strings.Contains(inPage, "hx-swap-oob") {
			t.Errorf("%s: page root is %.160s", c.Name, inPage)
		}
	}
}

func booking(status string) nodes.BookingConfirmationProps {
	return nodes.BookingConfirmationProps{AccommodationID: "h1", Name: "Casa Azul", City: "Lisbon", StartDate: "2026-05-04", EndDate: "2026-05-08",
		Nights: 4, Guests: 3, NightlyPrice: 92.5, Total: 370, Currency: "EUR", ExpiresAt: "2026-03-02T10:15:00Z", Key: "k-123", Status: status, BookingID: "B-77"}
}

func manyPhotos(n int) []nodes.Photo {
	out := make([]nodes.Photo, n)
	for i := range out {
		out[i] = nodes.Photo{ID: fmt.Sprint("p", i), URL: fmt.Sprintf("/m/%d.jpg", i), Description: "beach"}
	}
	return out
}

func withReference(p nodes.BookingConfirmationProps, ref string) nodes.BookingConfirmationProps {
	p.Reference = ref
	return p
}

func warned(w string) nodes.BookingConfirmationProps {
	p := booking(nodes.BookingPending)
	p.Warning = w
	if w != nodes.WarnTaken {
		p.Previous = &nodes.PreviousBooking{Reference: "K7QM-4X2D", StartDate: "2026-05-04", EndDate: "2026-05-08"}
	}
	return p
}

// TestBookingConfirmation checks the summary, the answer form (only while
// pending and only where answers can be sent) and each outcome.
func TestBookingConfirmation(t *testing.T) {
	action := ui.Actions{BookingURL: "/threads/t1/resume", TripURL: "/threads/t1/trip", CSRFToken: "tok"}
	failedBooking := booking(nodes.BookingFailed)
	failedBooking.ToolProps.Error = &nodes.ToolError{Code: "UNAVAILABLE", Message: "the booking service is down"}
	summary := []string{`id="ui-b"`, "Casa Azul, Lisbon", "4 May 2026", "8 May 2026", "3 guests", `<strong class="total-amount">€370</strong>`, "4 nights × €92.50"}
	tests := []struct {
		name   string
		lang   string
		props  nodes.BookingConfirmationProps
		action *ui.Actions
		want   []string
		absent []string
	}{
		{"pending, answerable", "en", booking(nodes.BookingPending), &action, append(summary, "Confirm your booking",
			`Confirm by <time datetime="2026-03-02T10:15:00Z" data-local="time">10:15 UTC</time>`, `<div class="form-error"></div>`,
			`<form class="answer" method="post" action="/threads/t1/resume" hx-post="/threads/t1/resume"`, `name="csrf_token" value="tok"`, `name="key" value="k-123"`,
			`<button type="submit" name="confirmed" value="true">Confirm</button>`, `name="confirmed" value="false" class="secondary">Cancel</button>`),
			[]string{"B-77"}},
		{"pending, in a replay", "en", booking(nodes.BookingPending), nil, append(summary, "Confirm your booking"), []string{"<form", "<button"}},
		{"booked", "pt", booking(nodes.BookingBooked), &action, []string{"Reservado", `Código da reserva: <strong class="reference">B-77</strong>`, "€ 370"}, []string{"<form"}},
		{"booked, with a reference", "en", withReference(booking(nodes.BookingBooked), "K7QM-4X2D"), &action,
			[]string{`Your booking reference: <strong class="reference">K7QM-4X2D</strong>`}, []string{"B-77"}},
		{"the same stay again", "en", warned(nodes.WarnBookedHere), &action,
			[]string{`<p class="warning">You already booked this place for 4 May 2026 – 8 May 2026 (reference K7QM-4X2D): it cannot be booked twice for the same nights.</p>`, "<form"}, nil},
		{"the same place on other nights, in Portuguese", "pt", warned(nodes.WarnBookedBefore), &action,
			[]string{"Você já reservou esta hospedagem para 4 mai 2026 – 8 mai 2026 (código K7QM-4X2D). Confirmar faz outra reserva"}, nil},
		{"taken", "en", warned(nodes.WarnTaken), &action, []string{"already booked for some of these nights", "<form"}, nil},
		{"unavailable", "en", booking(nodes.BookingUnavailable), &action,
			[]string{"Already booked", "This place is already booked for some of these nights, so nothing was booked."}, []string{"<form", "minute", "h1", `role="alert"`}},
		{"set aside", "pt", booking(nodes.BookingSetAside), &action,
			[]string{"Reserva deixada de lado", "nada foi reservado"}, []string{"<form", "<button"}},
		{"declined", "en", booking(nodes.BookingDeclined), &action, []string{"Booking cancelled", "Nothing was booked"}, []string{"<form"}},
		{"expired", "en", booking(nodes.BookingExpired), &action, []string{"Booking expired", "Ask to book it again"}, []string{"<form"}},
		{"failed", "en", failedBooking, &action, []string{"Booking failed", `role="alert"`, "the booking service is down", "Try again in a minute"}, []string{"<form"}},
		{"unknown status", "en", booking("weird"), &action, []string{"Booking failed"}, []string{"<form", "weird"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := ui.WithLanguage(context.Background(), tt.lang)
			if tt.action != nil {
				ctx = ui.WithActions(ctx, *tt.action)
			}
			var b bytes.Buffer
			if err := ui.Component(component(t, "b", card.BookingConfirmation, tt.props)).Render(ctx, &b); err != nil {
				t.Fatal(err)
			}
			checkHTML(t, b.String(), tt.want, tt.absent)
		})
	}
}

// TestTripEdit checks the trip-details form: present only where edits can
// be sent, labelled, with the trip's values and limits.
func TestTripEdit(t *testing.T) {
	c := component(t, "td", card.TripDetails, nodes.TripDetailsProps{TripDetails: lisbon, Nights: 4})
	today := time.Date(2026, 4, 30, 0, 0, 0, 0, time.UTC)
	ctx := ui.WithActions(ui.WithLanguage(context.Background(), "en"), ui.Actions{TripURL: "/threads/t1/trip", CSRFToken: "tok", Today: today})
	var b bytes.Buffer
	if err := ui.Component(c).Render(ctx, &b); err != nil {
		t.Fatal(err)
	}
	checkHTML(t, b.String(), []string{`<form class="trip-edit" method="post" action="/threads/t1/trip" hx-post="/threads/t1/trip"`, `name="csrf_token" value="tok"`,
		`<label for="ui-td-location">Destination</label>`, `<input id="ui-td-location" name="location" value="Lisbon" required maxlength="200">`,
		`<input id="ui-td-start" type="date" name="startDate" value="2026-05-04" required max="2028-04-29" min="2026-04-30">`,
		`<input id="ui-td-end" type="date" name="endDate" value="2026-05-08" required max="2028-07-28" min="2026-05-01">`, `<div class="form-error"></div>`,
		`<label for="ui-td-guests">Guests</label>`, `name="numberOfGuests" value="3" min="1" max="20" required>`, "Update and search again"}, nil)

	onlyBooking := ui.WithActions(context.Background(), ui.Actions{BookingURL: "/b"})
	b.Reset()
	if err := ui.Component(c).Render(onlyBooking, &b); err != nil {
		t.Fatal(err)
	}
	checkHTML(t, b.String(), nil, []string{"<form"})
	checkHTML(t, render(t, "en", ui.Component(c)), nil, []string{"<form"})
}
