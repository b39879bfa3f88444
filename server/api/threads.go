package api

import (
	"context"
	"net/http"
	"slices"

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
// thread of the same user is returned as it is.
func (s *API) createThread(c echo.Context) error {
	var in wire.ThreadCreate
	if err := httpx.Bind(c, &in); err != nil {
		return err
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
	return c.JSON(http.StatusOK, wire.FromThread(th, nil))
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
// first.
func (s *API) searchThreads(c echo.Context) error {
	var q wire.ThreadSearch
	if err := httpx.Bind(c, &q); err != nil {
		return err
	}
	t := tenantOf(c)
	list, err := t.SearchThreads(httpx.Ctx(c), store.ThreadQuery{Metadata: httpx.Object(q.Metadata),
		Status: q.Status, Limit: limitOr(q.Limit), Offset: q.Offset})
	if err != nil {
		return err
	}
	out := make([]wire.Thread, 0, len(list))
	for _, th := range list {
		head, err := runner.Head(httpx.Ctx(c), t, th.ID)
		if err != nil {
			return err
		}
		out = append(out, wire.FromThread(th, head))
	}
	return c.JSON(http.StatusOK, out)
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
	cps := t.Checkpoints()
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
