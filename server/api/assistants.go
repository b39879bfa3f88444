package api

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/wire"
)

// PlannerAssistantID is the trip planner assistant's stable id: derived
// from its graph id, so it is the same in every process and release.
var PlannerAssistantID = uuid.NewSHA1(uuid.NameSpaceURL, []byte("tripgraph:assistant/"+nodes.GraphID)).String()

// plannerSince is the assistant's creation time, fixed like its id.
var plannerSince = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func plannerAssistant() wire.Assistant {
	return wire.Assistant{AssistantID: PlannerAssistantID, GraphID: nodes.GraphID, Name: nodes.GraphID,
		Description: "Plans a trip: dates, guests, accommodations, restaurants and the traveller's photos",
		Config:      map[string]any{}, Context: map[string]any{}, Metadata: map[string]any{"created_by": "system"},
		Version: 1, CreatedAt: plannerSince, UpdatedAt: plannerSince}
}

// searchAssistants lists the assistants matching the filters.
func (s *API) searchAssistants(c echo.Context) error {
	var q wire.AssistantSearch
	if err := httpx.Bind(c, &q); err != nil {
		return err
	}
	a := plannerAssistant()
	list := []wire.Assistant{}
	if (q.GraphID == "" || q.GraphID == a.GraphID) && (q.Name == "" || q.Name == a.Name) &&
		contains(a.Metadata, q.Metadata) && q.Offset == 0 {
		list = append(list, a)
	}
	return c.JSON(http.StatusOK, list)
}

// getAssistant returns an assistant by its id or its graph's id.
func (s *API) getAssistant(c echo.Context) error {
	a, err := assistant(c.Param("assistant_id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, a)
}

// getAssistantGraph returns the nodes and edges of an assistant's graph.
func (s *API) getAssistantGraph(c echo.Context) error {
	if _, err := assistant(c.Param("assistant_id")); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromShape(s.tenants.Planner.Shape()))
}

func assistant(id string) (wire.Assistant, error) {
	if id != PlannerAssistantID && id != nodes.GraphID {
		return wire.Assistant{}, errcode.New(errcode.NotFound, "no assistant %q", id)
	}
	return plannerAssistant(), nil
}

// contains says whether every key of want has the same JSON value in have.
func contains(have, want map[string]any) bool {
	for k, w := range want {
		h, ok := have[k]
		if !ok || !sameJSON(h, w) {
			return false
		}
	}
	return true
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
