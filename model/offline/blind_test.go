package offline

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms"
	"github.com/tripgraph/tripgraph/textfold"
)

// blindToday is the clock of testdata/blind.jsonl: a Wednesday.
const blindToday = "2027-03-10"

// finalFloors are the blind set's final scores (rounded down): TestBlind
// and TestCorpus fail below them.
var finalFloors = map[string]float64{
	"location": 1.0, "dates": 0.994, "guests": 0.989, "intent+tools": 0.983, "album": 0.968, "off-topic": 0.90,
	"not refused": 1.0, // no harmless message is refused, in any set
}

// blindFloors are the accuracies below which TestBlind fails.
var blindFloors = finalFloors

// blindLabels are the labels scored, in the order they are reported. A
// label applies to the cases that carry it: album to those with a chain of
// album calls, off-topic to the off-topic ones, legs to trips of several
// cities, wishes to those with a price cap or wishes for the stay,
// injection to attempts to change the assistant's instructions, and "not
// refused" to every other case. "whole" is a case with every label that
// applies to it right.
var blindLabels = []string{"location", "dates", "guests", "intent+tools", "album", "off-topic", "legs", "wishes", "injection", "not refused", "whole"}

// blindCase is one labelled request of the blind set. Want.Calls, when
// present, is the whole chain of album tool calls with their arguments.
type blindCase struct {
	ID    string   `json:"id"`
	Lang  string   `json:"lang"`
	Cat   string   `json:"cat"`
	Turns []string `json:"turns"`
	Want  struct {
		Location       string     `json:"location"`
		StartDate      string     `json:"startDate"`
		EndDate        string     `json:"endDate"`
		Nights         int        `json:"nights"`
		NumberOfGuests int        `json:"numberOfGuests"`
		Intent         string     `json:"intent"`
		Tools          []string   `json:"tools"`
		Calls          []wantCall `json:"calls"`
		Query          string     `json:"query"`
		Legs           []wantLeg  `json:"legs"`
		Injection      bool       `json:"injection"`
		MaxPrice       float64    `json:"maxPrice"`
		Currency       string     `json:"currency"`
		Per            string     `json:"per"` // "night" or "total"
		Amenities      []string   `json:"amenities"`
		Ack            []string   `json:"ack"` // words of which the reply says one: a price level or kind of stay asked for
	} `json:"want"`
}

// wantLeg is one city of a trip of several, with its own dates.
type wantLeg struct {
	Location  string `json:"location"`
	StartDate string `json:"startDate"`
	EndDate   string `json:"endDate"`
}

type wantCall struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

// blindAlbumID is the id every album found in the blind set's simulated
// getAlbumByName results has.
const blindAlbumID = "alb-1"

func loadCases(t testing.TB, path string) []blindCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	defer f.Close()
	var cases []blindCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c blindCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s line %d: %v", path, len(cases)+1, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return cases
}

// TestBlind scores the offline model on the blind set: requests written
// and labelled by hand before the parser was improved, and never tuned
// against. It prints accuracy per label and language.
func TestBlind(t *testing.T) {
	m, err := New()
	if err != nil {
		t.Fatal(err)
	}
	scoreSet(t, m, loadCases(t, "testdata/blind.jsonl"), blindToday, blindFloors)
}

// scoreSet scores every case and reports accuracy per label and language.
func scoreSet(t *testing.T, m *Model, cases []blindCase, today string, floors map[string]float64) {
	ok := map[string]map[string]int{}
	total := map[string]map[string]int{}
	for _, l := range blindLabels {
		ok[l], total[l] = map[string]int{}, map[string]int{}
	}
	for _, c := range cases {
		whole := true
		for l, pass := range scoreCase(t, m, c, today) {
			total[l][c.Lang]++
			if pass {
				ok[l][c.Lang]++
			}
			whole = whole && pass
		}
		total["whole"][c.Lang]++
		if whole {
			ok["whole"][c.Lang]++
		}
	}
	scoreReport(t, ok, total, floors)
}

// scoreCase runs one case and says, per label that applies, whether the
// model got it right.
func scoreCase(t *testing.T, m *Model, c blindCase, today string) map[string]bool {
	w := c.Want
	got := blindExtract(t, m, c.Turns, today)
	chain, reply := blindChain(t, m, c, today)
	first := firstStep(chain)
	names := []string{}
	for _, call := range first {
		names = append(names, call.Name)
	}
	slices.Sort(names)
	want := slices.Clone(w.Tools)
	slices.Sort(want)
	res := map[string]bool{
		"location":     got.Location == w.Location,
		"dates":        got.StartDate == w.StartDate && got.EndDate == w.EndDate && got.Nights == w.Nights,
		"guests":       got.NumberOfGuests == w.NumberOfGuests,
		"intent+tools": got.Intent == w.Intent && slices.Equal(names, want) && (w.Query == "" || searched(chain) == w.Query),
	}
	if w.Calls != nil {
		res["album"] = got.Intent == "photos" && sameCalls(chain, w.Calls)
	}
	if c.Cat == "offtopic" {
		res["off-topic"] = got.Intent == "other" && len(chain) == 0 && reply != "" && replyLanguage(reply) == c.Lang && !asksDestination(reply)
	}
	if len(w.Legs) > 0 {
		res["legs"] = sameLegs(got.Legs, w.Legs) && legCalls(first, w.Legs)
	}
	if w.MaxPrice > 0 || len(w.Amenities) > 0 || len(w.Ack) > 0 {
		res["wishes"] = capped(first, w.MaxPrice, w.Currency, w.Per) && acknowledged(reply, w.Amenities) && saysOneOf(reply, w.Ack)
	}
	if w.Injection {
		res["injection"] = got.Intent == "other" && len(chain) == 0 && refusal(reply) && replyLanguage(reply) == c.Lang
	} else {
		res["not refused"] = !refusal(reply)
	}
	for l, pass := range res {
		if !pass {
			t.Logf("%s %-12s %q\n\tgot  %+v calls=%v reply=%q\n\twant %+v", c.ID, l, c.Turns, got, chain, reply, w)
		}
	}
	return res
}

// firstStep is the first step of a chain: the catalog calls made together,
// or the first album call.
func firstStep(chain []gotCall) []gotCall {
	var first []gotCall
	for _, call := range chain {
		if len(first) > 0 && !isTripTool(call.Name) {
			break
		}
		first = append(first, call)
		if !isTripTool(call.Name) {
			break
		}
	}
	return first
}

// asksDestination reports a reply that asks where to go: no answer to a
// question that is not about travel.
func asksDestination(reply string) bool {
	return strings.Contains(reply, "Where would you like") || strings.Contains(reply, "Para onde você")
}

// refusal reports a reply that refuses to change the assistant's
// instructions: it says so, in either language.
func refusal(reply string) bool {
	r := strings.ToLower(reply)
	return strings.Contains(r, "instruction") || strings.Contains(r, "instruç") || strings.Contains(r, "instruc")
}

// sameLegs compares the legs of a trip of several cities, in order.
func sameLegs(got, want []wantLeg) bool {
	return slices.Equal(got, want)
}

// legCalls reports whether the first step searches each leg: every
// catalog tool called names a leg's city (and, for stays, its dates), and
// each leg is searched by each tool called.
func legCalls(first []gotCall, legs []wantLeg) bool {
	count := map[string]int{}
	for _, call := range first {
		if !isTripTool(call.Name) {
			return false
		}
		loc, _ := call.Args["location"].(string)
		i := slices.IndexFunc(legs, func(l wantLeg) bool {
			return loc == l.Location || strings.HasPrefix(loc, l.Location+",")
		})
		if i < 0 {
			return false
		}
		if call.Name == toolAccommodations && legs[i].StartDate != "" && (call.Args["startDate"] != legs[i].StartDate || call.Args["endDate"] != legs[i].EndDate) {
			return false
		}
		count[call.Name+" "+legs[i].Location]++
	}
	for name := range count {
		tool, _, _ := strings.Cut(name, " ")
		for _, l := range legs {
			if count[tool+" "+l.Location] != 1 {
				return false
			}
		}
	}
	return len(first) > 0
}

// capped reports whether the stays searched keep to the price cap asked
// for: maxNightlyPrice or maxTotalPrice, in the currency written.
func capped(first []gotCall, price float64, currency, per string) bool {
	for _, call := range first {
		if call.Name != toolAccommodations {
			continue
		}
		if price == 0 {
			return call.Args["maxNightlyPrice"] == nil && call.Args["maxTotalPrice"] == nil
		}
		key := "maxNightlyPrice"
		if per == "total" {
			key = "maxTotalPrice"
		}
		return call.Args[key] == price && call.Args["currency"] == currency
	}
	return false
}

// amenityWords are how a reply may name each wish the catalog cannot
// filter by, in English or Portuguese.
var amenityWords = map[string][]string{
	"pool":    {"pool", "piscina"},
	"pets":    {"pet", "dog", "animal", "cachorro", "cão"},
	"kitchen": {"kitchen", "cozinha"},
	"parking": {"parking", "estacionamento"},
	"beach":   {"beach", "praia"},
}

// acknowledged reports whether the reply names every wish.
func acknowledged(reply string, wishes []string) bool {
	r := strings.ToLower(reply)
	for _, w := range wishes {
		if !slices.ContainsFunc(amenityWords[w], func(s string) bool { return strings.Contains(r, s) }) {
			return false
		}
	}
	return true
}

// saysOneOf reports whether the reply has one of the words, or there
// are none.
func saysOneOf(reply string, words []string) bool {
	r := strings.ToLower(reply)
	return len(words) == 0 || slices.ContainsFunc(words, func(w string) bool { return strings.Contains(r, w) })
}

// searched is the query of the first photo search of a chain.
func searched(chain []gotCall) string {
	for _, c := range chain {
		if c.Name == toolSearchPhotos {
			q, _ := c.Args["query"].(string)
			return q
		}
	}
	return ""
}

func isTripTool(name string) bool { return name == toolAccommodations || name == toolRestaurants }

// gotExtract is an extract call's arguments as the scorer reads them.
type gotExtract struct {
	extractArgsJSON
	Legs []wantLeg `json:"legs"`
}

func blindExtract(t *testing.T, m *Model, turns []string, today string) gotExtract {
	t.Helper()
	resp, err := m.GenerateContent(context.Background(),
		conversationOf("Extract the trip details.\nToday: "+today, turns),
		llms.WithTools([]llms.Tool{toolDef("extract")}),
		llms.WithToolChoice(llms.ToolChoice{Type: "function", Function: &llms.FunctionReference{Name: "extract"}}))
	if err != nil || len(resp.Choices[0].ToolCalls) != 1 {
		t.Fatalf("extract call for %q: %v, %+v", turns, err, resp)
	}
	var args gotExtract
	if err := json.Unmarshal([]byte(resp.Choices[0].ToolCalls[0].FunctionCall.Arguments), &args); err != nil {
		t.Fatalf("extract arguments: %v", err)
	}
	return args
}

type gotCall struct {
	Name string
	Args map[string]any
}

func (g gotCall) String() string { return fmt.Sprintf("%s%v", g.Name, g.Args) }

// blindChain runs the callTools loop as the nodes do, with every tool
// offered, answering each album tool with a small plausible result, and
// returns every call made and the final text. Trip tools end the chain
// after their first step, which is the one scored, unless the case has
// wishes: then they are answered, for the reply.
func blindChain(t *testing.T, m *Model, c blindCase, today string) ([]gotCall, string) {
	t.Helper()
	system := "Pick the tools.\nToday: " + today
	if w := c.Want; w.Location != "" && (w.Intent == "trip" || w.Intent == "accommodations" || w.Intent == "restaurants") {
		td := map[string]any{"location": w.Location, "startDate": w.StartDate, "endDate": w.EndDate, "numberOfGuests": w.NumberOfGuests}
		if len(w.Legs) > 0 {
			td["legs"] = w.Legs
		}
		system += "\nTrip details: " + mustJSON(td)
	}
	wishes := c.Want.MaxPrice > 0 || len(c.Want.Amenities) > 0 || len(c.Want.Ack) > 0
	var tools []llms.Tool
	for _, n := range allTools {
		tools = append(tools, toolDef(n))
	}
	msgs := conversationOf(system, c.Turns)
	var chain []gotCall
	for step := 0; step < 5; step++ {
		resp, err := m.GenerateContent(context.Background(), msgs, llms.WithTools(tools))
		if err != nil {
			t.Fatalf("tool step for %s: %v", c.ID, err)
		}
		ch := resp.Choices[0]
		if len(ch.ToolCalls) == 0 {
			return chain, ch.Content
		}
		ai := llms.MessageContent{Role: llms.ChatMessageTypeAI}
		var answers []llms.MessageContent
		trip := false
		for _, tc := range ch.ToolCalls {
			var args map[string]any
			json.Unmarshal([]byte(tc.FunctionCall.Arguments), &args)
			chain = append(chain, gotCall{tc.FunctionCall.Name, args})
			trip = trip || isTripTool(tc.FunctionCall.Name)
			ai.Parts = append(ai.Parts, tc)
			answers = append(answers, llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: tc.ID, Name: tc.FunctionCall.Name, Content: blindResult(tc.FunctionCall.Name, args)}}})
		}
		if trip && (!wishes || step > 0) {
			return chain, ""
		}
		msgs = append(append(msgs, ai), answers...)
	}
	return chain, ""
}

// blindResult is what the simulated album tools answer.
func blindResult(name string, args map[string]any) string {
	switch name {
	case toolAlbumByName:
		// The album is found by its description, as the real tool also
		// finds albums, and as one named in another language is found
		// ("Londres" finds "London 2023"): its name never contains the
		// name asked for, so a search for a term goes on across albums.
		return fmt.Sprintf(`{"albums":[{"id":%q,"name":"Trip","description":%q,"startDate":"2024-05-10","endDate":"2024-05-16","photoCount":3}]}`, blindAlbumID, fmt.Sprint("photos of ", args["name"]))
	case toolUserAlbums:
		return `{"albums":[{"id":"a1","name":"Lisboa 2024","startDate":"2024-05-10","endDate":"2024-05-16","photoCount":40},{"id":"a2","name":"Japan","startDate":"2022-04-01","endDate":"2022-04-12","photoCount":90}]}`
	case toolTripStats:
		return `{"albumId":"alb-1","name":"Trip","totalPhotos":3,"locations":[{"name":"Centro","count":3}],"startDate":"2024-05-10","endDate":"2024-05-16","days":7}`
	case toolAccommodations:
		return `{"accommodations":[{"id":"s1","name":"Casa Azul","kind":"hotel","nightlyPrice":90,"currency":"EUR"},` +
			`{"id":"s2","name":"Bunk Inn","kind":"hostel","nightlyPrice":25,"currency":"EUR"}],"total":2}`
	case toolRestaurants:
		return `{"restaurants":[{"id":"r1","name":"Tasca","cuisine":"Portuguese"}],"total":1}`
	}
	return `{"photos":[{"id":"p1","albumId":"alb-1","albumName":"Trip","description":"Vivi na praia","locationName":"Centro","takenAt":"2024-05-12"}],"total":1}`
}

func sameCalls(got []gotCall, want []wantCall) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].Name != want[i].Name || !sameArgs(got[i].Args, want[i].Args) {
			return false
		}
	}
	return true
}

// sameArgs compares arguments, names case-insensitively.
func sameArgs(got, want map[string]any) bool {
	if len(got) != len(want) {
		return false
	}
	for _, k := range slices.Collect(maps.Keys(want)) {
		g, gs := got[k].(string)
		w, ws := want[k].(string)
		if found, ok := strings.CutPrefix(w, "~"); gs && ws && ok {
			// A search term that finds the caption word: "penguins"
			// may search "pinguins", or "pingui".
			if len([]rune(strings.TrimSpace(g))) < 3 || !textfold.Matches(found, g) {
				return false
			}
			continue
		}
		if gs && ws {
			if !strings.EqualFold(strings.TrimSpace(g), w) {
				return false
			}
			continue
		}
		if !reflect.DeepEqual(got[k], want[k]) {
			return false
		}
	}
	return true
}

// replyLanguage tells English from Portuguese replies by a few common
// words of each, independently of the model's own detector.
func replyLanguage(text string) string {
	pt, en := 0, 0
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !('a' <= r && r <= 'z' || r >= 0xc0) }) {
		switch w {
		case "você", "posso", "não", "para", "de", "com", "sua", "seu", "suas", "seus", "ou", "e", "que", "uma", "um", "eu", "mas", "também", "viagem", "hospedagem":
			pt++
		case "you", "can", "i", "your", "to", "for", "or", "and", "the", "with", "a", "but", "trip", "stay", "help":
			en++
		}
	}
	switch {
	case pt > en:
		return "pt"
	case en > pt:
		return "en"
	}
	return ""
}

func scoreReport(t *testing.T, ok, total map[string]map[string]int, floors map[string]float64) {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-14s %14s %14s %14s   floor\n", "label", "en", "pt", "all")
	pct := func(o, n int) string {
		if n == 0 {
			return "-"
		}
		return fmt.Sprintf("%5.1f%% (%d/%d)", 100*float64(o)/float64(n), o, n)
	}
	for _, l := range blindLabels {
		o, n := ok[l]["en"]+ok[l]["pt"], total[l]["en"]+total[l]["pt"]
		if n == 0 {
			continue
		}
		fmt.Fprintf(&b, "%-14s %14s %14s %14s   %.1f%%\n", l, pct(ok[l]["en"], total[l]["en"]), pct(ok[l]["pt"], total[l]["pt"]), pct(o, n), 100*floors[l])
		if n > 0 && float64(o)/float64(n) < floors[l] {
			t.Errorf("%s accuracy %.1f%% is below the floor of %.1f%%", l, 100*float64(o)/float64(n), 100*floors[l])
		}
	}
	t.Log(b.String())
	fmt.Print(b.String())
}

// typedToday is the clock of testdata/typed.jsonl: a Thursday.
const typedToday = "2027-08-19"

// typedFloors are the typed blind set's final scores (rounded down), below
// which TestBlindTyped fails; the targets were location 97%, dates
// 93%, guests 95%, intent+tools 95%, history (album) 90%, legs 90%,
// injection 90% with no harmless message refused.
var typedFloors = map[string]float64{
	"location": 0.979, "dates": 0.971, "guests": 0.995, "intent+tools": 0.975, "album": 0.952, "off-topic": 1.0,
	"legs": 0.95, "wishes": 1.0, "injection": 1.0, "not refused": 1.0, "whole": 0.938,
}

// TestBlindTyped scores the offline model on the typed blind set:
// requests written as travellers really type (misspellings,
// abbreviations, several places, corrections, several cities, injection
// and its harmless look-alikes), labelled by hand before the model was
// changed for them, and never tuned against.
func TestBlindTyped(t *testing.T) {
	m, err := New()
	if err != nil {
		t.Fatal(err)
	}
	scoreSet(t, m, loadCases(t, "testdata/typed.jsonl"), typedToday, typedFloors)
}
