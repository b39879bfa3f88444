package offline

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms"
)

// corpusToday is the fixed clock of testdata/requests.jsonl: a Saturday.
const corpusToday = "2026-11-21"

// floors are the accuracies below which TestCorpus fails.
var floors = map[string]float64{"location": 0.97, "dates": 0.90, "guests": 0.97, "intent+tools": 0.97}

var labels = []string{"location", "dates", "guests", "intent+tools"}

type corpusCase struct {
	ID    string   `json:"id"`
	Lang  string   `json:"lang"`
	Turns []string `json:"turns"`
	Want  struct {
		Location       string   `json:"location"`
		StartDate      string   `json:"startDate"`
		EndDate        string   `json:"endDate"`
		Nights         int      `json:"nights"`
		NumberOfGuests int      `json:"numberOfGuests"`
		Intent         string   `json:"intent"`
		Tools          []string `json:"tools"`
		Query          string   `json:"query"`
	} `json:"want"`
}

func loadCorpus(t testing.TB) []corpusCase {
	t.Helper()
	f, err := os.Open("../../testdata/requests.jsonl")
	if err != nil {
		t.Fatalf("opening corpus: %v", err)
	}
	defer f.Close()
	var cases []corpusCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("corpus line %d: %v", len(cases)+1, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading corpus: %v", err)
	}
	return cases
}

// conversationOf builds the messages the nodes would send: a system
// prompt, then the user's turns with short assistant replies between.
func conversationOf(system string, turns []string) []llms.MessageContent {
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, system)}
	for i, t := range turns {
		if i > 0 {
			msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeAI, "OK."))
		}
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, t))
	}
	return msgs
}

func toolDef(name string) llms.Tool {
	return llms.Tool{Type: "function", Function: &llms.FunctionDefinition{Name: name}}
}

var allTools = []string{toolAccommodations, toolRestaurants, toolUserAlbums, toolAlbumByName, toolAlbumPhotos, toolPhotosByDate, toolPhotosByPlace, toolSearchPhotos, toolTripStats}

func extractCall(t testing.TB, m *Model, turns []string) extractArgsJSON {
	t.Helper()
	resp, err := m.GenerateContent(context.Background(),
		conversationOf("Extract the trip details.\nToday: "+corpusToday, turns),
		llms.WithTools([]llms.Tool{toolDef("extract")}),
		llms.WithToolChoice(llms.ToolChoice{Type: "function", Function: &llms.FunctionReference{Name: "extract"}}))
	if err != nil || len(resp.Choices[0].ToolCalls) != 1 {
		t.Fatalf("extract call for %q: %v, %+v", turns, err, resp)
	}
	var args extractArgsJSON
	if err := json.Unmarshal([]byte(resp.Choices[0].ToolCalls[0].FunctionCall.Arguments), &args); err != nil {
		t.Fatalf("extract arguments: %v", err)
	}
	return args
}

// toolStep runs the callTools step with a Trip details line built from
// the labels, and returns the tools called and the search query.
func toolStep(t testing.TB, m *Model, c corpusCase) ([]string, string) {
	t.Helper()
	system := "Pick the tools.\nToday: " + corpusToday
	if c.Want.Location != "" && c.Want.Intent != "photos" {
		td, _ := json.Marshal(TripDetails{Location: c.Want.Location, StartDate: c.Want.StartDate, EndDate: c.Want.EndDate, NumberOfGuests: c.Want.NumberOfGuests})
		system += "\nTrip details: " + string(td)
	}
	var tools []llms.Tool
	for _, n := range allTools {
		tools = append(tools, toolDef(n))
	}
	resp, err := m.GenerateContent(context.Background(), conversationOf(system, c.Turns), llms.WithTools(tools))
	if err != nil {
		t.Fatalf("tool step for %s: %v", c.ID, err)
	}
	var names []string
	query := ""
	for _, tc := range resp.Choices[0].ToolCalls {
		names = append(names, tc.FunctionCall.Name)
		if tc.FunctionCall.Name == toolSearchPhotos {
			var a struct{ Query string }
			json.Unmarshal([]byte(tc.FunctionCall.Arguments), &a)
			query = a.Query
		}
	}
	return names, query
}

func TestCorpus(t *testing.T) {
	m, err := New()
	if err != nil {
		t.Fatal(err)
	}
	cases := loadCorpus(t)
	ok := map[string]map[string]int{} // label → lang → correct
	total := map[string]int{}
	for _, l := range labels {
		ok[l] = map[string]int{}
	}
	for _, c := range cases {
		total[c.Lang]++
		got := extractCall(t, m, c.Turns)
		w := c.Want
		tools, query := toolStep(t, m, c)
		slices.Sort(tools)
		want := slices.Clone(w.Tools)
		slices.Sort(want)
		results := map[string]bool{
			"location":     got.Location == w.Location,
			"dates":        got.StartDate == w.StartDate && got.EndDate == w.EndDate && got.Nights == w.Nights,
			"guests":       got.NumberOfGuests == w.NumberOfGuests,
			"intent+tools": got.Intent == w.Intent && slices.Equal(tools, want) && (w.Query == "" || query == w.Query),
		}
		for _, l := range labels {
			if results[l] {
				ok[l][c.Lang]++
			} else {
				t.Logf("%s %-12s %q\n\tgot  %+v tools=%v query=%q\n\twant %+v", c.ID, l, c.Turns, got, tools, query, w)
			}
		}
	}
	report(t, ok, total)
}

func report(t *testing.T, ok map[string]map[string]int, total map[string]int) {
	n := total["en"] + total["pt"]
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-14s %8s %8s %8s   floor\n", "label", "en", "pt", "all")
	for _, l := range labels {
		all := float64(ok[l]["en"]+ok[l]["pt"]) / float64(n)
		fmt.Fprintf(&b, "%-14s %7.1f%% %7.1f%% %7.1f%%   %.0f%%\n", l,
			100*float64(ok[l]["en"])/float64(total["en"]), 100*float64(ok[l]["pt"])/float64(total["pt"]), 100*all, 100*floors[l])
		if all < floors[l] {
			t.Errorf("%s accuracy %.1f%% is below the floor of %.0f%%", l, 100*all, 100*floors[l])
		}
	}
	fmt.Fprintf(&b, "(%d requests: %d en, %d pt)\n", n, total["en"], total["pt"])
	t.Log(b.String())
	fmt.Print(b.String())
}
