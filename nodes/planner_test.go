package nodes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
)

// fixedNow is the clock of every test: Saturday 2026-11-21.
func fixedNow() time.Time { return time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC) }

// scripted is an llms.Model that answers from a script and records what it
// was asked.
type scripted struct {
	mu      sync.Mutex
	replies []llms.ContentChoice
	asked   []asked
}

type asked struct {
	messages []llms.MessageContent
	tools    []string
	choice   any
}

func (m *scripted) GenerateContent(ctx context.Context, msgs []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	var opts llms.CallOptions
	for _, o := range options {
		o(&opts)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	a := asked{messages: msgs, choice: opts.ToolChoice}
	for _, t := range opts.Tools {
		a.tools = append(a.tools, t.Function.Name)
	}
	m.asked = append(m.asked, a)
	if len(m.replies) == 0 {
		return nil, errors.New("script exhausted")
	}
	c := m.replies[0]
	m.replies = m.replies[1:]
	if opts.StreamingFunc != nil && c.Content != "" {
		opts.StreamingFunc(ctx, []byte(c.Content))
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{&c}}, nil
}

func (m *scripted) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, options...)
}

func calls(name string, args ...string) llms.ContentChoice {
	var c llms.ContentChoice
	for i, a := range args {
		c.ToolCalls = append(c.ToolCalls, llms.ToolCall{ID: fmt.Sprintf("%s_%d", name, i), Type: "function",
			FunctionCall: &llms.FunctionCall{Name: name, Arguments: a}})
	}
	return c
}

func text(s string) llms.ContentChoice { return llms.ContentChoice{Content: s} }

// testTools are in-process tools that answer from their arguments.
func testTools(record *[]string) FuncTools {
	tool := func(name string, run func(args map[string]any) (any, error)) FuncTool {
		return FuncTool{Tool: Tool{Name: name, Description: name, Card: cardOf[name]}, Run: func(_ context.Context, raw json.RawMessage) (any, error) {
			var args map[string]any
			if err := json.Unmarshal(raw, &args); err != nil {
				return nil, errcode.New(errcode.BadRequest, "arguments are not JSON")
			}
			*record = append(*record, name+" "+string(raw))
			return run(args)
		}}
	}
	return FuncTools{
		tool("list-accommodations", func(a map[string]any) (any, error) {
			return map[string]any{"location": a["location"], "covered": true, "guests": a["guests"],
				"accommodations": []map[string]any{{"id": "h1", "name": "Casa Azul", "nightlyPrice": 90, "totalPrice": 360, "capacity": 4}}}, nil
		}),
		tool("list-restaurants", func(a map[string]any) (any, error) {
			return map[string]any{"location": a["location"], "covered": true,
				"restaurants": []map[string]any{{"id": "r1", "name": "Tasca", "cuisine": "portuguese"}}}, nil
		}),
		tool("searchPhotosAcrossAlbums", func(a map[string]any) (any, error) {
			return map[string]any{"query": a["query"], "total": 1,
				"photos": []map[string]any{{"id": "p1", "albumId": "al1", "description": "aniversário da Vivi na praia"}}}, nil
		}),
		tool("getAlbumByName", func(a map[string]any) (any, error) {
			if a["name"] == "Mars" {
				return nil, errcode.New(errcode.NotFound, "no album named Mars")
			}
			return map[string]any{"albums": []map[string]any{{"id": "al1", "name": "Japan 2024", "photoCount": 120}}}, nil
		}),
		tool("getTripStats", func(a map[string]any) (any, error) {
			return map[string]any{"albumId": a["albumId"], "name": "Japan 2024", "totalPhotos": 120, "days": 12}, nil
		}),
	}
}

// turnResult is what one run produced.
type turnResult struct {
	state       State
	nodes       []string // in the order they ran
	ui          []string // names of the UI components emitted
	tokens      string
	tokenMsgIDs []string // the message id of each token event
}

func runTurn(t *testing.T, g *Graph, thread, msg string) turnResult {
	t.Helper()
	return runTurnAs(t, g, thread, "", msg)
}

// runTurnAs is runTurn as the run runID ("" for a new one).
func runTurnAs(t *testing.T, g *Graph, thread, runID, msg string) turnResult {
	t.Helper()
	var r turnResult
	input := Update{Messages: []Message{{ID: uuid.NewString(), Type: Human, Content: msg}}}
	for ev, err := range g.Run(context.Background(), graph.RunConfig[Update]{ThreadID: thread, RunID: runID, Input: input}) {
		if err != nil {
			t.Fatal(err)
		}
		switch ev.Kind {
		case graph.NodeStarted:
			r.nodes = append(r.nodes, ev.Node)
		case graph.Custom:
			r.ui = append(r.ui, ev.Payload.(UIComponent).Name)
		case graph.Token:
			r.tokens += ev.Token
			r.tokenMsgIDs = append(r.tokenMsgIDs, ev.MessageID)
		case graph.RunFinished:
			r.state = ev.State
		}
	}
	return r
}

func newPlanner(t *testing.T, m llms.Model, tools Tools) *Graph {
	t.Helper()
	g, err := bound(Deps{Model: m, Now: fixedNow}, Traveller{Tools: tools}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func lastAI(s State) string { return s.Messages[len(s.Messages)-1].Content }

func TestTripTurn(t *testing.T) {
	var toolCalls []string
	m := &scripted{replies: []llms.ContentChoice{
		calls("extract", `{"location":"Lisbon","country":"Portugal","startDate":"2027-05-03","nights":4,"numberOfGuests":3,"intent":"trip","language":"en"}`),
		calls("list-accommodations", `{"location":"Lisbon","startDate":"2027-05-03","endDate":"2027-05-07","guests":3}`),
		calls("list-restaurants", `{"location":"Lisbon"}`),
		text("Here are places to stay and eat in Lisbon."),
	}}
	g := newPlanner(t, m, testTools(&toolCalls))
	r := runTurn(t, g, testThread, "4 nights in Lisbon from May 3, 3 of us")

	if !slices.Equal(r.nodes, []string{NodeExtraction, NodeCallTools}) {
		t.Fatalf("nodes = %v", r.nodes)
	}
	want := TripDetails{Location: "Lisbon", Country: "Portugal", StartDate: "2027-05-03", EndDate: "2027-05-07", NumberOfGuests: 3}
	if r.state.TripDetails == nil || !r.state.TripDetails.Equal(want) {
		t.Fatalf("trip details = %+v, want %+v", r.state.TripDetails, want)
	}
	if !slices.Equal(r.ui, []string{card.TripDetails, card.Accommodations, card.Restaurants}) {
		t.Fatalf("ui events = %v", r.ui)
	}
	if len(r.state.UI) != 3 {
		t.Fatalf("state keeps %d components, want 3", len(r.state.UI))
	}
	var acc AccommodationsListProps
	json.Unmarshal(r.state.UI[1].Props, &acc)
	if len(acc.Accommodations) != 1 || acc.Accommodations[0].TotalPrice != 360 || acc.TripDetails.Location != "Lisbon" {
		t.Fatalf("accommodations props = %+v", acc)
	}
	if r.state.UI[1].MessageID != r.state.Messages[1].ID {
		t.Fatal("the components are not attached to the assistant's message")
	}
	if lastAI(r.state) != "Here are places to stay and eat in Lisbon." || r.tokens != lastAI(r.state) {
		t.Fatalf("answer %q, streamed %q", lastAI(r.state), r.tokens)
	}
	if answerID := r.state.Messages[len(r.state.Messages)-1].ID; len(r.tokenMsgIDs) == 0 || slices.ContainsFunc(r.tokenMsgIDs, func(id string) bool { return id != answerID }) {
		t.Fatalf("tokens carry message ids %v, want the answer's %s", r.tokenMsgIDs, answerID)
	}
	// The extraction prompt carries today's date; callTools also the trip.
	sys := m.asked[0].messages[0].Parts[0].(llms.TextContent).Text
	if !strings.Contains(sys, "Today: 2026-11-21") {
		t.Fatalf("extraction prompt lacks the date:\n%s", sys)
	}
	sys = m.asked[1].messages[0].Parts[0].(llms.TextContent).Text
	if !strings.Contains(sys, `Trip details: {"location":"Lisbon","country":"Portugal","startDate":"2027-05-03"`) {
		t.Fatalf("callTools prompt lacks the trip details:\n%s", sys)
	}
	// The second model call saw the first tool's result.
	last := m.asked[2].messages[len(m.asked[2].messages)-1]
	if resp, ok := last.Parts[0].(llms.ToolCallResponse); !ok || !strings.Contains(resp.Content, "Casa Azul") {
		t.Fatalf("the model was not given the tool result: %+v", last)
	}
}

// The messages a run writes have ids derived from the run, the step and
// the node: the same step run again writes the same message (so a stream
// that carried part of it shows it once), and another run another one.
func TestMessageIDsFollowTheRunAndStep(t *testing.T) {
	turn := func(runID string) []string {
		m := &scripted{replies: []llms.ContentChoice{
			calls("extract", `{"location":"Lisbon","startDate":"2027-05-03","nights":4,"numberOfGuests":3,"intent":"trip","language":"en"}`),
			text("Here are places to stay in Lisbon."),
		}}
		var ids []string
		for _, msg := range runTurnAs(t, newPlanner(t, m, testTools(new([]string))), uuid.NewString(), runID, "4 nights in Lisbon").state.Messages[1:] {
			ids = append(ids, msg.ID)
		}
		return ids
	}
	run := uuid.NewString()
	first, again, other := turn(run), turn(run), turn(uuid.NewString())
	if len(first) == 0 || !slices.Equal(first, again) {
		t.Errorf("the same run's messages have ids %v, then %v", first, again)
	}
	if slices.Equal(first, other) {
		t.Errorf("two runs' messages share ids %v", first)
	}
}

func TestNoLocationAsksInTheTravellersLanguage(t *testing.T) {
	var toolCalls []string
	m := &scripted{replies: []llms.ContentChoice{
		calls("extract", `{"numberOfGuests":2,"intent":"trip","language":"pt"}`),
	}}
	r := runTurn(t, newPlanner(t, m, testTools(&toolCalls)), testThread, "quero viajar em maio com minha esposa")
	if !slices.Equal(r.nodes, []string{NodeExtraction}) || len(toolCalls) != 0 {
		t.Fatalf("nodes %v, tool calls %v: the run should end after asking", r.nodes, toolCalls)
	}
	if lastAI(r.state) != "Para onde você gostaria de ir?" {
		t.Fatalf("asked %q", lastAI(r.state))
	}
}

func TestPhotoQuestionNeedsNoDestination(t *testing.T) {
	var toolCalls []string
	m := &scripted{replies: []llms.ContentChoice{
		calls("extract", `{"intent":"photos","language":"pt"}`),
		calls("searchPhotosAcrossAlbums", `{"query":"aniversário da Vivi"}`),
		text("Encontrei 1 foto."),
	}}
	r := runTurn(t, newPlanner(t, m, testTools(&toolCalls)), testThread, "mostre fotos do aniversário da Vivi")
	if !slices.Equal(r.nodes, []string{NodeExtraction, NodeCallTools}) {
		t.Fatalf("nodes = %v", r.nodes)
	}
	if r.state.TripDetails != nil || strings.Contains(lastAI(r.state), "Para onde") {
		t.Fatalf("a photo question was treated as a trip: %+v", r.state)
	}
	if !slices.Equal(r.ui, []string{card.Photos}) {
		t.Fatalf("ui = %v", r.ui)
	}
}

func TestChangeOfPlansReExtracts(t *testing.T) {
	var toolCalls []string
	m := &scripted{replies: []llms.ContentChoice{
		calls("extract", `{"location":"Lisbon","intent":"accommodations","language":"en"}`),
		calls("list-accommodations", `{"location":"Lisbon"}`),
		text("Lisbon it is."),
		calls("classify", `{"isRelevant":false}`),
		calls("extract", `{"location":"Porto","intent":"accommodations","language":"en"}`),
		calls("list-accommodations", `{"location":"Porto"}`),
		text("Porto it is."),
		calls("classify", `{"isRelevant":true}`),
		calls("list-restaurants", `{"location":"Porto"}`),
		text("And where to eat."),
	}}
	g := newPlanner(t, m, testTools(&toolCalls))
	runTurn(t, g, testThread, "hotels in Lisbon")
	r := runTurn(t, g, testThread, "actually make it Porto")
	if !slices.Equal(r.nodes, []string{NodeClassify, NodeExtraction, NodeCallTools}) || r.state.TripDetails.Location != "Porto" {
		t.Fatalf("nodes %v, trip %+v", r.nodes, r.state.TripDetails)
	}
	r = runTurn(t, g, testThread, "and restaurants?")
	if !slices.Equal(r.nodes, []string{NodeClassify, NodeCallTools}) || r.state.TripDetails.Location != "Porto" {
		t.Fatalf("nodes %v, trip %+v", r.nodes, r.state.TripDetails)
	}
	if got := m.asked[7].choice.(llms.ToolChoice).Function.Name; got != "classify" {
		t.Fatalf("classify was not forced: %v", got)
	}
	if n := len(r.state.Messages); n != 6 {
		t.Fatalf("after three turns the thread has %d messages, want 6", n)
	}
}

func TestNoToolCalledGetsAHelpfulAnswer(t *testing.T) {
	var toolCalls []string
	m := &scripted{replies: []llms.ContentChoice{
		calls("extract", `{"intent":"photos","language":"en"}`),
		text(""),
	}}
	r := runTurn(t, newPlanner(t, m, testTools(&toolCalls)), testThread, "what can you do with my photos?")
	if !strings.Contains(lastAI(r.state), "I can help you find places to stay") {
		t.Fatalf("answer = %q", lastAI(r.state))
	}
}

func TestToolErrorIsShownAndToldToTheModel(t *testing.T) {
	var toolCalls []string
	m := &scripted{replies: []llms.ContentChoice{
		calls("extract", `{"intent":"photos","language":"en"}`),
		calls("getAlbumByName", `{"name":"Mars"}`),
		text("You have no album called Mars."),
	}}
	r := runTurn(t, newPlanner(t, m, testTools(&toolCalls)), testThread, "stats of my Mars trip")
	var props AlbumListProps
	json.Unmarshal(r.state.UI[0].Props, &props)
	if props.Error == nil || props.Error.Code != "NOT_FOUND" {
		t.Fatalf("component props = %s", r.state.UI[0].Props)
	}
	told := m.asked[2].messages[len(m.asked[2].messages)-1].Parts[0].(llms.ToolCallResponse).Content
	if !strings.Contains(told, `"code":"NOT_FOUND"`) {
		t.Fatalf("the model was told %s", told)
	}
}

func TestAlbumThenAlbumTool(t *testing.T) {
	var toolCalls []string
	m := &scripted{replies: []llms.ContentChoice{
		calls("extract", `{"intent":"photos","language":"en"}`),
		calls("getAlbumByName", `{"name":"Japan"}`),
		calls("getTripStats", `{"albumId":"al1"}`),
		text("Your Japan trip: 120 photos over 12 days."),
	}}
	r := runTurn(t, newPlanner(t, m, testTools(&toolCalls)), testThread, "stats of my Japan trip")
	if !slices.Equal(r.ui, []string{card.Albums, card.TripStats}) {
		t.Fatalf("ui = %v", r.ui)
	}
	if !slices.Equal(toolCalls, []string{`getAlbumByName {"name":"Japan"}`, `getTripStats {"albumId":"al1"}`}) {
		t.Fatalf("tool calls = %v", toolCalls)
	}
}

func TestToolStepsAreLimited(t *testing.T) {
	var toolCalls []string
	replies := []llms.ContentChoice{calls("extract", `{"intent":"photos","language":"en"}`)}
	for range MaxToolSteps + 2 {
		replies = append(replies, calls("searchPhotosAcrossAlbums", `{"query":"beach"}`))
	}
	m := &scripted{replies: replies}
	r := runTurn(t, newPlanner(t, m, testTools(&toolCalls)), testThread, "beach photos")
	if len(toolCalls) != MaxToolSteps {
		t.Fatalf("%d tool calls, want %d", len(toolCalls), MaxToolSteps)
	}
	if lastAI(r.state) != "Here is what I found." {
		t.Fatalf("answer = %q", lastAI(r.state))
	}
}

func TestBuildNeedsModelAndTools(t *testing.T) {
	if _, err := Build(Deps{}); err == nil {
		t.Fatal("Build without a model succeeded")
	}
}

// testThread is the thread the tests' conversations run on.
var testThread = uuid.NewString()

// bound is the planner on d for the traveller tr, saving with cp (a new
// MemorySaver when nil).
func bound(d Deps, tr Traveller, cp graph.Checkpointer) (*Graph, error) {
	p, err := Build(d)
	if err != nil {
		return nil, err
	}
	if cp == nil {
		cp = graph.NewMemorySaver()
	}
	return p.For(tr, cp), nil
}

// cardOf is the card of each tool of our server the tests' tools stand
// for, as its registration names it.
var cardOf = map[string]string{
	"list-accommodations": card.Accommodations, "get-accommodation": card.Accommodations,
	"book-accommodation": card.BookingConfirmation, "list-restaurants": card.Restaurants,
	"getUserAlbums": card.Albums, "getAlbumByName": card.Albums, "getAlbumPhotos": card.Photos,
	"getPhotosByDate": card.Photos, "getPhotosByLocation": card.Photos, "searchPhotosAcrossAlbums": card.Photos,
	"getTripStats": card.TripStats,
}
