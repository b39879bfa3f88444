package web

import (
	"context"
	"encoding/json"
	"html"
	"strings"

	"github.com/a-h/templ"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/ui"
)

// liveView turns a run's stored events into the HTML fragments the page's
// live region (ui.LiveRun) applies, rendered by the ui components replay
// uses. Every element a fragment carries is placed out of band:
//
//   - a message's first token or component creates its message (before the
//     live region); each token is appended to the message's body;
//   - a UI component goes into its message the first time and replaces
//     itself by id after that, so an upsert changes the card in place;
//   - the booking interrupt shows the pending booking, with Confirm and
//     Cancel when the context carries the thread's actions;
//   - mcp_calling and mcp_complete replace the reply's tool status line;
//   - a state (values) adds the messages no token announced (a question,
//     the person's message) and puts each streamed message's final text
//     in its body;
//   - an error shows its code's notice with what to do next.
//
// It remembers what the page shows, so that no message or card is shown
// twice: what the page was rendered with (see newLiveView), and what the
// fragments so far have added.
type liveView struct {
	ctx    context.Context // the language and the thread's actions
	shown  map[string]bool // messages on the page
	whole  map[string]bool // messages on the page with their final text: their tokens are not needed
	placed map[string]bool // components on the page
	place  string          // the trip's destination, for the status line
	// thread, when set, is the thread whose link in the thread list is
	// retitled with each trip the stream shows (ui.TripTitle); "" for a
	// thread its client titled.
	thread string
}

// newLiveView is the view of a page that shows the state shown (with
// every message whole) and the messages whose ids are also named.
func newLiveView(ctx context.Context, shown nodes.State, also ...string) *liveView {
	v := &liveView{ctx: ctx, shown: map[string]bool{}, whole: map[string]bool{}, placed: map[string]bool{}}
	for _, m := range shown.Messages {
		v.shown[m.ID], v.whole[m.ID] = true, true
	}
	for _, id := range also {
		v.shown[id], v.whole[id] = true, true
	}
	for _, c := range shown.UI {
		v.placed[c.ID] = true
	}
	if shown.TripDetails != nil {
		v.place = shown.TripDetails.Location
	}
	return v
}

// fragment is the HTML a stored event makes; "" when it shows nothing.
func (v *liveView) fragment(e store.RunEvent) (string, error) {
	var b strings.Builder
	var err error
	switch p := wire.ReadPart(e); {
	case p.Token != nil:
		err = v.token(&b, *p.Token)
	case p.Component != nil:
		err = v.component(&b, *p.Component)
	case p.Tool != nil:
		err = v.toolStatus(&b, *p.Tool)
	case p.Interrupts != nil:
		err = v.interrupts(&b, p.Interrupts)
	case p.State != nil:
		err = v.values(&b, *p.State)
	case p.Error != nil:
		err = v.failure(&b, p.Error.Error)
	}
	return b.String(), err
}

// failure shows an error's notice in place, by its code.
func (v *liveView) failure(b *strings.Builder, code string) error {
	if code == "" {
		code = "INTERNAL"
	}
	return oob(v.ctx, b, "beforebegin", ui.LiveDOMID, ui.ErrorNotice(code, nil))
}

// token appends a streamed token to its message, creating the message
// first.
func (v *liveView) token(b *strings.Builder, chunk wire.MessageChunk) error {
	if v.whole[chunk.ID] {
		return nil
	}
	if err := v.ensureMessage(b, chunk.ID); err != nil {
		return err
	}
	b.WriteString(`<div hx-swap-oob="beforeend:` + selector(ui.MessageDOMID(chunk.ID)+"-body") + `">`)
	b.WriteString(html.EscapeString(chunk.Content))
	b.WriteString(`</div>`)
	return nil
}

// ensureMessage creates an empty assistant message the first time one of
// its tokens or components arrives.
func (v *liveView) ensureMessage(b *strings.Builder, id string) error {
	if id == "" || v.shown[id] {
		return nil
	}
	v.shown[id] = true
	return oob(v.ctx, b, "beforebegin", ui.LiveDOMID, ui.Message(nodes.Message{ID: id, Type: nodes.AI}, nil))
}

// toolStatus replaces the reply's tool status line when a tool call
// starts or ends.
func (v *liveView) toolStatus(b *strings.Builder, c wire.ToolStatus) error {
	if c.Type != mcpbridge.EventCalling && c.Type != mcpbridge.EventComplete {
		return nil
	}
	status := ui.ToolStatus{MessageID: ui.LiveReply, Tool: c.Tool, Card: c.Card, Place: v.place,
		Done: c.Type == mcpbridge.EventComplete, Items: c.Items, ErrorCode: c.Error}
	return renderTo(v.ctx, b, ui.OutOfBand(ui.ToolStatusLine(status)))
}

// component places a component in its message, or replaces it where it
// is.
func (v *liveView) component(b *strings.Builder, c nodes.UIComponent) error {
	if c.Name == card.TripDetails {
		var p nodes.TripDetailsProps
		if json.Unmarshal(c.Props, &p) == nil && p.TripDetails.Location != "" {
			v.place = p.TripDetails.Location
			if err := v.retitle(b, p.TripDetails); err != nil {
				return err
			}
		}
	}
	if v.placed[c.ID] {
		return renderTo(v.ctx, b, ui.Swap(c))
	}
	v.placed[c.ID] = true
	if c.MessageID == "" {
		return oob(v.ctx, b, "beforebegin", ui.LiveDOMID, ui.Component(c))
	}
	if err := v.ensureMessage(b, c.MessageID); err != nil {
		return err
	}
	return oob(v.ctx, b, "beforeend", ui.MessageDOMID(c.MessageID), ui.Component(c))
}

// retitle gives the thread's link in the thread list the trip's title.
func (v *liveView) retitle(b *strings.Builder, td nodes.TripDetails) error {
	if v.thread == "" {
		return nil
	}
	link := ui.ThreadLink{ID: v.thread, Title: ui.TripTitle(v.ctx, td), URL: LatestURL(v.thread), Current: true}
	return renderTo(v.ctx, b, ui.OutOfBand(ui.ThreadItem(link)))
}

// interrupts shows what a paused run waits for: the booking confirmation
// its interrupt carries. Other updates show nothing: their components and
// messages come as their own events.
func (v *liveView) interrupts(b *strings.Builder, asked []nodes.UIComponent) error {
	for _, c := range asked {
		if err := v.component(b, c); err != nil {
			return err
		}
	}
	return nil
}

// values adds the messages of a state that the page does not show yet,
// whole with their components, and gives each message whose tokens were
// streamed its final text.
func (v *liveView) values(b *strings.Builder, s nodes.State) error {
	if s.TripDetails != nil && s.TripDetails.Location != "" {
		v.place = s.TripDetails.Location
	}
	for _, m := range s.Messages {
		switch {
		case v.whole[m.ID]:
			continue
		case v.shown[m.ID]:
			b.WriteString(`<div id="` + ui.MessageDOMID(m.ID) + `-body" class="body" hx-swap-oob="true">`)
			b.WriteString(html.EscapeString(m.Content))
			b.WriteString(`</div>`)
		default:
			var comps []nodes.UIComponent
			for _, c := range s.UI {
				if c.MessageID == m.ID && !v.placed[c.ID] {
					comps = append(comps, c)
					v.placed[c.ID] = true
				}
			}
			if err := oob(v.ctx, b, "beforebegin", ui.LiveDOMID, ui.Message(m, comps)); err != nil {
				return err
			}
		}
		v.shown[m.ID], v.whole[m.ID] = true, true
	}
	return nil
}

// oob writes c inside an element that htmx swaps out of band: c's own
// elements go how ("beforeend", "beforebegin", ...) the element with id
// target.
func oob(ctx context.Context, b *strings.Builder, how, target string, c templ.Component) error {
	b.WriteString(`<div hx-swap-oob="` + how + `:` + selector(target) + `">`)
	if err := renderTo(ctx, b, c); err != nil {
		return err
	}
	b.WriteString(`</div>`)
	return nil
}

func renderTo(ctx context.Context, b *strings.Builder, c templ.Component) error {
	return c.Render(ctx, b)
}

// selector is the CSS selector of an element id made by ui's DOM id
// functions: letters, digits, "-", "_" and ".", which must be escaped.
func selector(id string) string {
	return "#" + strings.ReplaceAll(id, ".", `\.`)
}
