package offline

import (
	"testing"

	"github.com/tmc/langchaingo/llms"
)

// corpusToday is the fixed clock of testdata/requests.jsonl: a Saturday.
const corpusToday = "2026-11-21"

// floors are the accuracies below which TestCorpus fails.
var floors = finalFloors

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

func TestCorpus(t *testing.T) {
	m, err := New()
	if err != nil {
		t.Fatal(err)
	}
	scoreSet(t, m, loadCases(t, "../../testdata/requests.jsonl"), corpusToday, floors)
}
