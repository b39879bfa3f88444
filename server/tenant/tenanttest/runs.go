package tenanttest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
)

// The runs of a thread: one active at a time, the multitask strategies,
// runs on new threads, delayed runs, listing and cancelling.
var runsCases = []suiteCase{
	{"one active run per thread", testOneActiveRun},
	{"multitask strategies", testMultitask},
	{"a run on a new thread", testRunOnNewThread},
	{"delayed runs and listing by status", testDelayedRuns},
	{"cancel", testCancel},
}

// Of several runs created at once on one thread, one wins; the others get
// a CONFLICT that names it.
func testOneActiveRun(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	const n = 8
	var wg sync.WaitGroup
	runs := make([]store.Run, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { runs[i], errs[i] = mine.CreateRun(ctx, thread, store.NewRun{}) })
	}
	wg.Wait()
	winner := ""
	for i, err := range errs {
		if err == nil {
			if winner != "" {
				t.Fatalf("two active runs: %s and %s", winner, runs[i].ID)
			}
			winner = runs[i].ID
		}
	}
	for _, err := range errs {
		if err != nil && (errcode.Of(err) != errcode.Conflict || !strings.Contains(err.Error(), winner)) {
			t.Errorf("a losing run got %v, want a CONFLICT naming %s", err, winner)
		}
	}
	if active, err := mine.ActiveRun(ctx, thread); err != nil || active.ID != winner {
		t.Fatalf("ActiveRun = %s, %v; want %s", active.ID, err, winner)
	}
}

// The multitask strategies, each from a thread whose active run is pending
// or running, with a run queued behind it; then the thread runs dry in
// order.
func testMultitask(t *testing.T, b Backend) {
	tests := []struct {
		strategy string
		claimed  bool // whether the active run is running (else pending)
		// wantNew is the new run's status; wantActive and wantQueued the
		// old active and queued runs' statuses right after, gone for a
		// run deleted (a rollback deletes a run that never started).
		wantNew, wantActive, wantQueued string
		wantCancelRequest, wantReplaces bool
	}{
		{store.MultitaskEnqueue, true, store.RunQueued, store.RunRunning, store.RunQueued, false, false},
		{store.MultitaskEnqueue, false, store.RunQueued, store.RunPending, store.RunQueued, false, false},
		{store.MultitaskInterrupt, true, store.RunQueued, store.RunRunning, store.RunCancelled, true, true},
		{store.MultitaskInterrupt, false, store.RunPending, store.RunCancelled, store.RunCancelled, false, true},
		{store.MultitaskRollback, true, store.RunQueued, store.RunRunning, store.RunCancelled, true, true},
		{store.MultitaskRollback, false, store.RunPending, gone, store.RunCancelled, false, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/claimed=%v", tt.strategy, tt.claimed), func(t *testing.T) {
			ctx := context.Background()
			mine, thread := newThread(t, b)
			active := mustCreate(t, mine, thread, "")
			if tt.claimed {
				active = mustClaim(t, b, "w").Run
			}
			queued := mustCreate(t, mine, thread, store.MultitaskEnqueue)
			if _, err := mine.CreateRun(ctx, thread, store.NewRun{}); errcode.Of(err) != errcode.Conflict || !strings.Contains(err.Error(), active.ID) {
				t.Fatalf("a rejected run: %v, want a CONFLICT naming %s", err, active.ID)
			}
			created := mustCreate(t, mine, thread, tt.strategy)
			if created.Status != tt.wantNew || (created.Replaces == active.ID) != tt.wantReplaces {
				t.Errorf("the new run is %s replacing %q", created.Status, created.Replaces)
			}
			a := runOrGone(t, mine, active.ID)
			if a.Status != tt.wantActive || a.CancelRequested != tt.wantCancelRequest {
				t.Errorf("the active run is %s, cancel requested %v", a.Status, a.CancelRequested)
			}
			if q := runOf(t, mine, queued.ID); q.Status != tt.wantQueued {
				t.Errorf("the queued run is %s", q.Status)
			}
			var order []string
			for {
				r, err := mine.ActiveRun(ctx, thread)
				if errcode.Of(err) == errcode.NotFound {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if r.Status == store.RunPending {
					r = mustClaim(t, b, "w").Run
				}
				order = append(order, r.ID)
				if _, err := b.Queue.FinishRun(ctx, r.Lease(), store.RunSuccess, ""); err != nil {
					t.Fatal(err)
				}
			}
			var want []string
			for _, r := range []store.Run{active, queued, created} {
				if runOrGone(t, mine, r.ID).Status == store.RunSuccess {
					want = append(want, r.ID)
				}
			}
			if !slices.Equal(order, want) || order[len(order)-1] != created.ID {
				t.Errorf("runs ran in order %v, want %v ending with the new run", order, want)
			}
		})
	}
}

// gone is the status runOrGone gives a run that is not there.
const gone = "gone"

// runOrGone is one of the owner's runs, with the status gone when there
// is none.
func runOrGone(t *testing.T, o tenant.Records, runID string) store.Run {
	t.Helper()
	r, err := o.Run(context.Background(), runID)
	if errcode.Of(err) == errcode.NotFound {
		return store.Run{ID: runID, Status: gone}
	}
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A run on a new thread makes the owner's thread and its pending run
// together, or neither.
func testRunOnNewThread(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, theirs, _, _ := two(t, b)
	existing, err := mine.CreateThread(ctx, store.NewThread{})
	if err != nil {
		t.Fatal(err)
	}
	input := json.RawMessage(`{"messages":["hi"]}`)
	stamp := json.RawMessage(`{"graph_id":"trip-planner"}`)
	run, err := mine.CreateRunOnNewThread(ctx, store.NewThread{Metadata: json.RawMessage(`{"k":"v"}`)}, store.NewRun{Input: input, ThreadMetadata: stamp})
	if err != nil || run.Status != store.RunPending || run.MultitaskStrategy != store.MultitaskReject || !holds(run.Input, map[string]any{"messages": []any{"hi"}}) {
		t.Fatalf("CreateRunOnNewThread = %+v, %v", run, err)
	}
	th, err := mine.Thread(ctx, run.ThreadID)
	if err != nil || th.Status != store.ThreadIdle || !holds(th.Metadata, map[string]any{"k": "v", "graph_id": "trip-planner"}) {
		t.Fatalf("its thread: %+v, %v", th, err)
	}
	if _, err := theirs.Thread(ctx, run.ThreadID); errcode.Of(err) != errcode.NotFound {
		t.Fatalf("another owner reads the new thread: %v", err)
	}
	for _, c := range []struct {
		name string
		nt   store.NewThread
		nr   store.NewRun
		code errcode.Code
	}{
		{"a thread id in use", store.NewThread{ID: existing.ID}, store.NewRun{}, errcode.Conflict},
		{"a bad strategy", store.NewThread{}, store.NewRun{MultitaskStrategy: "sometimes"}, errcode.BadRequest},
		{"metadata that is no object", store.NewThread{Metadata: json.RawMessage(`[1]`)}, store.NewRun{}, errcode.BadRequest},
		{"run metadata that is no object", store.NewThread{}, store.NewRun{Metadata: json.RawMessage(`2`)}, errcode.BadRequest},
	} {
		before, _ := mine.CountThreads(ctx, store.ThreadQuery{})
		if _, err := mine.CreateRunOnNewThread(ctx, c.nt, c.nr); errcode.Of(err) != c.code {
			t.Errorf("%s: %v, want %s", c.name, err, c.code)
		}
		if after, _ := mine.CountThreads(ctx, store.ThreadQuery{}); after != before {
			t.Errorf("%s left %d threads more", c.name, after-before)
		}
	}
}

// A delayed run holds its thread at once but is not claimed before its
// delay has passed; a run names its assistant and stamps the thread's
// metadata; runs are listed newest first, by status.
func testDelayedRuns(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	stamp := json.RawMessage(`{"graph_id":"trip-planner","assistant_id":"a1"}`)
	later, err := mine.CreateRun(ctx, thread, store.NewRun{Delay: time.Hour, AssistantID: "a1", ThreadMetadata: stamp})
	if err != nil {
		t.Fatal(err)
	}
	if later.Status != store.RunPending || later.NotBefore == nil || later.AssistantID != "a1" {
		t.Fatalf("a delayed run: %+v", later)
	}
	if c, ok, err := b.Queue.ClaimRun(ctx, "w", time.Minute); err != nil || ok {
		t.Fatalf("a delayed run was claimed before its time: %+v, %v", c.Run, err)
	}
	if _, err := mine.CreateRun(ctx, thread, store.NewRun{}); errcode.Of(err) != errcode.Conflict {
		t.Fatalf("a run beside a delayed one: %v, want CONFLICT", err)
	}
	if th, _ := mine.Thread(ctx, thread); !holds(th.Metadata, map[string]any{"graph_id": "trip-planner", "assistant_id": "a1"}) {
		t.Fatalf("the thread's metadata after a run: %s", th.Metadata)
	}
	if _, err := mine.CancelRun(ctx, later.ID); err != nil {
		t.Fatal(err)
	}
	soon, err := mine.CreateRun(ctx, thread, store.NewRun{Delay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond) // past its delay
	if c := mustClaim(t, b, "w"); c.ID != soon.ID {
		t.Fatalf("claimed %s, want the run whose delay has passed", c.ID)
	}
	for status, want := range map[string]int{store.RunCancelled: 1, store.RunRunning: 1, store.RunSuccess: 0} {
		if list, err := mine.ListRuns(ctx, thread, 10, 0, status); err != nil || len(list) != want {
			t.Errorf("runs %s: %d, %v; want %d", status, len(list), err, want)
		}
	}
	list, _ := mine.ListRuns(ctx, thread, 10, 0)
	if len(list) != 2 || list[0].ID != soon.ID || list[1].ID != later.ID {
		t.Errorf("all runs: %d, want the 2 newest first", len(list))
	}
	if page, _ := mine.ListRuns(ctx, thread, 1, 1); len(page) != 1 || page[0].ID != later.ID {
		t.Errorf("the second page of one: %+v", page)
	}
}

// CancelRun ends a waiting run at once, asks a running one, and refuses an
// ended one; a queued run's end promotes none behind it, a pending one's
// promotes the next.
func testCancel(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	pending := mustCreate(t, mine, thread, "")
	queued := mustCreate(t, mine, thread, store.MultitaskEnqueue)
	last := mustCreate(t, mine, thread, store.MultitaskEnqueue)
	behind := mustCreate(t, mine, thread, store.MultitaskEnqueue)
	for _, c := range []struct {
		name, runID, want string
		code              errcode.Code
	}{
		{"queued behind another", behind.ID, store.RunCancelled, ""},
		{"queued", queued.ID, store.RunCancelled, ""},
		{"pending, which promotes the next", pending.ID, store.RunCancelled, ""},
		{"ended", pending.ID, "", errcode.Conflict},
		{"unknown", "00000000-0000-0000-0000-000000000000", "", errcode.NotFound},
		{"malformed", "nope", "", errcode.NotFound},
	} {
		r, err := mine.CancelRun(ctx, c.runID)
		if (err == nil) != (c.code == "") || (err != nil && errcode.Of(err) != c.code) || r.Status != c.want {
			t.Errorf("cancelling the %s run: %q, %v", c.name, r.Status, err)
		}
	}
	if r := runOf(t, mine, last.ID); r.Status != store.RunPending {
		t.Errorf("the last run is %s, want pending", r.Status)
	}
	if th, _ := mine.Thread(ctx, thread); th.Status != store.ThreadBusy {
		t.Errorf("the thread is %s with a run promoted, want busy", th.Status)
	}
	running := mustClaim(t, b, "w")
	if r, err := mine.CancelRun(ctx, running.ID); err != nil || r.Status != store.RunRunning || !r.CancelRequested {
		t.Fatalf("cancelling a running run: %+v, %v; want it running, asked to cancel", r, err)
	}
}

// newThread is a new user's records and a thread of theirs.
func newThread(t *testing.T, b Backend) (tenant.Records, string) {
	t.Helper()
	r := b.Records(b.NewUser(t))
	th, err := r.CreateThread(context.Background(), store.NewThread{})
	if err != nil {
		t.Fatal(err)
	}
	return r, th.ID
}

// mustCreate creates a run with a strategy ("" for the default).
func mustCreate(t *testing.T, r tenant.Records, thread, strategy string) store.Run {
	t.Helper()
	run, err := r.CreateRun(context.Background(), thread, store.NewRun{MultitaskStrategy: strategy})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// mustClaim claims the oldest pending run, for an hour.
func mustClaim(t *testing.T, b Backend, worker string) store.Claim {
	t.Helper()
	c, ok, err := b.Queue.ClaimRun(context.Background(), worker, time.Hour)
	if err != nil || !ok {
		t.Fatalf("claiming a run: %v, %v", ok, err)
	}
	return c
}

// runOf reads a run.
func runOf(t *testing.T, r tenant.Records, id string) store.Run {
	t.Helper()
	run, err := r.Run(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// lost reports whether err is a worker's lost lease.
func lost(err error) bool {
	return errors.Is(err, store.ErrLeaseLost) && errcode.Of(err) == errcode.Conflict
}
