// Package offline is a rules-based llms.Model that plans trips in English
// and Portuguese without a language model: it reads cities with a GeoNames
// gazetteer, dates, guest counts and intents with hand-written rules, and
// answers the trip planner's three kinds of calls the way a good LLM would.
//
// # The contract with the nodes package
//
//  1. Every system prompt has a line "Today: YYYY-MM-DD"; it is the clock.
//     Without it the model uses WithClock's clock, or time.Now.
//  2. callTools system prompts may have a line
//     `Trip details: {"location":"Lisbon","startDate":"2027-05-03","endDate":"2027-05-07","numberOfGuests":3}`.
//  3. When the tool "extract" is offered, the model calls it with what the
//     user's messages say, later messages overriding earlier ones, leaving
//     out what was not said:
//     {"location":"Lisbon","country":"Portugal","startDate":"2027-05-03",
//     "endDate":"2027-05-07","nights":4,"numberOfGuests":3,
//     "intent":"accommodations|restaurants|trip|photos|other","language":"en|pt"}.
//     location is the gazetteer's English name of the city, or of the
//     region, island or park named ("Lake Como"), or of the country
//     named alone in a request ("Greece"); dates follow the rules
//     of package dates (a month alone gives only startDate, its 1st).
//     intent and language are always present.
//  4. When the tool "classify" is offered, it calls it with
//     {"isRelevant": bool}: false when the last user message states a
//     location, dates or a guest count that differ from (or were absent
//     in) the earlier user messages; true otherwise and for photo questions.
//  5. Otherwise it calls the offered tools that fit the request:
//     list-accommodations {location,startDate,endDate,guests} and
//     list-restaurants {location,cuisine?,priceRange?} from the Trip details
//     line (both for a trip); for photos getAlbumByName {name: the search
//     term} and then getAlbumPhotos of an album named like the term, else
//     searchPhotosAcrossAlbums {query}; getUserAlbums {}; or getAlbumByName
//     {name} and then, once its result is in the conversation,
//     getTripStats, getPhotosByDate, getPhotosByLocation or getAlbumPhotos
//     with the first album's id.
//     When every tool it wanted has answered (llms.ToolCallResponse parts
//     after the last user message), it calls nothing and summarises the
//     results in the user's language. Errors are reported kindly.
//     An open question, a wish for a kind of place that names none
//     ("somewhere warm in December?", read by intent.ReadDestinationWish),
//     gets intent other, no location and, when the tools are offered, a
//     reply proposing three to five covered destinations (package
//     suggest), or, when none fits, one that restates the wish and asks
//     for a city; the next message may pick a destination by its number.
//     A misspelt place only one destination is near is read as that
//     place, and the summary names it with what was written ("Budapest
//     (you wrote budapset)"); "unsure" lists the place only when two
//     places compete for the misspelling.
//  6. With no tools it answers in text.
//  7. Replies are in the language of the conversation (en or pt).
//
// Visible text is streamed through CallOptions.StreamingFunc in a few
// chunks; tool calls never are.
package offline

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tmc/langchaingo/llms"
	"github.com/tripgraph/tripgraph/model/gazetteer"
)

// Model is the offline model. The zero value is not ready; use New.
type Model struct {
	now    func() time.Time
	prefix string
	seq    atomic.Uint64
}

var _ llms.Model = (*Model)(nil)

// Option configures a Model.
type Option func(*Model)

// WithClock sets the clock used when a prompt has no "Today:" line.
func WithClock(now func() time.Time) Option {
	return func(m *Model) { m.now = now }
}

// New returns an offline model. It loads the gazetteer now so that the
// first request is as fast as the others.
func New(opts ...Option) (*Model, error) {
	m := &Model{now: time.Now}
	for _, o := range opts {
		o(m)
	}
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("making tool call id prefix: %w", err)
	}
	m.prefix = "call_" + hex.EncodeToString(b[:]) + "_"
	if err := gazetteer.Load(); err != nil {
		return nil, fmt.Errorf("starting offline model: %w", err)
	}
	return m, nil
}

// Call answers a single prompt with text.
func (m *Model) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, options...)
}

// GenerateContent answers a conversation: with tool calls when tools fit,
// else with text.
func (m *Model) GenerateContent(ctx context.Context, msgs []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("offline model: %w", err)
	}
	var opts llms.CallOptions
	for _, o := range options {
		o(&opts)
	}
	c := readConversation(msgs, opts, m.now)
	choice := m.respond(c)
	if opts.StreamingFunc != nil && choice.Content != "" {
		if err := stream(ctx, opts.StreamingFunc, choice.Content); err != nil {
			return nil, fmt.Errorf("offline model streaming: %w", err)
		}
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{choice}}, nil
}

func (m *Model) respond(c conversation) *llms.ContentChoice {
	switch {
	case c.wants("extract"):
		e := Understand(c.users, c.today)
		args := extractArgs(e.withProfile(c.profile, c.users).withSuggestions(c.users, c.today, c.profile))
		args.Budget = extractArgs(e).Budget // what the messages stated, not what the profile remembers
		return m.withCalls("", m.call("extract", args))
	case c.wants("classify"):
		return m.withCalls("", m.call("classify", map[string]bool{"isRelevant": relevant(c.users, c.today)}))
	case len(c.tools) > 0:
		return m.useTools(c)
	}
	return &llms.ContentChoice{Content: plainReply(c), StopReason: "stop"}
}

// wants reports whether the caller asks for that tool: forces it, or
// offers it (the nodes offer extract and classify alone).
func (c conversation) wants(name string) bool {
	return c.forced == name || (c.forced == "" && c.tools[name])
}

func (m *Model) call(name string, args any) llms.ToolCall {
	return llms.ToolCall{
		ID:           fmt.Sprintf("%s%d", m.prefix, m.seq.Add(1)),
		Type:         "function",
		FunctionCall: &llms.FunctionCall{Name: name, Arguments: mustJSON(args)},
	}
}

func (m *Model) withCalls(text string, calls ...llms.ToolCall) *llms.ContentChoice {
	ch := &llms.ContentChoice{Content: text, ToolCalls: calls, StopReason: "tool_calls"}
	if len(calls) > 0 {
		ch.FuncCall = calls[0].FunctionCall
	}
	return ch
}

// stream sends text in a few chunks, split at spaces.
func stream(ctx context.Context, f func(context.Context, []byte) error, text string) error {
	words := strings.SplitAfter(text, " ")
	step := max(1, (len(words)+2)/3)
	for i := 0; i < len(words); i += step {
		if err := f(ctx, []byte(strings.Join(words[i:min(i+step, len(words))], ""))); err != nil {
			return err
		}
	}
	return nil
}
