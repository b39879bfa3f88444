package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store"
)

// defaultLimit is how many threads or states a page holds when the client
// does not say, as the LangGraph API does.
const defaultLimit = 10

func limitOr(limit *int) int {
	if limit == nil {
		return defaultLimit
	}
	return *limit
}

// createThread creates a thread. With if_exists "do_nothing", an existing
// thread of the same user is returned as it is.
func (s *Server) createThread(c echo.Context) error {
	var in wire.ThreadCreate
	if err := bind(c, &in); err != nil {
		return err
	}
	t, err := s.store.CreateThread(ctx(c), owner(c), store.NewThread{ID: in.ThreadID, Metadata: object(in.Metadata)})
	if errcode.Of(err) == errcode.Conflict && in.IfExists == "do_nothing" {
		if mine, err := s.store.ThreadByID(ctx(c), owner(c), in.ThreadID); err == nil {
			return s.answerThread(c, mine)
		}
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromThread(t, nil))
}

// getThread returns one of the user's threads with its current values.
func (s *Server) getThread(c echo.Context) error {
	t, err := s.store.ThreadByID(ctx(c), owner(c), c.Param("thread_id"))
	if err != nil {
		return err
	}
	return s.answerThread(c, t)
}

// patchThread merges metadata into a thread's.
func (s *Server) patchThread(c echo.Context) error {
	var in wire.ThreadPatch
	if err := bind(c, &in); err != nil {
		return err
	}
	t, err := s.store.UpdateThreadMetadata(ctx(c), owner(c), c.Param("thread_id"), in.Metadata)
	if err != nil {
		return err
	}
	return s.answerThread(c, t)
}

// deleteThread deletes a thread with its checkpoints, runs and events.
func (s *Server) deleteThread(c echo.Context) error {
	if err := s.store.DeleteThread(ctx(c), owner(c), c.Param("thread_id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// searchThreads lists the user's threads matching the filters, newest
// first.
func (s *Server) searchThreads(c echo.Context) error {
	var q wire.ThreadSearch
	if err := bind(c, &q); err != nil {
		return err
	}
	list, err := s.store.SearchThreads(ctx(c), owner(c), store.ThreadQuery{Metadata: object(q.Metadata),
		Status: q.Status, Limit: limitOr(q.Limit), Offset: q.Offset})
	if err != nil {
		return err
	}
	out := make([]wire.Thread, 0, len(list))
	for _, t := range list {
		head, err := s.head(ctx(c), t.ID)
		if err != nil {
			return err
		}
		out = append(out, wire.FromThread(t, head))
	}
	return c.JSON(http.StatusOK, out)
}

// copyThread makes a new thread of the user with the same metadata and a
// copy of every checkpoint, forks included. A copy that fails part-way is
// deleted.
func (s *Server) copyThread(c echo.Context) error {
	src, err := s.store.ThreadByID(ctx(c), owner(c), c.Param("thread_id"))
	if err != nil {
		return err
	}
	history, err := s.cps.List(ctx(c), src.ID, graph.ListOptions{})
	if err != nil {
		return err
	}
	dst, err := s.store.CreateThread(ctx(c), owner(c), store.NewThread{Metadata: src.Metadata})
	if err != nil {
		return err
	}
	head := ""
	for _, cp := range slices.Backward(history) { // oldest first: parents before children
		cp.ThreadID = dst.ID
		if err := s.cps.Put(ctx(c), cp, head); err != nil {
			if derr := s.store.DeleteThread(context.WithoutCancel(ctx(c)), owner(c), dst.ID); derr != nil {
				s.logger(c).Error("deleting a thread copied part-way", "thread_id", dst.ID, "err", derr)
			}
			return err
		}
		head = cp.ID
	}
	return s.answerThread(c, dst)
}

// answerThread answers with a thread and its current values.
func (s *Server) answerThread(c echo.Context, t store.Thread) error {
	head, err := s.head(ctx(c), t.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromThread(t, head))
}

// head is a thread's newest checkpoint, nil when it has none. The caller
// has checked that the thread is the user's.
func (s *Server) head(ctx context.Context, threadID string) (*graph.Checkpoint, error) {
	_, cp, err := s.planner.GetState(ctx, threadID, "")
	if errors.Is(err, graph.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &cp, nil
}

// object is a client's metadata, with JSON null meaning none.
func object(raw json.RawMessage) json.RawMessage {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil
	}
	return raw
}
