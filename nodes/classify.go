package nodes

import (
	"context"
	"encoding/json"
	"fmt"
)

// classify checks whether the known trip details still hold for the
// traveller's latest message, and clears them if not so that extraction
// runs again.
func (p *planner) classify(ctx context.Context, s State) (Update, error) {
	if s.TripDetails == nil {
		return Update{}, nil
	}
	raw, err := p.forcedCall(ctx, conversation(system(classifyPrompt, todayLine(p.today()), tripLine(s.TripDetails)), s),
		"classify", "Say whether the known trip details still hold.", classifySchema)
	if err != nil {
		return Update{}, err
	}
	var args struct {
		IsRelevant *bool `json:"isRelevant"`
	}
	if err := json.Unmarshal([]byte(raw), &args); err != nil || args.IsRelevant == nil {
		return Update{}, fmt.Errorf("reading the classify call's arguments %q: want {\"isRelevant\": bool}", raw)
	}
	if *args.IsRelevant {
		return Update{Timestamp: p.stamp()}, nil
	}
	return Update{Timestamp: p.stamp(), ClearTripDetails: true}, nil
}
