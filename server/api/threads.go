package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/server/runner"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
)

// defaultLimit is how many threads or states a page holds when the client
// does not say, as the LangGraph API does.
const defaultLimit = 10

// maxLimit is the most a page holds; the wire types' validate tags say the
// same for limits given in a body.
const maxLimit = 1000

func limitOr(limit *int) int {
	if limit == nil {
		return defaultLimit
	}
	return *limit
}

// createThread creates a thread. With if_exists "do_nothing", an existing
// thread of the same user is returned as it is. Supersteps, when sent,
// write the new thread's history, a checkpoint each; a thread whose
// supersteps fail is deleted.
func (s *API) createThread(c echo.Context) error {
	var in wire.ThreadCreate
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	if !httpx.EmptyJSON(in.TTL) {
		return httpx.InvalidField("ttl", "threads expire by the server's setting (TRIPGRAPH_THREAD_TTL), not by their own")
	}
	t := tenantOf(c)
	th, err := t.CreateThread(httpx.Ctx(c), store.NewThread{ID: in.ThreadID, Metadata: httpx.Object(in.Metadata)})
	if errcode.Of(err) == errcode.Conflict && in.IfExists == "do_nothing" {
		if mine, err := t.Thread(httpx.Ctx(c), in.ThreadID); err == nil {
			return answerThread(c, t, mine)
		}
	}
	if err != nil {
		return err
	}
	if len(in.Supersteps) == 0 {
		return c.JSON(http.StatusOK, wire.FromThread(th, nil))
	}
	if _, err := s.applySupersteps(httpx.Ctx(c), t, th.ID, in.Supersteps); err != nil {
		if derr := t.DeleteThread(context.WithoutCancel(httpx.Ctx(c)), th.ID); derr != nil {
			httpx.Logger(c, s.log).Error("deleting a thread whose supersteps failed", "thread_id", th.ID, "err", derr)
		}
		return httpx.Prefixed(err, "supersteps")
	}
	return answerThread(c, t, th)
}

// stateBatch writes supersteps on a thread that exists, a checkpoint
// each, and answers with the last, as POST /state does. It is refused
// (409) while a run is active on the thread.
func (s *API) stateBatch(c echo.Context) error {
	var in wire.StateBatch
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	threadID, t := c.Param("thread_id"), tenantOf(c)
	if _, err := t.Thread(httpx.Ctx(c), threadID); err != nil {
		return err
	}
	if err := idle(httpx.Ctx(c), t, threadID); err != nil {
		return err
	}
	cp, err := s.applySupersteps(httpx.Ctx(c), t, threadID, in.Supersteps)
	if err != nil {
		return httpx.Prefixed(err, "supersteps")
	}
	return c.JSON(http.StatusOK, wire.StateUpdateResult{Checkpoint: *wire.CheckpointOf(threadID, cp.ID)})
}

// applySupersteps writes each superstep on the thread's newest checkpoint,
// as LangGraph's bulk update does: its one update applied as its as_node
// (__input__ saves a run's input pending, __start__ applies an input), or
// its command's update. It returns the last checkpoint written.
func (s *API) applySupersteps(ctx context.Context, t tenant.Tenant, threadID string, steps []wire.Superstep) (graph.Checkpoint, error) {
	var last graph.Checkpoint
	for i, step := range steps {
		at := fmt.Sprintf("[%d].updates[0].", i)
		u := step.Updates[0]
		values := u.Values
		if u.Command != nil {
			if u.Command.Goto != "" || len(httpx.Object(u.Command.Resume)) > 0 {
				return last, httpx.InvalidField(at+"command", "only a command's update can be written as a superstep")
			}
			values = u.Command.Update
		}
		asNode, err := asNode(ctx, t, threadID, "", u.AsNode)
		if err != nil {
			return last, httpx.Prefixed(err, at)
		}
		earlier, err := conversation(ctx, t, threadID, "")
		if err != nil {
			return last, err
		}
		update, err := decodeUpdate(values, earlier)
		if err != nil {
			return last, httpx.Prefixed(err, at)
		}
		if last, err = t.Planner.UpdateState(ctx, threadID, "", update, asNode); err != nil {
			return last, err
		}
	}
	return last, nil
}

// getThread returns one of the user's threads with its current values.
func (s *API) getThread(c echo.Context) error {
	t := tenantOf(c)
	th, err := t.Thread(httpx.Ctx(c), c.Param("thread_id"))
	if err != nil {
		return err
	}
	return answerThread(c, t, th)
}

// patchThread merges metadata into a thread's.
func (s *API) patchThread(c echo.Context) error {
	var in wire.ThreadPatch
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	t := tenantOf(c)
	th, err := t.UpdateThreadMetadata(httpx.Ctx(c), c.Param("thread_id"), in.Metadata)
	if err != nil {
		return err
	}
	return answerThread(c, t, th)
}

// deleteThread deletes a thread with its checkpoints, runs and events.
func (s *API) deleteThread(c echo.Context) error {
	if err := tenantOf(c).DeleteThread(httpx.Ctx(c), c.Param("thread_id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// searchThreads lists the user's threads matching the filters, newest
// first unless sort_by and sort_order say otherwise. X-Pagination-Total
// counts all that match. A values filter is checked on each thread's
// newest checkpoint, here rather than in the database, which stores
// states as deltas.
func (s *API) searchThreads(c echo.Context) error {
	var q wire.ThreadSearch
	if err := httpx.Bind(c, &q); err != nil {
		return err
	}
	t := tenantOf(c)
	limit := limitOr(q.Limit)
	page, total, err := s.threads(httpx.Ctx(c), t, q, limit)
	if err != nil {
		return err
	}
	c.Response().Header().Set("X-Pagination-Total", strconv.Itoa(total))
	if next := q.Offset + limit; next < total {
		c.Response().Header().Set("X-Pagination-Next", strconv.Itoa(next))
	}
	out := make([]any, len(page))
	for i, th := range page {
		if len(q.Extract) > 0 {
			th.Extracted = wire.Extract(th, q.Extract)
		}
		out[i] = wire.Selected(th, append(slices.Clone(q.Select), selectExtracted(q)...))
	}
	return c.JSON(http.StatusOK, out)
}

// selectExtracted keeps extracted in a selection, when extract was asked.
func selectExtracted(q wire.ThreadSearch) []string {
	if len(q.Select) > 0 && len(q.Extract) > 0 {
		return []string{"extracted"}
	}
	return nil
}

// countThreads counts the user's threads matching the filters: a bare
// number, as LangGraph answers.
func (s *API) countThreads(c echo.Context) error {
	var q wire.ThreadSearch
	if err := httpx.Bind(c, &q); err != nil {
		return err
	}
	if len(httpx.Object(q.Values)) == 0 {
		n, err := tenantOf(c).CountThreads(httpx.Ctx(c), threadQuery(q, 0, 0))
		return answerOr(c, n, err)
	}
	_, total, err := s.threads(httpx.Ctx(c), tenantOf(c), q, 1)
	return answerOr(c, total, err)
}

// maxValuesScan bounds the threads a values filter reads.
const maxValuesScan = 10000

// threads is one page of the user's threads matching q, with their
// values, and how many match.
func (s *API) threads(ctx context.Context, t tenant.Tenant, q wire.ThreadSearch, limit int) ([]wire.Thread, int, error) {
	values := httpx.Object(q.Values)
	if len(values) == 0 {
		total, err := t.CountThreads(ctx, threadQuery(q, 0, 0))
		if err != nil {
			return nil, 0, err
		}
		list, err := t.SearchThreads(ctx, threadQuery(q, limit, q.Offset))
		if err != nil {
			return nil, 0, err
		}
		out, err := withValues(ctx, t, list)
		return out, total, err
	}
	var want map[string]any
	if err := json.Unmarshal(values, &want); err != nil {
		return nil, 0, httpx.InvalidField("values", "must be a JSON object")
	}
	var matched []wire.Thread
	for offset := 0; offset < maxValuesScan; offset += 500 {
		list, err := t.SearchThreads(ctx, threadQuery(q, 500, offset))
		if err != nil {
			return nil, 0, err
		}
		shown, err := withValues(ctx, t, list)
		if err != nil {
			return nil, 0, err
		}
		for _, th := range shown {
			var have map[string]any
			if json.Unmarshal(th.Values, &have) == nil && contains(have, want) {
				matched = append(matched, th)
			}
		}
		if len(list) < 500 {
			break
		}
	}
	if q.Offset >= len(matched) {
		return []wire.Thread{}, len(matched), nil
	}
	return matched[q.Offset:min(len(matched), q.Offset+limit)], len(matched), nil
}

// threadQuery is the store's query for a search body, one page.
func threadQuery(q wire.ThreadSearch, limit, offset int) store.ThreadQuery {
	sortBy := q.SortBy
	if sortBy == "state_updated_at" { // a thread's row is updated with its state
		sortBy = "updated_at"
	}
	return store.ThreadQuery{Metadata: httpx.Object(q.Metadata), Status: q.Status, IDs: q.IDs,
		Limit: limit, Offset: offset, SortBy: sortBy, SortOrder: q.SortOrder}
}

// withValues is each thread with its current values.
func withValues(ctx context.Context, t tenant.Tenant, list []store.Thread) ([]wire.Thread, error) {
	out := make([]wire.Thread, 0, len(list))
	for _, th := range list {
		head, err := runner.Head(ctx, t, th.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, wire.FromThread(th, head))
	}
	return out, nil
}

// copyThread makes a new thread of the user with the same metadata and a
// copy of every checkpoint, forks included. A copy that fails part-way is
// deleted.
func (s *API) copyThread(c echo.Context) error {
	t := tenantOf(c)
	src, err := t.Thread(httpx.Ctx(c), c.Param("thread_id"))
	if err != nil {
		return err
	}
	cps := t.Checkpoints
	history, err := cps.List(httpx.Ctx(c), src.ID, graph.ListOptions{})
	if err != nil {
		return err
	}
	dst, err := t.CreateThread(httpx.Ctx(c), store.NewThread{Metadata: src.Metadata})
	if err != nil {
		return err
	}
	head := ""
	for _, cp := range slices.Backward(history) { // oldest first: parents before children
		cp.ThreadID = dst.ID
		if err := cps.Put(httpx.Ctx(c), cp, head); err != nil {
			if derr := t.DeleteThread(context.WithoutCancel(httpx.Ctx(c)), dst.ID); derr != nil {
				httpx.Logger(c, s.log).Error("deleting a thread copied part-way", "thread_id", dst.ID, "err", derr)
			}
			return err
		}
		head = cp.ID
	}
	return answerThread(c, t, dst)
}

// answerThread answers with a thread and its current values.
func answerThread(c echo.Context, t tenant.Tenant, th store.Thread) error {
	head, err := runner.Head(httpx.Ctx(c), t, th.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromThread(th, head))
}
