// Package plannertest gives tests the trip planner on the offline model
// and a tool they control: a gate that holds the accommodations tool
// until the test releases it, and records whom each call acted for.
package plannertest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/model"
	"github.com/tripgraph/tripgraph/nodes"
)

// Lisbon is a turn that makes the offline planner show trip details and
// list accommodations.
const Lisbon = "4 nights in Lisbon in May, 3 of us"

// Gate lets a test hold the accommodations tool until it says so, and
// records the user each call acted for.
type Gate struct {
	Started chan string   // the user of each call, when it starts; nil: not told
	Release chan struct{} // closed to let calls finish; nil means at once
	Server  string        // when set, each call reports its end as the tool bridge does, from this server
}

// Held is a gate that holds every call until the test closes Release
// and tells Started of up to four calls without blocking them.
func Held() *Gate {
	return &Gate{Started: make(chan string, 4), Release: make(chan struct{})}
}

// Tools are the tools of the user u: the gated accommodations tool, which
// tells Started whom each of its calls acts for. It is a tenant.Factory's
// Tools.
func (g *Gate) Tools(u mcpbridge.User) nodes.Tools {
	return nodes.FuncTools{{Tool: nodes.Tool{Name: "list-accommodations", Card: card.Accommodations, Description: "list accommodations"},
		Run: func(ctx context.Context, raw json.RawMessage) (any, error) {
			if g.Started != nil {
				g.Started <- u.ID
			}
			if g.Release != nil {
				select {
				case <-g.Release:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			if g.Server != "" {
				graph.Emit(ctx, mcpbridge.EventComplete, mcpbridge.Complete{Type: mcpbridge.EventComplete, Server: g.Server, Tool: "list-accommodations"})
			}
			return map[string]any{"location": "Lisbon", "covered": true, "guests": 3,
				"accommodations": []map[string]any{{"id": "h1", "name": "Casa Azul", "nightlyPrice": 90, "totalPrice": 360, "capacity": 4}}}, nil
		}}}
}

// Planner is the trip planner on the offline model.
func Planner(t testing.TB) *nodes.Planner {
	t.Helper()
	m, err := model.Config{}.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	planner, err := nodes.Build(nodes.Deps{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	return planner
}

// Card is the card of each tool of our server a test's tool stands for,
// as its registration names it.
func Card(tool string) string {
	return map[string]string{
		"list-accommodations": card.Accommodations, "get-accommodation": card.Accommodations,
		"book-accommodation": card.BookingConfirmation, "list-restaurants": card.Restaurants,
		"getUserAlbums": card.Albums, "getAlbumByName": card.Albums, "getAlbumPhotos": card.Photos,
		"getPhotosByDate": card.Photos, "getPhotosByLocation": card.Photos, "searchPhotosAcrossAlbums": card.Photos,
		"getTripStats": card.TripStats,
	}[tool]
}
