package browser

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/picture"
	"github.com/tripgraph/tripgraph/ui"
)

// fixtureState is a conversation that shows every kind of component, in
// its ordinary state and in its failures, with the forms a live thread has.
func fixtureState(t *testing.T) nodes.State {
	t.Helper()
	trip := nodes.TripDetails{Location: "Lisbon", Country: "Portugal", StartDate: "2026-05-04", EndDate: "2026-05-08", NumberOfGuests: 3}
	comp := func(id, name, message string, props any) nodes.UIComponent {
		data, err := json.Marshal(props)
		if err != nil {
			t.Fatal(err)
		}
		return nodes.UIComponent{ID: id, Name: name, MessageID: message, Props: data}
	}
	photos := make([]nodes.Photo, 8)
	for i := range photos {
		id := string(rune('a'+i)) + "-beach"
		photos[i] = nodes.Photo{ID: id, URL: "/photos/" + id + ".png", ThumbnailURL: "/photos/" + id + ".png",
			Description: "beach day <b>at</b> Carcavelos", LocationName: "Praia de Carcavelos", TakenAt: "2024-07-03"}
	}
	failed := nodes.ToolProps{Tool: "list-accommodations", Error: &nodes.ToolError{Code: "UNAVAILABLE", Message: "the catalogue timed out"}}
	return nodes.State{
		Messages: []nodes.Message{
			{ID: "h1", Type: nodes.Human, Content: "4 nights in Lisbon in May, 3 of us"},
			{ID: "a1", Type: nodes.AI, Content: "Here are places to stay and to eat in Lisbon."},
			{ID: "h2", Type: nodes.Human, Content: "mostre fotos da praia"},
			{ID: "a2", Type: nodes.AI, Content: "Fotos da praia."},
		},
		TripDetails: &trip,
		UI: []nodes.UIComponent{
			comp("td", card.TripDetails, "a1", nodes.TripDetailsProps{TripDetails: trip, Nights: 4, Assumed: []string{nodes.FieldGuests}}),
			comp("acc", card.Accommodations, "a1", nodes.AccommodationsListProps{Location: "Lisbon", Covered: true,
				StartDate: trip.StartDate, EndDate: trip.EndDate, Nights: 4, Guests: 3, Accommodations: []nodes.Accommodation{
					{ID: "h1", Name: "Casa Azul", NightlyPrice: 92.5, Currency: "EUR", Rating: 4.6, ImageURL: "/photos/h1.png", Capacity: 4},
					{ID: "h2", Name: "Hotel Tejo", NightlyPrice: 120, Currency: "EUR", Rating: 4.1, ImageURL: "/photos/h2.png", Capacity: 3},
				}}),
			comp("res", card.Restaurants, "a1", nodes.RestaurantsListProps{Location: "Lisbon", Covered: true, Restaurants: []nodes.Restaurant{
				{ID: "r1", Name: "Tasca do Chico", Cuisine: "portuguese", PriceRange: "€€", Rating: 4.5, DistanceKm: 1.2, OpeningHours: "12:00–23:00", Popular: true},
				{ID: "r2", Name: "Sushi Ya", Cuisine: "japanese", PriceRange: "€€€", Rating: 4.2, DistanceKm: 0.4, OpeningHours: "19:00–23:00"},
				{ID: "r3", Name: "Adega Machado", Cuisine: "portuguese", PriceRange: "€€", Rating: 4.0, DistanceKm: 2.1, OpeningHours: "12:00–22:00"},
				{ID: "r4", Name: "Trattoria Lisboa", Cuisine: "italian", PriceRange: "€€", Rating: 3.9, DistanceKm: 0.9, OpeningHours: "18:00–23:30"},
			}}),
			comp("acc-failed", card.Accommodations, "a1", nodes.AccommodationsListProps{ToolProps: failed, Location: "Porto"}),
			comp("res-far", card.Restaurants, "a1", nodes.RestaurantsListProps{Location: "Óbidos",
				Nearby: []nodes.NearbyCity{{Name: "Lisbon", DistanceKm: 72.4}}}),
			comp("book", card.BookingConfirmation, "a1", nodes.BookingConfirmationProps{AccommodationID: "h1", Name: "Casa Azul", City: "Lisbon",
				StartDate: trip.StartDate, EndDate: trip.EndDate, Nights: 4, Guests: 3, NightlyPrice: 92.5, Total: 370, Currency: "EUR",
				Status: nodes.BookingPending, Key: "k1", ExpiresAt: "2026-05-01T10:15:00Z"}),
			comp("grid", card.Photos, "a2", nodes.PhotoGridProps{Query: "praia", Total: len(photos), Photos: photos}),
		},
	}
}

// fixtureServer serves the chat page of fixtureState (in the language the
// path names), the stylesheet and scripts, and generated pictures.
func fixtureServer(t *testing.T) *httptest.Server {
	t.Helper()
	state := fixtureState(t)
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(ui.Assets())))
	mux.HandleFunc("GET /photos/{file}", func(w http.ResponseWriter, r *http.Request) {
		png, err := picture.PNG(strings.TrimSuffix(r.PathValue("file"), ".png"), picture.Thumb)
		if err != nil {
			http.Error(w, "no picture", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		w.Write(png)
	})
	mux.HandleFunc("GET /{lang}/", func(w http.ResponseWriter, r *http.Request) {
		ctx := ui.WithLanguage(r.Context(), r.PathValue("lang"))
		ctx = ui.WithActions(ctx, ui.Actions{BookingURL: "/booking", TripURL: "/trip", BookURL: "/book", CSRFToken: "fixture-token"})
		page := ui.Page{Title: "tripgraph", AssetsURL: "/static", NewURL: "/en/", SendURL: "/messages", CSRFToken: "fixture-token",
			Threads:  []ui.ThreadLink{{Title: "Lisbon in May", URL: "/en/", Current: true}, {URL: "/en/"}},
			Language: ui.LanguageSwitch{Action: "/lang", Next: "/en/", CSRFToken: "fixture-token"}, LogoutURL: "/logout",
			State: state}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if err := ui.ChatPage(page).Render(ctx, w); err != nil {
			t.Errorf("rendering the fixture page: %v", err)
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestComponentsInBrowser checks what only a browser shows of the
// components: the cuisine chips hide the other cuisines' cards, and every
// kind of component, in English and Portuguese, passes axe-core.
func TestComponentsInBrowser(t *testing.T) {
	srv := fixtureServer(t)
	t.Run("cuisine chips filter", func(t *testing.T) {
		p := newTab(t)
		p.navigate(srv.URL + "/en/")
		checkCuisineChips(p, "#"+ui.DOMID("res"))
	})
	for lang, htmlLang := range map[string]string{"en": "en", "pt": "pt-BR"} {
		t.Run("accessibility "+lang, func(t *testing.T) {
			p := newTab(t)
			p.navigate(srv.URL + "/" + lang + "/")
			if got := eval[string](p, "document.documentElement.lang"); got != htmlLang {
				t.Fatalf("page language %q, want %q", got, htmlLang)
			}
			checkAccessibility(p)
		})
	}
}

// visibleCuisines lists the cuisine of each restaurant card of the list
// that is shown, in order.
const visibleCuisines = `[...document.querySelectorAll(%q + ' .card')].filter(c => c.checkVisibility()).map(c => c.dataset.cuisine)`

// checkCuisineChips clicks each cuisine chip of the restaurants list and
// checks that exactly that cuisine's cards stay visible, then that "All"
// shows every card again.
func checkCuisineChips(p *tab, list string) {
	p.t.Helper()
	all := eval[[]string](p, fmt.Sprintf(visibleCuisines, list))
	if len(all) < 2 {
		p.t.Fatalf("the restaurants list %s shows %d cards; the filter needs at least two", list, len(all))
	}
	chips := eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll(%q + ' .chips input')].map(i => i.value)`, list))
	if len(chips) < 3 || chips[0] != "" {
		p.t.Fatalf("chips %q: want \"All\" first and at least two cuisines", chips)
	}
	for i, cuisine := range chips[1:] {
		p.click(fmt.Sprintf(`%s .chips label:nth-of-type(%d)`, list, i+2))
		got := eval[[]string](p, fmt.Sprintf(visibleCuisines, list))
		want := 0
		for _, c := range all {
			if c == cuisine {
				want++
			}
		}
		if len(got) != want {
			p.t.Errorf("chip %q: %d cards visible %q, want its %d", cuisine, len(got), got, want)
		}
		for _, c := range got {
			if c != cuisine {
				p.t.Errorf("chip %q: a %q card is still visible", cuisine, c)
			}
		}
	}
	p.click(list + " .chips label:nth-of-type(1)")
	if got := eval[[]string](p, fmt.Sprintf(visibleCuisines, list)); len(got) != len(all) {
		p.t.Errorf("All: %d cards visible, want %d", len(got), len(all))
	}
}
