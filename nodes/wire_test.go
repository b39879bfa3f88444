package nodes

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms/openai"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/testing/openaitest"
)

// The planner on langchaingo's real OpenAI client, against a local server
// that speaks the Chat Completions wire format.
func TestOnTheOpenAIWire(t *testing.T) {
	srv := openaitest.New(
		// Turn 1: extraction, then one streamed tool call, then the answer.
		openaitest.Reply{ToolCalls: []openaitest.ToolCall{{ID: "call_x", Name: "extract",
			Arguments: `{"location":"Lisbon","startDate":"2027-05-01","nights":4,"numberOfGuests":3,"intent":"accommodations","language":"en"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.ToolCall{{ID: "call_a", Name: "list-accommodations",
			Arguments: `{"location":"Lisbon","startDate":"2027-05-01","endDate":"2027-05-05","guests":3}`}}},
		openaitest.Reply{Content: "Here are places to stay in Lisbon."},
		// Turn 2: classify, then two tool steps, then the answer.
		openaitest.Reply{ToolCalls: []openaitest.ToolCall{{ID: "call_c", Name: "classify", Arguments: `{"isRelevant":true}`}}},
		openaitest.Reply{ToolCalls: []openaitest.ToolCall{{ID: "call_b", Name: "getAlbumByName", Arguments: `{"name":"Japan"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.ToolCall{{ID: "call_s", Name: "getTripStats", Arguments: `{"albumId":"al1"}`}}},
		openaitest.Reply{Content: "Your Japan trip had 120 photos."},
	)
	defer srv.Close()
	llm, err := openai.New(openai.WithBaseURL(srv.URL), openai.WithToken("test-key"), openai.WithModel("gpt-test"))
	if err != nil {
		t.Fatal(err)
	}
	var toolCalls []string
	tools := testTools(&toolCalls)
	g := newPlanner(t, llm, tools)

	first := runTurn(t, g, testThread, "4 nights in Lisbon from May 1st, 3 of us")
	want := TripDetails{Location: "Lisbon", StartDate: "2027-05-01", EndDate: "2027-05-05", NumberOfGuests: 3}
	if first.state.TripDetails == nil || !first.state.TripDetails.Equal(want) {
		t.Fatalf("trip details = %+v, want %+v", first.state.TripDetails, want)
	}
	if first.tokens != "Here are places to stay in Lisbon." {
		t.Fatalf("streamed text = %q: tool-call JSON must not leak into it", first.tokens)
	}

	second := runTurn(t, g, testThread, "and what are the stats of my Japan trip?")
	if !slices.Equal(second.nodes, []string{NodeClassify, NodeCallTools}) {
		t.Fatalf("second turn ran %v", second.nodes)
	}
	if !slices.Equal(second.ui, []string{card.Albums, card.TripStats}) || second.tokens != "Your Japan trip had 120 photos." {
		t.Fatalf("second turn: ui %v, streamed %q", second.ui, second.tokens)
	}
	if second.state.TripDetails == nil || second.state.TripDetails.Location != "Lisbon" {
		t.Fatal("a relevant follow-up lost the trip details")
	}

	reqs := srv.Requests()
	if len(reqs) != 7 {
		t.Fatalf("the server got %d requests, want 7", len(reqs))
	}
	allTools := []string{"list-accommodations", "list-restaurants", "searchPhotosAcrossAlbums", "getAlbumByName", "getTripStats"}
	checks := []struct {
		req        int
		tools      []string
		forced     string
		stream     bool
		lastRole   string
		lastHasStr string
	}{
		{0, []string{"extract"}, "extract", false, "user", "4 nights in Lisbon"},
		{1, allTools, "", true, "user", "4 nights in Lisbon"},
		{2, allTools, "", true, "tool", "Casa Azul"},
		{3, []string{"classify"}, "classify", false, "user", "stats of my Japan trip"},
		{5, allTools, "", true, "tool", `Japan 2024`},
		{6, allTools, "", true, "tool", `totalPhotos`},
	}
	for _, c := range checks {
		r := reqs[c.req]
		if !slices.Equal(r.ToolNames(), c.tools) || r.Stream != c.stream {
			t.Errorf("request %d offered %v (stream %v), want %v (stream %v)", c.req, r.ToolNames(), r.Stream, c.tools, c.stream)
		}
		if c.forced != "" && !strings.Contains(string(r.ToolChoice), `"name":"`+c.forced+`"`) {
			t.Errorf("request %d tool_choice = %s, want %s forced", c.req, r.ToolChoice, c.forced)
		}
		var last struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
		}
		json.Unmarshal(r.Messages[len(r.Messages)-1], &last)
		if last.Role != c.lastRole || !strings.Contains(string(r.Messages[len(r.Messages)-1]), c.lastHasStr) {
			t.Errorf("request %d's last message is %s, want role %s containing %q", c.req, r.Messages[len(r.Messages)-1], c.lastRole, c.lastHasStr)
		}
		var first struct {
			Role string `json:"role"`
		}
		json.Unmarshal(r.Messages[0], &first)
		if first.Role != "system" {
			t.Errorf("request %d starts with role %q, want system", c.req, first.Role)
		}
	}
	// The tool results go back with the ids of the calls they answer, after
	// the assistant message that made the calls.
	msgs := reqs[6].Messages
	if !strings.Contains(string(msgs[len(msgs)-1]), `"tool_call_id":"call_s"`) ||
		!strings.Contains(string(msgs[len(msgs)-2]), `"tool_calls"`) {
		t.Errorf("the tool exchange was not sent back properly:\n%s\n%s", msgs[len(msgs)-2], msgs[len(msgs)-1])
	}
}
