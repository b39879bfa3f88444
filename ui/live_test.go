package ui_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/ui"
)

// TestBookButton checks the Book form in an accommodation's details: only
// where bookings can be asked for, with the stay's dates and guests (the
// trip's when the list has none), and escaped.
func TestBookButton(t *testing.T) {
	acts := ui.Actions{BookURL: "/app/threads/t1/book", CSRFToken: "tok"}
	stays := []nodes.Accommodation{{ID: "h<1>", Name: "Casa <b>Azul</b>", NightlyPrice: 90, Currency: "EUR"}}
	withDates := nodes.AccommodationsListProps{Location: "Lisbon", Covered: true, StartDate: "2026-05-04", EndDate: "2026-05-08", Guests: 2, Accommodations: stays}
	fromTrip := nodes.AccommodationsListProps{ToolProps: nodes.ToolProps{TripDetails: &lisbon}, Location: "Lisbon", Covered: true, Accommodations: stays}
	noDates := nodes.AccommodationsListProps{Location: "Lisbon", Covered: true, Accommodations: stays}
	tests := []struct {
		name   string
		props  nodes.AccommodationsListProps
		acts   *ui.Actions
		want   []string
		absent []string
	}{
		{"with the list's dates", withDates, &acts, []string{`<form class="book" method="post" action="/app/threads/t1/book" hx-post="/app/threads/t1/book"`,
			`name="csrf_token" value="tok"`, `name="id" value="h&lt;1&gt;"`, `name="startDate" value="2026-05-04"`, `name="endDate" value="2026-05-08"`,
			`name="guests" value="2"`, `<button type="submit" class="book">Book Casa &lt;b&gt;Azul&lt;/b&gt;</button>`}, []string{"<b>"}},
		{"with the trip's dates", fromTrip, &acts, []string{`name="startDate" value="2026-05-04"`, `name="endDate" value="2026-05-08"`, `name="guests" value="3"`}, nil},
		{"without dates", noDates, &acts, nil, []string{`class="book"`}},
		{"in a replay", withDates, nil, nil, []string{`class="book"`, "<form"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := ui.WithLanguage(context.Background(), "en")
			if tt.acts != nil {
				ctx = ui.WithActions(ctx, *tt.acts)
			}
			var b strings.Builder
			if err := ui.Component(component(t, "s", card.Accommodations, tt.props)).Render(ctx, &b); err != nil {
				t.Fatal(err)
			}
			checkHTML(t, b.String(), tt.want, tt.absent)
		})
	}
}

// TestLiveRegion checks what a live stream needs of the page: the region
// connected to the stream inside the conversation, its status line, the
// error notice and a composer that can be swapped in.
func TestLiveRegion(t *testing.T) {
	page := ui.Page{Title: "t", AssetsURL: "/static", SendURL: "/app/threads/t1/messages", CSRFToken: "tok", Scripts: true,
		LiveURL: "/app/threads/t1/runs/r1/live?checkpoint=c1&amp",
		State:   nodes.State{Messages: []nodes.Message{{ID: "h1", Type: nodes.Human, Content: "hello"}}}}
	html := render(t, "en", ui.ChatPage(page))
	checkHTML(t, html, []string{`<div id="conversation"`, `<article id="msg-h1"`,
		`<div id="live" class="live" hx-ext="sse" sse-connect="/app/threads/t1/runs/r1/live?checkpoint=c1&amp;amp" sse-swap="fragment" hx-swap="none" sse-close="end">`,
		`<p id="msg-live-status" class="tool-status working" role="status">Working…</p>`, `</div></div>`, `<script src="/static/live.js" defer>`}, nil)
	if strings.Index(html, `id="live"`) > strings.Index(html, `id="composer"`) {
		t.Errorf("the live region is not inside the conversation, before the composer")
	}
	checkHTML(t, render(t, "en", ui.ChatPage(ui.Page{Title: "t", State: page.State})), nil, []string{`id="live"`, "sse-connect", "<script"})

	checkHTML(t, render(t, "pt", ui.ErrorNotice("CONFLICT", nil)), []string{`class="error" role="alert" data-code="CONFLICT"`, "Algo deu errado", "já foi respondido"}, nil)
	refused := render(t, "pt", ui.ErrorNotice("BAD_REQUEST", []ui.Field{{Name: "startDate", Problem: "pastDates"}, {Name: "guests", Problem: "must be > 0"}}))
	checkHTML(t, refused, []string{`data-fields="startDate"`, `<p class="problem-field">A data de entrada já passou.</p>`, "Confira a data de entrada"}, []string{"must be", "guests"})
	checkHTML(t, render(t, "en", ui.ErrorNotice("INTERNAL", nil)), []string{"Send your message again"}, nil)
	checkHTML(t, render(t, "en", ui.OutOfBand(ui.Composer("/app/threads/t2/messages", "tok"))),
		[]string{`<form id="composer" class="composer" method="post" action="/app/threads/t2/messages" hx-post="/app/threads/t2/messages"`, `hx-swap-oob="true"`}, nil)
}

// TestStreamActions checks the forms for a script that sends them through
// LangGraph's SDK (the generative UI): each card's forms are there, with
// the fields the posted forms have, but no URL, htmx or CSRF field, and
// data-action naming what each does.
func TestStreamActions(t *testing.T) {
	ctx := ui.WithActions(ui.WithLanguage(context.Background(), "en"), ui.Actions{Stream: true})
	stays := nodes.AccommodationsListProps{Location: "Lisbon", Covered: true, StartDate: "2026-05-04", EndDate: "2026-05-08", Guests: 2,
		Accommodations: []nodes.Accommodation{{ID: "h1", Name: "Casa Azul", NightlyPrice: 90, Currency: "EUR"}}}
	pending := nodes.BookingConfirmationProps{Status: nodes.BookingPending, Key: "k-123", Name: "Casa Azul", StartDate: "2026-05-04", EndDate: "2026-05-08", Guests: 2}
	for _, tt := range []struct {
		name  string
		c     nodes.UIComponent
		wants []string
	}{
		{"book", component(t, "s", card.Accommodations, stays), []string{`<form class="book" data-action="book">`, `name="id" value="h1"`,
			`name="startDate" value="2026-05-04"`, `name="endDate" value="2026-05-08"`, `name="guests" value="2"`, `<button type="submit" class="book">Book Casa Azul</button>`}},
		{"answer", component(t, "b", card.BookingConfirmation, pending), []string{`<form class="answer" data-action="answer">`, `name="key" value="k-123"`,
			`name="confirmed" value="true">Confirm</button>`, `name="confirmed" value="false" class="secondary">Cancel</button>`}},
		{"trip", component(t, "td", card.TripDetails, nodes.TripDetailsProps{TripDetails: lisbon, Nights: 4}), []string{`<form class="trip-edit" data-action="trip" data-guests="{n} guest|{n} guests" data-said="Change the trip to {location}, {dates}, {guests}">`,
			`name="location" value="Lisbon"`, `name="numberOfGuests" value="3"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := ui.Component(tt.c).Render(ctx, &b); err != nil {
				t.Fatal(err)
			}
			checkHTML(t, b.String(), tt.wants, []string{"csrf_token", "hx-post", ` action=`, `method="post"`})
		})
	}
}
