package api

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/server/tenant"
)

// PlannerAssistantID is the trip planner assistant's stable id: derived
// from its graph id, so it is the same in every process and release.
var PlannerAssistantID = uuid.NewSHA1(uuid.NameSpaceURL, []byte("tripgraph:assistant/"+nodes.GraphID)).String()

// plannerSince is the assistant's creation time, fixed like its id.
var plannerSince = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// plannerAssistant is the built-in assistant every user has: the trip
// planner, named by its graph id and marked as the system's, as LangGraph
// marks the assistant it makes for each graph.
func plannerAssistant() wire.Assistant {
	desc := "Plans a trip: dates, guests, accommodations, restaurants and the traveller's photos"
	return wire.Assistant{AssistantID: PlannerAssistantID, GraphID: nodes.GraphID, Name: nodes.GraphID,
		Description: &desc, Config: json.RawMessage("{}"), Context: json.RawMessage("{}"),
		Metadata: json.RawMessage(`{"created_by":"system"}`), Version: 1, CreatedAt: plannerSince, UpdatedAt: plannerSince}
}

// builtIn reports whether id names the built-in assistant: its id or its
// graph's.
func builtIn(id string) bool { return id == PlannerAssistantID || id == nodes.GraphID }

// errAssistantNotFound is the answer for an assistant the user does not
// have, in LangGraph's words.
var errAssistantNotFound = errcode.New(errcode.NotFound, "Assistant not found")

// assistantOf is one of the tenant's assistants by its id, or the
// built-in one by its id or its graph's id.
func assistantOf(ctx context.Context, t tenant.Tenant, id string) (wire.Assistant, error) {
	if builtIn(id) {
		return plannerAssistant(), nil
	}
	if uuid.Validate(id) != nil {
		return wire.Assistant{}, errAssistantNotFound
	}
	a, err := t.Assistants.Get(ctx, id)
	if err != nil {
		return wire.Assistant{}, err
	}
	return wire.FromAssistant(a), nil
}

// runAssistant is the assistant a run is created for, or LangGraph's
// answer for one that is neither an assistant nor a graph.
func runAssistant(ctx context.Context, t tenant.Tenant, id string) (wire.Assistant, error) {
	a, err := assistantOf(ctx, t, id)
	if errcode.Of(err) == errcode.NotFound {
		return a, errcode.New(errcode.NotFound,
			"No assistant found for %q. Make sure the assistant ID is for a valid assistant or a valid graph ID.", id)
	}
	return a, err
}

// checkGraph refuses a graph the server does not have, and a context:
// the trip planner takes none, so a context would be kept and never used.
func checkGraph(graphID string, context json.RawMessage) error {
	if graphID != nodes.GraphID {
		return errcode.New(errcode.NotFound, "Graph %q not found: this server has one graph, %s", graphID, nodes.GraphID)
	}
	if !httpx.EmptyJSON(context) {
		return httpx.InvalidField("context", "the trip planner takes no context")
	}
	return nil
}

// errBuiltIn refuses changing the built-in assistant.
var errBuiltIn = errcode.New(errcode.Conflict, "the built-in assistant %s cannot be changed or deleted: create an assistant of graph %s and change that", nodes.GraphID, nodes.GraphID)

// createAssistant creates one of the user's assistants. With if_exists
// "do_nothing", an assistant of the user with the same id is answered as
// it is.
func (s *API) createAssistant(c echo.Context) error {
	var in wire.AssistantCreate
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	if err := checkGraph(in.GraphID, in.Context); err != nil {
		return err
	}
	t := tenantOf(c)
	a, err := t.Assistants.Create(httpx.Ctx(c), wire.ToNewAssistant(in))
	if errcode.Of(err) == errcode.Conflict && in.IfExists == "do_nothing" {
		if mine, err := t.Assistants.Get(httpx.Ctx(c), in.AssistantID); err == nil {
			return c.JSON(http.StatusOK, wire.FromAssistant(mine))
		}
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromAssistant(a))
}

// getAssistant returns an assistant by its id or its graph's id.
func (s *API) getAssistant(c echo.Context) error {
	a, err := assistantOf(httpx.Ctx(c), tenantOf(c), c.Param("assistant_id"))
	return answerOr(c, a, err)
}

// patchAssistant changes one of the user's assistants, as a new version.
func (s *API) patchAssistant(c echo.Context) error {
	var in wire.AssistantPatch
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	id := c.Param("assistant_id")
	if builtIn(id) {
		return errBuiltIn
	}
	if in.GraphID != nil || len(in.Context) > 0 {
		graphID := nodes.GraphID
		if in.GraphID != nil {
			graphID = *in.GraphID
		}
		if err := checkGraph(graphID, in.Context); err != nil {
			return err
		}
	}
	if uuid.Validate(id) != nil {
		return errAssistantNotFound
	}
	a, err := tenantOf(c).Assistants.Update(httpx.Ctx(c), id, wire.ToAssistantPatch(in))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromAssistant(a))
}

// deleteAssistant deletes one of the user's assistants with its versions;
// with delete_threads, also the user's threads its runs were stamped
// with. It answers the deleted id in a list, as LangGraph does.
func (s *API) deleteAssistant(c echo.Context) error {
	id := c.Param("assistant_id")
	if builtIn(id) {
		return errBuiltIn
	}
	t := tenantOf(c)
	if uuid.Validate(id) != nil {
		return errAssistantNotFound
	}
	if err := t.Assistants.Delete(httpx.Ctx(c), id); err != nil {
		return err
	}
	if truthy(c.QueryParam("delete_threads")) {
		stamp, _ := json.Marshal(map[string]string{"assistant_id": id})
		if _, err := t.DeleteThreadsWhere(httpx.Ctx(c), stamp); err != nil {
			return err
		}
	}
	return c.JSON(http.StatusOK, []string{id})
}

// searchAssistants lists the assistants matching the filters: the
// built-in one with the user's, sorted and paged together. The answer's
// X-Pagination-Total counts all that match.
func (s *API) searchAssistants(c echo.Context) error {
	var q wire.AssistantSearch
	if err := httpx.Bind(c, &q); err != nil {
		return err
	}
	limit := limitOr(q.Limit)
	page, total, err := s.assistants(httpx.Ctx(c), tenantOf(c), q, limit)
	if err != nil {
		return err
	}
	c.Response().Header().Set("X-Pagination-Total", strconv.Itoa(total))
	if next := q.Offset + limit; next < total {
		c.Response().Header().Set("X-Pagination-Next", strconv.Itoa(next))
	}
	return c.JSON(http.StatusOK, selected(page, q.Select))
}

// countAssistants counts the assistants matching the filters, the
// built-in one included: a bare number, as LangGraph answers.
func (s *API) countAssistants(c echo.Context) error {
	var q wire.AssistantSearch
	if err := httpx.Bind(c, &q); err != nil {
		return err
	}
	n, err := tenantOf(c).Assistants.Count(httpx.Ctx(c), wire.ToAssistantQuery(q, 0))
	if err != nil {
		return err
	}
	if matchesBuiltIn(q) {
		n++
	}
	return c.JSON(http.StatusOK, n)
}

// assistants is one page of the assistants matching q, the built-in one
// placed among the user's where the order puts it, and how many match.
func (s *API) assistants(ctx context.Context, t tenant.Tenant, q wire.AssistantSearch, limit int) ([]wire.Assistant, int, error) {
	// The user's first offset+limit, so that the built-in one can be
	// placed among them before the page is cut.
	first := wire.ToAssistantQuery(q, q.Offset+limit)
	first.Offset = 0
	mine, total, err := t.Assistants.Search(ctx, first)
	if err != nil {
		return nil, 0, err
	}
	list := make([]wire.Assistant, 0, len(mine)+1)
	for _, a := range mine {
		list = append(list, wire.FromAssistant(a))
	}
	if matchesBuiltIn(q) {
		total++
		p := plannerAssistant()
		at := len(list)
		for i, a := range list {
			if before(p, a, q.SortBy, q.SortOrder) {
				at = i
				break
			}
		}
		list = slices.Insert(list, at, p)
	}
	if q.Offset >= len(list) {
		return []wire.Assistant{}, total, nil
	}
	return list[q.Offset:min(len(list), q.Offset+limit)], total, nil
}

// matchesBuiltIn reports whether the built-in assistant matches a search.
func matchesBuiltIn(q wire.AssistantSearch) bool {
	p := plannerAssistant()
	var meta map[string]any
	json.Unmarshal(p.Metadata, &meta)
	var want map[string]any
	json.Unmarshal(httpx.Object(q.Metadata), &want)
	return (q.GraphID == "" || q.GraphID == p.GraphID) &&
		(q.Name == "" || strings.Contains(strings.ToLower(p.Name), strings.ToLower(q.Name))) && contains(meta, want)
}

// before reports whether a sorts before b in the order asked for (by
// created_at, newest first, unless said otherwise), as the store sorts.
func before(a, b wire.Assistant, by, order string) bool {
	key := func(x wire.Assistant) string {
		switch by {
		case "assistant_id":
			return x.AssistantID
		case "graph_id":
			return x.GraphID
		case "name":
			return x.Name
		case "updated_at":
			return x.UpdatedAt.UTC().Format(time.RFC3339Nano)
		}
		return x.CreatedAt.UTC().Format(time.RFC3339Nano)
	}
	ka, kb := key(a), key(b)
	if ka == kb {
		ka, kb = a.AssistantID, b.AssistantID
	}
	if order == "asc" {
		return ka < kb
	}
	return ka > kb
}

// selected is each assistant with only the members sel names; all of
// them when it names none.
func selected(list []wire.Assistant, sel []string) any {
	if len(sel) == 0 {
		return list
	}
	out := make([]any, len(list))
	for i, a := range list {
		out[i] = wire.Selected(a, sel)
	}
	return out
}

// assistantVersions lists an assistant's versions, newest first.
func (s *API) assistantVersions(c echo.Context) error {
	var in wire.AssistantVersionsRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	id := c.Param("assistant_id")
	if builtIn(id) {
		a := plannerAssistant()
		var meta, want map[string]any
		json.Unmarshal(a.Metadata, &meta)
		json.Unmarshal(httpx.Object(in.Metadata), &want)
		list := []wire.AssistantVersion{}
		if in.Offset == 0 && contains(meta, want) {
			list = append(list, wire.VersionOf(a))
		}
		return c.JSON(http.StatusOK, list)
	}
	if uuid.Validate(id) != nil {
		return errAssistantNotFound
	}
	versions, err := tenantOf(c).Assistants.Versions(httpx.Ctx(c), id, httpx.Object(in.Metadata), limitOr(in.Limit), in.Offset)
	if err != nil {
		return err
	}
	out := make([]wire.AssistantVersion, len(versions))
	for i, v := range versions {
		out[i] = wire.FromAssistantVersion(v)
	}
	return c.JSON(http.StatusOK, out)
}

// setLatestVersion makes one of an assistant's versions its current one.
func (s *API) setLatestVersion(c echo.Context) error {
	var in wire.AssistantLatest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	id := c.Param("assistant_id")
	if builtIn(id) {
		if in.Version != 1 {
			return errcode.New(errcode.NotFound, "Assistant version not found")
		}
		return c.JSON(http.StatusOK, plannerAssistant())
	}
	if uuid.Validate(id) != nil {
		return errAssistantNotFound
	}
	a, err := tenantOf(c).Assistants.SetLatest(httpx.Ctx(c), id, in.Version)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromAssistant(a))
}

// getAssistantGraph returns the nodes and edges of an assistant's graph.
func (s *API) getAssistantGraph(c echo.Context) error {
	if _, err := assistantOf(httpx.Ctx(c), tenantOf(c), c.Param("assistant_id")); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromShape(s.tenants.Planner.Shape()))
}

// getAssistantSchemas returns the JSON schemas of an assistant's graph.
func (s *API) getAssistantSchemas(c echo.Context) error {
	a, err := assistantOf(httpx.Ctx(c), tenantOf(c), c.Param("assistant_id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.PlannerSchemas(a.GraphID))
}

// getAssistantSubgraphs returns an assistant's graph's subgraphs: the
// planner has none.
func (s *API) getAssistantSubgraphs(c echo.Context) error {
	if _, err := assistantOf(httpx.Ctx(c), tenantOf(c), c.Param("assistant_id")); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{})
}

// contains says whether have contains want as PostgreSQL's jsonb @> does,
// which the stored filters use: every member of want is in have, objects
// and lists contained in theirs, other values equal.
func contains(have, want map[string]any) bool {
	for k, w := range want {
		h, ok := have[k]
		if !ok || !containsJSON(h, w) {
			return false
		}
	}
	return true
}

func containsJSON(have, want any) bool {
	switch w := want.(type) {
	case map[string]any:
		h, ok := have.(map[string]any)
		return ok && contains(h, w)
	case []any:
		h, ok := have.([]any)
		if !ok {
			return false
		}
		for _, item := range w {
			if !slices.ContainsFunc(h, func(x any) bool { return containsJSON(x, item) }) {
				return false
			}
		}
		return true
	}
	x, err1 := json.Marshal(have)
	y, err2 := json.Marshal(want)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// configLimit is the recursion limit an assistant's config sets, 0 for
// none.
func configLimit(a wire.Assistant) int {
	var cfg struct {
		RecursionLimit int `json:"recursion_limit"`
	}
	if json.Unmarshal(a.Config, &cfg) != nil || cfg.RecursionLimit < 0 {
		return 0
	}
	return cfg.RecursionLimit
}
