package checkpoint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
)

// racers is how many goroutines race on one thread.
const racers = 12

// raceOnce has every saver of savers put a child of head at the same time,
// each expecting head. It returns the id that won and the errors of the
// others.
func raceOnce(t *testing.T, thread, head string, step int, savers []graph.Checkpointer) (string, []error) {
	t.Helper()
	ctx := context.Background()
	ids := make([]string, len(savers))
	errs := make([]error, len(savers))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, s := range savers {
		ids[i] = newID()
		cp := graph.Checkpoint{ThreadID: thread, ID: ids[i], ParentID: head, Step: step, Node: fmt.Sprint("racer", i),
			State: []byte(fmt.Sprintf(`{"racer":%d,"step":%d}`, i, step)), Metadata: graph.Metadata{Source: graph.SourceLoop}}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = s.Put(ctx, cp, head)
		}()
	}
	close(start)
	wg.Wait()
	winner := ""
	var lost []error
	for i, err := range errs {
		switch {
		case err == nil && winner != "":
			t.Fatalf("two writers won from head %q: %s and %s", head, winner, ids[i])
		case err == nil:
			winner = ids[i]
		default:
			lost = append(lost, err)
		}
	}
	if winner == "" {
		t.Fatalf("no writer won from head %q: %v", head, errs)
	}
	return winner, lost
}

// Writers racing on one thread from the same head: exactly one wins, every
// other gets a CONFLICT naming the thread, the head it expected and the
// winner; the history is the chain of winners, and a fork from an old
// checkpoint still works. Scoped savers race to create the thread as well.
func TestPutRaceHasOneWinner(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	owner, created := newThread(t, s, "racer")
	tests := []struct {
		name   string
		thread string
		saver  func() graph.Checkpointer
	}{
		{"unscoped", created, func() graph.Checkpointer { return New(s.Pool, Options{}) }},
		{"scoped, creating the thread", uuid.NewString(), func() graph.Checkpointer { return New(s.Pool, Options{}).ForOwner(owner) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			savers := make([]graph.Checkpointer, racers) // one each, as separate processes would have
			for i := range savers {
				savers[i] = tt.saver()
			}
			var chain []string
			head := ""
			for step := range 8 {
				winner, lost := raceOnce(t, tt.thread, head, step, savers)
				for _, err := range lost {
					var conflict *graph.ConflictError
					if !errors.As(err, &conflict) || !errors.Is(err, graph.ErrConflict) || errcode.Of(err) != errcode.Conflict {
						t.Fatalf("a losing writer got %v, want a CONFLICT wrapping *graph.ConflictError", err)
					}
					want := graph.ConflictError{ThreadID: tt.thread, Expected: head, Actual: winner}
					if *conflict != want {
						t.Fatalf("conflict %+v, want %+v", *conflict, want)
					}
				}
				chain, head = append(chain, winner), winner
			}
			cold := New(s.Pool, Options{})
			list, err := cold.List(ctx, tt.thread, graph.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != len(chain) {
				t.Fatalf("the thread holds %d checkpoints, want the %d winners", len(list), len(chain))
			}
			for i, cp := range list {
				want := chain[len(chain)-1-i]
				if cp.ID != want || (i+1 < len(list) && cp.ParentID != list[i+1].ID) {
					t.Fatalf("checkpoint %d is %s (parent %s), want %s in one chain", i, cp.ID, cp.ParentID, want)
				}
			}
			var n int
			if err := s.Pool.QueryRow(ctx, `SELECT count(*) FROM threads WHERE id = $1 AND owner_id = $2`, tt.thread, owner).Scan(&n); err != nil || n != 1 {
				t.Fatalf("the thread is not its owner's: %d, %v", n, err)
			}

			// A deliberate fork of the first checkpoint, at the head.
			fork := graph.Checkpoint{ThreadID: tt.thread, ID: newID(), ParentID: chain[0], Step: 1,
				State: []byte(`{"fork":true}`), Metadata: graph.Metadata{Source: graph.SourceFork}}
			if err := savers[0].Put(ctx, fork, head); err != nil {
				t.Fatalf("forking from an old checkpoint: %v", err)
			}
			if latest, err := cold.Latest(ctx, tt.thread); err != nil || latest.ID != fork.ID {
				t.Fatalf("Latest after the fork = %s, %v; want the fork %s", latest.ID, err, fork.ID)
			}
		})
	}
}

// Whole runs of the trip graph racing on one thread: each run either
// finishes or fails with a conflict, and the thread stays one chain that
// holds every finished run's checkpoints, on PostgreSQL as in memory.
func TestGraphRunsRaceOnOneThread(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	owner, _ := newThread(t, s, "graph-racer")
	savers := map[string]graph.Checkpointer{
		"memory":   graph.NewMemorySaver(),
		"postgres": New(s.Pool, Options{}).ForOwner(owner),
	}
	for name, saver := range savers {
		t.Run(name, func(t *testing.T) {
			thread := uuid.NewString()
			g := tripGraph(t, saver, nil)
			var wg sync.WaitGroup
			errs := make([]error, racers)
			finals := make([]int, racers)
			for i := range racers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					st, err := g.Invoke(ctx, graph.RunConfig[chatUpdate]{ThreadID: thread, Input: humanInput(i)})
					errs[i], finals[i] = err, len(st.Messages)
				}()
			}
			wg.Wait()
			won := 0
			for _, err := range errs {
				switch {
				case err == nil:
					won++
				case !errors.Is(err, graph.ErrConflict):
					t.Fatalf("a racing run failed with %v, want a conflict", err)
				}
			}
			if won == 0 {
				t.Fatal("no run finished")
			}
			list, err := saver.List(ctx, thread, graph.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i, cp := range list[:len(list)-1] {
				if cp.ParentID != list[i+1].ID {
					t.Fatalf("checkpoint %s has parent %s, not the one before it (%s): the thread forked", cp.ID, cp.ParentID, list[i+1].ID)
				}
			}
			var latest chatState
			if err := json.Unmarshal(list[0].State, &latest); err != nil {
				t.Fatal(err)
			}
			if ai := countRole(latest.Messages, "ai"); ai < won {
				t.Fatalf("%d runs finished but the thread holds %d answers", won, ai)
			}
			t.Logf("%s: %d of %d runs finished, %d checkpoints", name, won, racers, len(list))
		})
	}
}

func countRole(list []chatMessage, role string) int {
	n := 0
	for _, m := range list {
		if m.Role == role {
			n++
		}
	}
	return n
}

// A scoped checkpointer creates a missing thread for its owner with the
// first checkpoint, and never writes into another owner's thread; the
// unscoped one needs the row.
func TestScopedPutCreatesThread(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	owner, empty := newThread(t, s, "creator")
	other, _ := newThread(t, s, "intruder")
	base := New(s.Pool, Options{})
	thread := uuid.NewString()
	first := graph.Checkpoint{ThreadID: thread, ID: newID(), State: []byte(`{}`), Metadata: graph.Metadata{Source: graph.SourceInput}}

	tests := []struct {
		name  string
		saver graph.Checkpointer
		cp    graph.Checkpoint
		head  string
		code  errcode.Code // "" for success
	}{
		{"unscoped into a missing thread", base, first, "", errcode.NotFound},
		{"scoped into a missing thread", base.ForOwner(owner), first, "", ""},
		{"scoped, the thread exists now", base.ForOwner(owner), withID(first), "", errcode.Conflict},
		{"another owner, as if new", base.ForOwner(other), withID(first), "", errcode.NotFound},
		{"another owner, at the head", base.ForOwner(other), withID(first), first.ID, errcode.NotFound},
		{"a missing owner", base.ForOwner(uuid.NewString()), graph.Checkpoint{ThreadID: uuid.NewString(), ID: newID(), State: []byte(`{}`)}, "", errcode.NotFound},
		{"scoped at the head", base.ForOwner(owner), withID(first), first.ID, ""},
		{"another owner into an empty thread", base.ForOwner(other), graph.Checkpoint{ThreadID: empty, ID: newID(), State: []byte(`{}`)}, "", errcode.NotFound},
		{"scoped into its empty thread", base.ForOwner(owner), graph.Checkpoint{ThreadID: empty, ID: newID(), State: []byte(`{}`)}, "", ""},
	}
	for _, tt := range tests {
		err := tt.saver.Put(ctx, tt.cp, tt.head)
		if (tt.code == "" && err != nil) || (tt.code != "" && errcode.Of(err) != tt.code) {
			t.Errorf("%s: Put = %v, want %q", tt.name, err, tt.code)
		}
	}
	var status, metadata string
	if err := s.Pool.QueryRow(ctx, `SELECT status, metadata::text FROM threads WHERE id = $1 AND owner_id = $2`,
		thread, owner).Scan(&status, &metadata); err != nil {
		t.Fatalf("the created thread is not the owner's: %v", err)
	}
	if status != "idle" || metadata != "{}" {
		t.Errorf("created thread: status %q, metadata %s", status, metadata)
	}
	if list, _ := base.List(ctx, thread, graph.ListOptions{}); len(list) != 2 {
		t.Errorf("the thread holds %d checkpoints, want 2", len(list))
	}

	// A run on a fresh thread id works as it does in memory.
	g := tripGraph(t, base.ForOwner(owner), nil)
	fresh := uuid.NewString()
	for turn := range 2 {
		if _, err := g.Invoke(ctx, graph.RunConfig[chatUpdate]{ThreadID: fresh, Input: humanInput(turn)}); err != nil {
			t.Fatalf("turn %d on a fresh thread: %v", turn, err)
		}
	}
	var n int
	if err := s.Pool.QueryRow(ctx, `SELECT count(*) FROM threads WHERE id = $1 AND owner_id = $2`, fresh, owner).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the run's thread was not created for its owner: %d, %v", n, err)
	}
}

func withID(cp graph.Checkpoint) graph.Checkpoint {
	cp.ID = newID()
	return cp
}
