package tenanttest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store"
)

// A run's events: appended only by the worker whose lease holds the run,
// each position once; read in pages after a seq; followed live until the
// run ends.
var eventsCases = []suiteCase{
	{"appends are fenced by the lease", testFencedAppend},
	{"each position is appended once", testPositions},
	{"followers get every event, then the end", testFollow},
	{"a follower of a queued run that is cancelled ends", testFollowCancelledQueued},
	{"followers page through many events", testFollowPages},
}

// A worker whose lease was taken over appends nothing to the run's stream;
// the worker that holds the run now does. Events read back after a seq.
func testFencedAppend(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	run := mustCreate(t, mine, thread, "")
	first := mustClaim(t, b, "w1")
	if _, err := b.Queue.AppendRunEvents(ctx, first.Lease(), []store.NewRunEvent{{Event: "values", Data: []byte(`{"by":"w1"}`)}}); err != nil {
		t.Fatal(err)
	}
	lapse(t, b, first.Lease())
	if _, err := b.Queue.ReclaimExpired(ctx, 3); err != nil {
		t.Fatal(err)
	}
	second := mustClaim(t, b, "w2")
	if _, err := b.Queue.AppendRunEvents(ctx, first.Lease(), []store.NewRunEvent{{Event: "values", Data: []byte(`{"by":"w1, late"}`)}}); !lost(err) {
		t.Fatalf("the old worker's append: %v, want a lost lease", err)
	}
	for _, e := range []string{"updates", "custom", "end"} {
		if _, err := b.Queue.AppendRunEvents(ctx, second.Lease(), []store.NewRunEvent{{Event: e, Data: []byte(`{"by":"w2"}`)}}); err != nil {
			t.Fatal(err)
		}
	}
	all, err := mine.RunEvents(ctx, run.ID, 0, 0)
	if err != nil || !slices.Equal(eventNames(all), []string{"values", "updates", "custom", "end"}) || string(all[0].Data) != `{"by":"w1"}` {
		t.Fatalf("the run's stream: %v, %v; want w1's then w2's", eventNames(all), err)
	}
	for i := 1; i < len(all); i++ {
		if all[i].Seq <= all[i-1].Seq {
			t.Fatalf("seqs do not grow: %d then %d", all[i-1].Seq, all[i].Seq)
		}
	}
	rest, err := mine.RunEvents(ctx, run.ID, all[1].Seq, 1)
	if err != nil || !slices.Equal(eventNames(rest), []string{"custom"}) {
		t.Fatalf("one event after seq %d: %v, %v", all[1].Seq, eventNames(rest), err)
	}
}

// Events with a position the run's stream holds already (an earlier
// attempt appended them before its worker stopped) are not appended
// again; those without one always are.
func testPositions(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	run := mustCreate(t, mine, thread, "")
	first := mustClaim(t, b, "w1")
	ev := func(name, position string) store.NewRunEvent {
		return store.NewRunEvent{Event: name, Data: []byte(`"` + name + `"`), Position: position}
	}
	got, err := b.Queue.AppendRunEvents(ctx, first.Lease(), []store.NewRunEvent{ev("a", "1.a"), ev("b", "1.b"), ev("c", ""), ev("b again", "1.b")})
	if err != nil || !slices.Equal(eventNames(got), []string{"a", "b", "c"}) {
		t.Fatalf("the first attempt appended %v, %v", eventNames(got), err)
	}
	lapse(t, b, first.Lease())
	if _, err := b.Queue.ReclaimExpired(ctx, 3); err != nil {
		t.Fatal(err)
	}
	second := mustClaim(t, b, "w2")
	if got, err = b.Queue.AppendRunEvents(ctx, second.Lease(), []store.NewRunEvent{ev("a2", "1.a"), ev("b2", "1.b")}); err != nil || len(got) != 0 {
		t.Fatalf("a batch already in the stream: appended %v, %v", eventNames(got), err)
	}
	got, err = b.Queue.AppendRunEvents(ctx, second.Lease(), []store.NewRunEvent{ev("d", "2.a"), ev("e", "")})
	if err != nil || !slices.Equal(eventNames(got), []string{"d", "e"}) || got[0].Seq >= got[1].Seq {
		t.Fatalf("the second attempt appended %+v, %v", got, err)
	}
	stream, err := mine.RunEvents(ctx, run.ID, 0, 0)
	if err != nil || !slices.Equal(eventNames(stream), []string{"a", "b", "c", "d", "e"}) || string(stream[0].Data) != `"a"` {
		t.Fatalf("the run's stream: %v, %v", eventNames(stream), err)
	}
}

// A follower gets the events stored before it joined and those appended
// after, in order, and ends once the run has ended and it has them all;
// it may start after a seq. Another owner's follower gets NOT_FOUND.
func testFollow(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, theirs, _, _ := two(t, b)
	th, err := mine.CreateThread(ctx, store.NewThread{})
	if err != nil {
		t.Fatal(err)
	}
	run := mustCreate(t, mine, th.ID, "")
	c := mustClaim(t, b, "w")
	appendN(t, b, c.Lease(), 0, 3)
	followed := make(chan []store.RunEvent, 1)
	failed := make(chan error, 1)
	go func() {
		var got []store.RunEvent
		for e, err := range mine.FollowRunEvents(ctx, run.ID, 0) {
			if err != nil {
				failed <- err
				return
			}
			got = append(got, e)
			if len(got) == 3 {
				appendN(t, b, c.Lease(), 3, 2)
				if _, err := b.Queue.FinishRun(ctx, c.Lease(), store.RunSuccess, ""); err != nil {
					failed <- err
					return
				}
			}
		}
		followed <- got
	}()
	select {
	case got := <-followed:
		if want := []string{"e0", "e1", "e2", "e3", "e4"}; !slices.Equal(eventNames(got), want) {
			t.Fatalf("followed %v, want %v", eventNames(got), want)
		}
		var tail []store.RunEvent
		for e, err := range mine.FollowRunEvents(ctx, run.ID, got[2].Seq) {
			if err != nil {
				t.Fatal(err)
			}
			tail = append(tail, e)
		}
		if want := []string{"e3", "e4"}; !slices.Equal(eventNames(tail), want) {
			t.Fatalf("following after the third: %v, want %v", eventNames(tail), want)
		}
	case err := <-failed:
		t.Fatal(err)
	case <-time.After(20 * time.Second): // a bound on a hang
		t.Fatal("the follower never ended")
	}
	for _, err := range theirs.FollowRunEvents(ctx, run.ID, 0) {
		if errcode.Of(err) != errcode.NotFound {
			t.Fatalf("another owner following the run: %v, want NOT_FOUND", err)
		}
	}
}

// appendN appends n events named e<from>, e<from+1>…
func appendN(t *testing.T, b Backend, l store.Lease, from, n int) {
	t.Helper()
	var events []store.NewRunEvent
	for i := range n {
		events = append(events, store.NewRunEvent{Event: fmt.Sprintf("e%d", from+i), Data: []byte(`{}`)})
	}
	if _, err := b.Queue.AppendRunEvents(context.Background(), l, events); err != nil {
		t.Error(err)
	}
}

// A follower of a queued run that an interrupt cancels ends too.
func testFollowCancelledQueued(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	mustCreate(t, mine, thread, "")
	queued := mustCreate(t, mine, thread, store.MultitaskEnqueue)
	done := make(chan error, 1)
	go func() {
		for _, err := range mine.FollowRunEvents(ctx, queued.ID, 0) {
			if err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	mustCreate(t, mine, thread, store.MultitaskInterrupt)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second): // a bound on a hang
		t.Fatal("the follower of a cancelled queued run never ended")
	}
	if r := runOf(t, mine, queued.ID); r.Status != store.RunCancelled {
		t.Fatalf("the queued run is %s", r.Status)
	}
}

// A follower reads a stream longer than a page to its end.
func testFollowPages(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	run := mustCreate(t, mine, thread, "")
	c := mustClaim(t, b, "w")
	const n = 2500
	for i := 0; i < n; i += 500 {
		appendN(t, b, c.Lease(), i, 500)
	}
	if _, err := b.Queue.FinishRun(ctx, c.Lease(), store.RunSuccess, ""); err != nil {
		t.Fatal(err)
	}
	got := 0
	for e, err := range mine.FollowRunEvents(ctx, run.ID, 0) {
		if err != nil {
			t.Fatal(err)
		}
		if e.Event != fmt.Sprintf("e%d", got) {
			t.Fatalf("event %d is %s", got, e.Event)
		}
		got++
	}
	if got != n {
		t.Fatalf("followed %d events, want %d", got, n)
	}
	if page, _ := mine.RunEvents(ctx, run.ID, 0, 0); len(page) != 1000 {
		t.Fatalf("one read gave %d events, want a page of 1000", len(page))
	}
}

func eventNames(events []store.RunEvent) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.Event)
	}
	return out
}
