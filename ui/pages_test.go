package ui_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/replay"
	"github.com/tripgraph/tripgraph/ui"
)

const evil = `<script>alert("x")</script>`

// TestEscaping checks that markup in data is shown as text, wherever the
// data appears: a photo description, a restaurant name, a thread title, a
// message, a tool's error message.
func TestEscaping(t *testing.T) {
	escaped := `&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`
	state := nodes.State{
		Messages: []nodes.Message{{ID: "m1", Type: nodes.Human, Content: evil}},
		UI: []nodes.UIComponent{
			component(t, "p", card.Photos, nodes.PhotoGridProps{Photos: []nodes.Photo{{ID: "1", URL: `/m/1.jpg" onerror="x`, Description: evil}}}),
			component(t, "r", card.Restaurants, eats(nodes.Restaurant{ID: "r1", Name: evil, Cuisine: `"><b>`})),
			component(t, "a", card.Accommodations, nodes.AccommodationsListProps{ToolProps: nodes.ToolProps{Error: &nodes.ToolError{Code: "X", Message: evil}}}),
		},
	}
	page := ui.Page{Title: evil, AssetsURL: "/static", State: state, SendURL: "/send",
		Threads: []ui.ThreadLink{{Title: evil, URL: "javascript:alert(1)"}}}
	html := render(t, "en", ui.ChatPage(page))
	if n := strings.Count(html, escaped); n < 5 {
		t.Errorf("the data's markup is escaped %d times, want at least 5 (title ×2, thread, message, photo, restaurant, error)", n)
	}
	checkHTML(t, html, []string{`value="&#34;&gt;&lt;b&gt;"`, `onerror=&#34;x"`},
		[]string{evil, `<b>`, `href="javascript:`, `onerror="x"`})
}

// TestConversation checks that each component is shown with the message it
// belongs to, in order, and that a component of no message is still shown.
func TestConversation(t *testing.T) {
	state := nodes.State{
		Messages: []nodes.Message{
			{ID: "h1", Type: nodes.Human, Content: "4 nights in Lisbon"},
			{ID: "a1", Type: nodes.AI, Content: "Here are places to stay."},
		},
		UI: []nodes.UIComponent{
			{ID: "acc", Name: card.Accommodations, MessageID: "a1", Props: mustJSON(t, stays())},
			{ID: "td", Name: card.TripDetails, MessageID: "h1", Props: mustJSON(t, nodes.TripDetailsProps{TripDetails: lisbon, Nights: 4})},
			{ID: "lost", Name: card.Albums, MessageID: "gone", Props: mustJSON(t, nodes.AlbumListProps{})},
		},
	}
	html := render(t, "en", ui.Conversation(state))
	order := []string{`id="conversation"`, `<span id="latest" class="anchor"></span>`, `id="msg-h1"`, `<div id="msg-h1-body" class="body">4 nights in Lisbon`, `id="ui-td"`, `id="msg-a1"`, "Here are places to stay.", `id="ui-acc"`, `id="ui-lost"`}
	at := 0
	for _, w := range order {
		i := strings.Index(html[at:], w)
		if i < 0 {
			t.Fatalf("%q missing or out of order in\n%s", w, html)
		}
		at += i
	}
	// Not a live region: the page announces each reply once, elsewhere.
	checkHTML(t, html, []string{`class="message human"`, `class="message ai"`, "You", "Assistant"}, []string{`role="log"`, "aria-live"})

	empty := render(t, "pt", ui.Conversation(nodes.State{}))
	checkHTML(t, empty, []string{"Pergunte sobre uma viagem"}, []string{"<article"})
}

// TestChatPage checks the layout: readable without scripts, labelled
// controls, the scripts only when the page has them, the current thread
// marked.
func TestChatPage(t *testing.T) {
	page := ui.Page{Title: "tripgraph", AssetsURL: "/static", SendURL: "/threads/t1/messages", CSRFToken: "tok123", NewURL: "/threads/new",
		Threads:  []ui.ThreadLink{{Title: "Lisbon in May", URL: "/threads/t1", Current: true}, {URL: "/threads/t2"}},
		Language: ui.LanguageSwitch{Action: "/app/lang", Next: "/threads/t1", CSRFToken: "tok123"},
		State:    nodes.State{Messages: []nodes.Message{{ID: "h1", Type: nodes.Human, Content: "hello"}}}}
	html := render(t, "en", ui.ChatPage(page))
	want := []string{`<html lang="en">`, `href="/static/app.css"`, `<a class="skip" href="#conversation">`,
		`<button type="button" class="threads-toggle" aria-expanded="false" aria-controls="threads">Conversations</button>`, `<nav id="threads"`,
		`<div id="announce" class="visually-hidden" role="status" aria-live="polite"></div>`,
		`maxlength="4000"`, `aria-describedby="message-keys message-count"`, `<div class="form-error"></div>`,
		`<a href="/threads/t1" aria-current="page">Lisbon in May</a>`, `<a href="/threads/t2">Untitled conversation</a>`,
		`<form id="composer" class="composer" method="post" action="/threads/t1/messages" hx-post="/threads/t1/messages"`, `name="csrf_token" value="tok123"`,
		`<label class="visually-hidden" for="message">Your message</label>`, `<textarea id="message" name="message"`,
		`<button type="submit">Send</button>`, `<form class="lang" method="post" action="/app/lang"`, `<button type="submit" name="lang" value="pt" lang="pt-BR" aria-pressed="false">Português</button>`, `aria-live="polite"`, "hello"}
	checkHTML(t, html, want, []string{"<script"})
	page.Scripts = true
	scripts := render(t, "en", ui.ChatPage(page))
	checkHTML(t, scripts, []string{`<script src="/static/vendor/htmx.min.js" defer>`, `<script src="/static/vendor/sse.min.js" defer>`}, nil)

	pt := render(t, "pt", ui.ChatPage(ui.Page{Title: "tripgraph"}))
	checkHTML(t, pt, []string{`<html lang="pt-BR">`, "Conversas", "Ainda não há conversas."}, []string{"<form"})
}

// TestTimelineView checks the step list and that the selected step's state
// is the one rendered.
func TestTimelineView(t *testing.T) {
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	before := nodes.State{Messages: []nodes.Message{{ID: "h1", Type: nodes.Human, Content: "Lisbon please"}}}
	after := before
	after.Messages = append(after.Messages, nodes.Message{ID: "a1", Type: nodes.AI, Content: "Found 3 stays"})
	after.UI = []nodes.UIComponent{{ID: "acc", Name: card.Accommodations, MessageID: "a1", Props: mustJSON(t, stays())}}
	after.TripDetails = &lisbon
	steps := []replay.Step{
		{CheckpointID: "c2", ParentID: "c1", Step: 2, Node: "callTools", CreatedAt: at.Add(time.Second), State: after, Change: replay.Diff(before, after)},
		{CheckpointID: "c1", Step: 1, CreatedAt: at, State: before, Change: replay.Diff(nodes.State{}, before)},
	}
	tl := ui.Timeline{Steps: steps, Selected: "c1", StepURL: func(id string) string { return "/threads/t1/replay?checkpoint=" + id }}
	html := render(t, "en", ui.TimelineView(tl))
	checkHTML(t, html, []string{
		// the selected step's conversation comes first, then the list
		`<section class="replay-view"`, "The conversation at step 1", "Lisbon please", `<nav class="timeline"`,
		`<a href="/threads/t1/replay?checkpoint=c2">`, "Step 2", `<span class="node">Looked places up</span>`,
		`<time datetime="2026-05-01T10:00:01Z" data-local="datetime">2026-05-01 10:00:01 UTC</time>`,
		`<span class="asked">About <q>Lisbon please</q></span>`,
		"replied “Found 3 stays”; added the places to stay; trip details changed: Lisbon, Portugal",
		`<a href="/threads/t1/replay?checkpoint=c1" aria-current="step">`, "Step 1", `<span class="node">You</span>`, "your message"},
		[]string{`id="ui-acc"`, "callTools", "accommodations-list", "1 message added"})
	view := html[:strings.Index(html, `<nav class="timeline"`)]
	if strings.Contains(view, "Found 3 stays") {
		t.Errorf("step 1's conversation shows the reply of step 2:\n%s", view)
	}
	if strings.Index(html, `<section class="replay-view"`) > strings.Index(html, `<nav class="timeline"`) {
		t.Error("the selected step is shown below the list of steps")
	}

	tl.Selected = ""
	checkHTML(t, render(t, "en", ui.TimelineView(tl)), []string{"The conversation at step 2", "Found 3 stays", `id="ui-acc"`}, nil)

	checkHTML(t, render(t, "pt", ui.TimelineView(ui.Timeline{})), []string{"Esta conversa não tem passos salvos."}, []string{"<ol"})

	// A fork that paused on a booking: the card shows, without buttons.
	ask := component(t, "call_9", card.BookingConfirmation, nodes.BookingConfirmationProps{Name: "Casa Azul", Status: nodes.BookingPending, Key: "k"})
	paused := replay.Step{CheckpointID: "c3", ParentID: "c2", Step: 3, Source: "fork", CreatedAt: at, State: after, Change: replay.Diff(after, after), Pending: []nodes.UIComponent{ask}}
	tl = ui.Timeline{Steps: append([]replay.Step{paused}, steps...), StepURL: tl.StepURL}
	checkHTML(t, render(t, "en", ui.TimelineView(tl)), []string{`<span class="node">fork</span>`,
		"nothing shown changed; waiting for an answer to the booking confirmation", `id="ui-call_9"`, "Confirm your booking"}, []string{"<button"})
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
