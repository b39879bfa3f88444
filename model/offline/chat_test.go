package offline

import "testing"

// chatToday is the clock of testdata/chat.jsonl: a Saturday, so that
// "this weekend" is the one under way.
const chatToday = "2027-06-12"

// chatFloors are the chat set's scores after the model was changed for
// the kinds of failure it showed (rounded down), below which TestChatSet
// fails; its first scores are in BENCH.md.
var chatFloors = map[string]float64{
	"location": 0.995, "dates": 0.975, "guests": 0.995, "intent+tools": 1.0, "album": 1.0, "off-topic": 1.0,
	"legs": 1.0, "wishes": 1.0, "injection": 1.0, "not refused": 1.0, "whole": 0.97,
}

// TestChatSet scores the offline model on the chat set: 208 messages
// (104 English, 104 Brazilian Portuguese) typed as in a travel chat —
// lower case, no accents, abbreviations, rambles that tell of a trip
// that was beside the one to come, several cities, corrections in a
// follow-up, budgets and kinds of stay, questions about past trips,
// questions off the trip, small talk and attempts on the instructions —
// written and labelled by hand before the model was run on them.
func TestChatSet(t *testing.T) {
	m, err := New()
	if err != nil {
		t.Fatal(err)
	}
	scoreSet(t, m, loadCases(t, "testdata/chat.jsonl"), chatToday, chatFloors)
}
