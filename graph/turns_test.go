package graph

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
)

// turnsGraph is first → later → END, where later takes a turn, says so on
// turned with its thread, and holds it in hold until that returns.
func turnsGraph(t *testing.T, turned chan<- string, hold func(ctx context.Context, thread string)) *Compiled[tstate, tupdate] {
	g := New(reduce)
	g.AddNode("first", logNode("first"))
	g.AddNode("later", func(ctx context.Context, s tstate) (tupdate, error) {
		done, err := TakeTurn(ctx)
		if err != nil {
			return tupdate{}, err
		}
		defer done()
		info, _ := Info(ctx)
		turned <- info.ThreadID
		hold(ctx, info.ThreadID)
		return tupdate{Log: []string{"later"}}, nil
	})
	g.AddEdge(START, "first")
	g.AddEdge("first", "later")
	g.AddEdge("later", END)
	return mustCompile(t, g, nil)
}

// turnRun runs c on thread with turns in the background; its end is
// reported on the channel it returns.
func turnRun(ctx context.Context, c *Compiled[tstate, tupdate], turns *Turns, thread string) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: thread, Turns: turns})
		done <- err
	}()
	return done
}

func wantTurn(t *testing.T, turned <-chan string, thread string) {
	t.Helper()
	select {
	case got := <-turned:
		if got != thread {
			t.Fatalf("the run on %s took a turn, want the one on %s", got, thread)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the run on %s took no turn", thread)
	}
}

func wantNoTurnYet(t *testing.T, turned <-chan string) {
	t.Helper()
	select {
	case got := <-turned:
		t.Fatalf("the run on %s took a turn while every turn was held", got)
	case <-time.After(50 * time.Millisecond):
	}
}

func wantEnd(t *testing.T, done <-chan error) {
	t.Helper()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// threads returns n new thread ids, each with a channel its later node
// waits on.
func threads(n int) ([]string, map[string]chan struct{}) {
	ids, release := make([]string, n), map[string]chan struct{}{}
	for i := range ids {
		ids[i] = uuid.NewString()
		release[ids[i]] = make(chan struct{})
	}
	return ids, release
}

// With one turn, held: nodes that take none still run, and the nodes that
// ask for one get it in the order they asked, each once the one before
// gives it back.
func TestTurnsInTheOrderAsked(t *testing.T) {
	ids, release := threads(3)
	turned := make(chan string, 3)
	firsts := make(chan string, 3)
	g := New(reduce)
	g.AddNode("first", func(ctx context.Context, s tstate) (tupdate, error) {
		info, _ := Info(ctx)
		firsts <- info.ThreadID
		return tupdate{}, nil
	})
	g.AddNode("later", func(ctx context.Context, s tstate) (tupdate, error) {
		done, err := TakeTurn(ctx)
		if err != nil {
			return tupdate{}, err
		}
		defer done()
		info, _ := Info(ctx)
		turned <- info.ThreadID
		<-release[info.ThreadID]
		return tupdate{}, nil
	})
	g.AddEdge(START, "first")
	g.AddEdge("first", "later")
	g.AddEdge("later", END)
	c := mustCompile(t, g, nil)
	turns := NewTurns(1, time.Hour)
	ctx := context.Background()

	done0 := turnRun(ctx, c, turns, ids[0])
	wantTurn(t, turned, ids[0])
	done1 := turnRun(ctx, c, turns, ids[1])
	wantTurn(t, firsts, ids[0])
	wantTurn(t, firsts, ids[1]) // a node that takes no turn runs at once
	wantNoTurnYet(t, turned)
	done2 := turnRun(ctx, c, turns, ids[2])
	wantTurn(t, firsts, ids[2])
	wantNoTurnYet(t, turned)

	close(release[ids[0]])
	wantTurn(t, turned, ids[1]) // asked before run 2
	wantNoTurnYet(t, turned)
	close(release[ids[1]])
	wantTurn(t, turned, ids[2])
	close(release[ids[2]])
	wantEnd(t, done0)
	wantEnd(t, done1)
	wantEnd(t, done2)
}

// A node away (waiting on something outside the process) gives its turn
// to the next, and takes one again when it is back.
func TestTurnsAwayGivesTheTurnUp(t *testing.T) {
	ids, release := threads(2)
	turned := make(chan string, 4)
	away, backNow, holding := make(chan struct{}), make(chan struct{}), make(chan struct{})
	c := turnsGraph(t, turned, func(ctx context.Context, thread string) {
		if thread == ids[0] {
			back := Away(ctx)
			close(away)
			<-backNow
			back()
			close(holding) // it holds a turn again
		}
		<-release[thread]
	})
	turns := NewTurns(1, time.Hour)
	ctx := context.Background()

	done0 := turnRun(ctx, c, turns, ids[0])
	wantTurn(t, turned, ids[0])
	<-away
	done1 := turnRun(ctx, c, turns, ids[1])
	wantTurn(t, turned, ids[1]) // the turn the away node gave up
	close(backNow)
	select {
	case <-holding:
		t.Fatal("the node came back while the only turn was taken")
	case <-time.After(50 * time.Millisecond):
	}
	close(release[ids[1]])
	<-holding
	close(release[ids[0]])
	wantEnd(t, done0)
	wantEnd(t, done1)
}

// A turn held past its lease stops counting: a node that blocks in the
// process without saying so holds the others up for a lease at most.
func TestTurnsLeaseEnds(t *testing.T) {
	ids, release := threads(2)
	close(release[ids[1]])
	turned := make(chan string, 2)
	c := turnsGraph(t, turned, func(ctx context.Context, thread string) { <-release[thread] })
	turns := NewTurns(1, 20*time.Millisecond)
	ctx := context.Background()
	done0 := turnRun(ctx, c, turns, ids[0])
	wantTurn(t, turned, ids[0])
	done1 := turnRun(ctx, c, turns, ids[1])
	wantTurn(t, turned, ids[1])
	wantEnd(t, done1)
	close(release[ids[0]])
	wantEnd(t, done0)
}

// A run cancelled while its node waits for a turn ends with the
// cancellation, and leaves the queue: the next node gets the turn.
func TestTurnsCancelledWhileWaiting(t *testing.T) {
	ids, release := threads(3)
	close(release[ids[2]])
	turned := make(chan string, 3)
	c := turnsGraph(t, turned, func(ctx context.Context, thread string) { <-release[thread] })
	turns := NewTurns(1, time.Hour)
	done0 := turnRun(context.Background(), c, turns, ids[0])
	wantTurn(t, turned, ids[0])

	ctx, cancel := context.WithCancel(context.Background())
	done1 := turnRun(ctx, c, turns, ids[1])
	wantNoTurnYet(t, turned)
	cancel()
	if err := <-done1; !errors.Is(err, context.Canceled) {
		t.Fatalf("the waiting run ended with %v, want a cancellation", err)
	}
	close(release[ids[0]])
	wantEnd(t, done0)
	done2 := turnRun(context.Background(), c, turns, ids[2])
	wantTurn(t, turned, ids[2])
	wantEnd(t, done2)
}

// Outside a run with Turns, taking a turn and going away do nothing.
func TestTurnsWithoutTurns(t *testing.T) {
	ids, release := threads(1)
	close(release[ids[0]])
	turned := make(chan string, 1)
	c := turnsGraph(t, turned, func(ctx context.Context, thread string) { Away(ctx)() })
	wantEnd(t, turnRun(context.Background(), c, nil, ids[0]))
	wantTurn(t, turned, ids[0])
	done, err := TakeTurn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	done()
	Away(context.Background())()
}
