package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store/quota"
)

func TestRunLifecycle(t *testing.T) {
	ctx := context.Background()
	s := openQueueStores(t, 1)[0]
	owner, thread := newThread(t, s, "runner")

	run, err := s.ForOwner(owner).CreateRun(ctx, thread, NewRun{Input: json.RawMessage(`{"messages":["hi"]}`), MultitaskStrategy: MultitaskInterrupt})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != RunPending || run.MultitaskStrategy != MultitaskInterrupt || run.StartedAt != nil || run.Attempts != 0 {
		t.Fatalf("new run %+v", run)
	}
	claimed, ok, err := s.ClaimRun(ctx, "w1", time.Hour)
	if err != nil || !ok || claimed.ID != run.ID || claimed.Status != RunRunning || claimed.StartedAt == nil ||
		claimed.WorkerID != "w1" || claimed.Attempts != 1 || claimed.LeaseExpiresAt == nil {
		t.Fatalf("ClaimRun = %+v, %v, %v", claimed, ok, err)
	}
	if th, _ := s.ForOwner(owner).Thread(ctx, thread); th.Status != ThreadBusy {
		t.Fatalf("thread of a running run is %s, want busy", th.Status)
	}
	if again, ok, err := s.ClaimRun(ctx, "w2", time.Hour); ok || err != nil {
		t.Fatalf("claiming a running run: %+v, %v, %v; want none", again, ok, err)
	}

	for i, ev := range []string{"metadata", "values", "updates", "end"} {
		e, err := s.AppendRunEvents(ctx, claimed.Lease(), []NewRunEvent{{Event: ev, Data: []byte(`{"i":1}`)}})
		if err != nil || len(e) != 1 || e[0].Event != ev {
			t.Fatalf("event %d: %+v, %v", i, e, err)
		}
	}
	all, err := s.ForOwner(owner).RunEvents(ctx, run.ID, 0, 0)
	if err != nil || len(all) != 4 {
		t.Fatalf("RunEvents = %d events, %v", len(all), err)
	}
	rest, err := s.ForOwner(owner).RunEvents(ctx, run.ID, all[1].Seq, 0)
	if err != nil || len(rest) != 2 || rest[0].Event != "updates" || rest[1].Event != "end" {
		t.Fatalf("resuming after seq %d: %+v, %v", all[1].Seq, rest, err)
	}

	tests := []struct {
		status, threadStatus string
	}{
		{RunError, ThreadError},
		{RunInterrupted, ThreadInterrupted},
		{RunCancelled, ThreadIdle},
		{RunSuccess, ThreadIdle},
	}
	for i, tt := range tests {
		if i > 0 {
			if _, err = s.ForOwner(owner).CreateRun(ctx, thread, NewRun{}); err != nil {
				t.Fatal(err)
			}
			if claimed, ok, err = s.ClaimRun(ctx, "w1", time.Hour); !ok || err != nil {
				t.Fatalf("claim %d: %v, %v", i, ok, err)
			}
		}
		if _, err := s.FinishRun(ctx, claimed.Lease(), RunRunning, ""); errcode.Of(err) != errcode.BadRequest {
			t.Errorf("finishing as running: %v, want BAD_REQUEST", err)
		}
		done, err := s.FinishRun(ctx, claimed.Lease(), tt.status, "boom")
		if err != nil || done.Status != tt.status || done.FinishedAt == nil || done.Error != "boom" || done.LeaseExpiresAt != nil {
			t.Fatalf("FinishRun(%s) = %+v, %v", tt.status, done, err)
		}
		if th, _ := s.ForOwner(owner).Thread(ctx, thread); th.Status != tt.threadStatus {
			t.Errorf("after a run ended %s the thread is %s, want %s", tt.status, th.Status, tt.threadStatus)
		}
		if _, err := s.FinishRun(ctx, claimed.Lease(), RunSuccess, ""); errcode.Of(err) != errcode.Conflict || !errors.Is(err, ErrLeaseLost) {
			t.Errorf("finishing a %s run again: %v, want CONFLICT and ErrLeaseLost", tt.status, err)
		}
	}
	if runs, err := s.ForOwner(owner).ListRuns(ctx, thread, 2, 0); err != nil || len(runs) != 2 || runs[0].ID != claimed.ID {
		t.Errorf("ListRuns = %d runs, %v; want the newest 2", len(runs), err)
	}
}

// Of several runs created at once on one thread, one wins; the others get a
// CONFLICT that names it.
func TestOneActiveRunPerThread(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	owner, thread := newThread(t, s, "racer")
	const n = 8
	var wg sync.WaitGroup
	runs := make([]Run, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { runs[i], errs[i] = s.ForOwner(owner).CreateRun(ctx, thread, NewRun{}) })
	}
	wg.Wait()
	var winner string
	for i, err := range errs {
		if err == nil {
			if winner != "" {
				t.Fatalf("two active runs: %s and %s", winner, runs[i].ID)
			}
			winner = runs[i].ID
		}
	}
	if winner == "" {
		t.Fatal("no run was created")
	}
	for _, err := range errs {
		if err != nil && (errcode.Of(err) != errcode.Conflict || !strings.Contains(err.Error(), winner)) {
			t.Errorf("losing run got %v, want a CONFLICT naming %s", err, winner)
		}
	}
	if active, err := s.ForOwner(owner).ActiveRun(ctx, thread); err != nil || active.ID != winner {
		t.Fatalf("ActiveRun = %s, %v; want %s", active.ID, err, winner)
	}
}

// CreateRunOnNewThread makes the owner's thread and its pending run
// together, or neither.
func TestCreateRunOnNewThread(t *testing.T) {
	ctx := context.Background()
	s := openQueueStores(t, 1)[0]
	owner, existing := newThread(t, s, "stateless")
	other, _ := newThread(t, s, "someone-else")
	input := json.RawMessage(`{"messages":["hi"]}`)

	run, err := s.ForOwner(owner).CreateRunOnNewThread(ctx, NewThread{Metadata: json.RawMessage(`{"k":"v"}`)}, NewRun{Input: input})
	if err != nil || run.Status != RunPending || run.MultitaskStrategy != MultitaskReject || strings.ReplaceAll(string(run.Input), " ", "") != string(input) {
		t.Fatalf("CreateRunOnNewThread = %+v, %v", run, err)
	}
	th, err := s.ForOwner(owner).Thread(ctx, run.ThreadID)
	if err != nil || th.Status != ThreadIdle || string(th.Metadata) != `{"k": "v"}` {
		t.Fatalf("its thread: %+v, %v", th, err)
	}
	if _, err := s.ForOwner(other).Thread(ctx, run.ThreadID); errcode.Of(err) != errcode.NotFound {
		t.Fatalf("another owner reads the new thread: %v", err)
	}
	if got, err := s.ForOwner(owner).Run(ctx, run.ID); err != nil || got.ThreadID != run.ThreadID {
		t.Fatalf("RunByID = %+v, %v", got, err)
	}

	for _, tc := range []struct {
		name string
		nt   NewThread
		nr   NewRun
		code errcode.Code
	}{
		{"a thread id in use", NewThread{ID: existing}, NewRun{}, errcode.Conflict},
		{"a bad strategy", NewThread{}, NewRun{MultitaskStrategy: "sometimes"}, errcode.BadRequest},
		{"metadata that is no object", NewThread{Metadata: json.RawMessage(`[1]`)}, NewRun{}, errcode.BadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, err := s.ForOwner(owner).ListRuns(ctx, existing, 100, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.ForOwner(owner).CreateRunOnNewThread(ctx, tc.nt, tc.nr); errcode.Of(err) != tc.code {
				t.Fatalf("got %v, want %s", err, tc.code)
			}
			if after, err := s.ForOwner(owner).ListRuns(ctx, existing, 100, 0); err != nil || len(after) != len(before) {
				t.Fatalf("runs on the thread: %d before, %d after (%v)", len(before), len(after), err)
			}
		})
	}
}

// A delayed run holds its thread at once but is not claimed before its
// delay has passed; a cancel ends it without a worker. A run names its
// assistant and stamps the thread's metadata; runs are listed by status.
func TestDelayedRunsAndRunFilters(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	owner, thread := newThread(t, s, "delayed")
	o := s.ForOwner(owner)
	claimQueued(t, s) // what other tests left in the shared queue
	stamp := json.RawMessage(`{"graph_id":"trip-planner","assistant_id":"a1"}`)
	later, err := o.CreateRun(ctx, thread, NewRun{Delay: time.Hour, AssistantID: "a1", ThreadMetadata: stamp})
	if err != nil {
		t.Fatal(err)
	}
	if later.Status != RunPending || later.NotBefore == nil || later.AssistantID != "a1" {
		t.Fatalf("delayed run %+v", later)
	}
	if _, ok, err := s.ClaimRun(ctx, "w1", time.Minute); err != nil || ok {
		t.Fatalf("a delayed run was claimed before its time: %v, %v", ok, err)
	}
	_, err = o.CreateRun(ctx, thread, NewRun{})
	wantCode(t, "a run beside a delayed one", err, errcode.Conflict)
	th, err := o.Thread(ctx, thread)
	if err != nil || !bytes.Contains(th.Metadata, []byte(`"graph_id": "trip-planner"`)) || !bytes.Contains(th.Metadata, []byte(`"assistant_id": "a1"`)) {
		t.Fatalf("thread metadata after a run: %s, %v", th.Metadata, err)
	}
	if _, err := o.CancelRun(ctx, later.ID); err != nil {
		t.Fatal(err)
	}
	soon, err := o.CreateRun(ctx, thread, NewRun{Delay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond) // past its delay
	if claimed, ok, err := s.ClaimRun(ctx, "w1", time.Minute); err != nil || !ok || claimed.ID != soon.ID {
		t.Fatalf("the run whose delay has passed was not claimed: %+v, %v, %v", claimed, ok, err)
	}
	for status, want := range map[string]int{RunCancelled: 1, RunRunning: 1, RunSuccess: 0} {
		if list, err := o.ListRuns(ctx, thread, 10, 0, status); err != nil || len(list) != want {
			t.Errorf("runs %s: %d, %v; want %d", status, len(list), err, want)
		}
	}
	if list, _ := o.ListRuns(ctx, thread, 10, 0); len(list) != 2 {
		t.Errorf("all runs: %d, want 2", len(list))
	}
}

// claimQueued claims every run that may start now, so that a test's claims
// meet only the runs it queues itself.
func claimQueued(t *testing.T, s *Store) {
	t.Helper()
	for {
		_, ok, err := s.ClaimRun(context.Background(), "drain", time.Minute)
		if err != nil {
			t.Fatalf("emptying the queue: %v", err)
		}
		if !ok {
			return
		}
	}
}

// Two processes create runs for one user at once, on threads of their own
// and on new ones: the user's row is locked before their active runs are
// counted, so exactly the limit's runs are created, and every other is
// refused with TOO_MANY_REQUESTS.
func TestActiveRunLimitHoldsAcrossProcesses(t *testing.T) {
	ctx := context.Background()
	url := migratedDatabase(t)
	const limit, tries = 5, 24
	stores := make([]*Store, 2)
	for i := range stores {
		var err error
		if stores[i], err = OpenWith(ctx, url, Options{Limits: quota.Limits{ActiveRuns: limit}}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stores[i].Close)
	}
	owner, _ := newThread(t, stores[0], "racer")
	threads := make([]string, tries)
	for i := range threads {
		th, err := stores[0].ForOwner(owner).CreateThread(ctx, NewThread{})
		if err != nil {
			t.Fatal(err)
		}
		threads[i] = th.ID
	}
	errs := make(chan error, tries)
	var wg sync.WaitGroup
	for i, th := range threads {
		wg.Go(func() {
			o := stores[i%2].ForOwner(owner)
			var err error
			if i%3 == 0 {
				_, err = o.CreateRunOnNewThread(ctx, NewThread{}, NewRun{})
			} else {
				_, err = o.CreateRun(ctx, th, NewRun{})
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	created := 0
	for err := range errs {
		switch {
		case err == nil:
			created++
		case errcode.Of(err) != errcode.TooManyRequests:
			t.Errorf("creating a run: %v", err)
		}
	}
	var active int
	if err := stores[0].Pool.QueryRow(ctx, countActiveRuns, owner).Scan(&active); err != nil {
		t.Fatal(err)
	}
	if created != limit || active != limit {
		t.Errorf("%d runs created (%d active), want the limit's %d", created, active, limit)
	}
}
