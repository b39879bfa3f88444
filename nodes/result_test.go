package nodes

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/uuid"
	"github.com/tmc/langchaingo/llms"
)

// reducing answers like its tools, and gives the model a stand-in.
type reducing struct{ FuncTools }

const standIn = `{"summary":"too large to show whole"}`

func (r reducing) Call(ctx context.Context, name string, args json.RawMessage) (Result, error) {
	res, err := r.FuncTools.Call(ctx, name, args)
	res.ForModel = json.RawMessage(standIn)
	return res, err
}

// The UI component gets a tool's full result; the model gets the smaller
// stand-in when there is one.
func TestFullResultToTheUIReducedToTheModel(t *testing.T) {
	var toolCalls []string
	m := &scripted{replies: []llms.ContentChoice{
		calls("extract", `{"location":"Lisbon","country":"Portugal","startDate":"2027-05-03","nights":4,"numberOfGuests":3,"intent":"trip","language":"en"}`),
		calls("list-accommodations", `{"location":"Lisbon","startDate":"2027-05-03","endDate":"2027-05-07","guests":3}`),
		text("Here they are."),
	}}
	r := runTurn(t, newPlanner(t, m, reducing{testTools(&toolCalls)}), uuid.NewString(), "4 nights in Lisbon from May 3, 3 of us")
	var acc AccommodationsListProps
	if err := json.Unmarshal(r.state.UI[1].Props, &acc); err != nil || len(acc.Accommodations) != 1 || acc.Accommodations[0].Name != "Casa Azul" {
		t.Fatalf("the component lacks the full result: %+v, %v", acc, err)
	}
	last := m.asked[2].messages[len(m.asked[2].messages)-1]
	if resp, ok := last.Parts[0].(llms.ToolCallResponse); !ok || resp.Content != standIn {
		t.Fatalf("the model was given %+v, want the stand-in", last.Parts[0])
	}
}
