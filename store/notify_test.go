package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/tripgraph/tripgraph/testing/sqllog"
)

// listenTo opens a connection of the test's own that listens on the run
// channels of s's database.
func listenTo(t *testing.T, s *Store) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.ConnectConfig(ctx, s.Pool.Config().ConnConfig.Copy())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	for _, ch := range []string{RunEventsChannel, RunQueueChannel, RunCancelChannel} {
		if _, err := conn.Exec(ctx, "LISTEN "+ch); err != nil {
			t.Fatal(err)
		}
	}
	return conn
}

// heard returns the notifications conn receives until none comes for a
// quiet while, as "channel payload".
func heard(t *testing.T, conn *pgx.Conn, quiet time.Duration) (got []*pgconn.Notification) {
	t.Helper()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), quiet)
		n, err := conn.WaitForNotification(ctx)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, n)
	}
}

// The transactions that change runs announce nothing themselves: every
// announcement comes, after they commit, from the store's notifier, on
// a connection of its own (a transaction that notifies holds a lock
// every other one that notifies waits for, until it is on disk).
func TestRunsAreAnnouncedByTheNotifierAfterTheirCommit(t *testing.T) {
	ctx := context.Background()
	s := openQueueStores(t, 1)[0]
	conn := listenTo(t, s)
	owner, thread := newThread(t, s, "announced")
	run := mustCreate(t, s, owner, thread, "")
	held := mustClaim(t, s, "w")
	appended, err := s.AppendRunEvents(ctx, held.Lease(), []NewRunEvent{{Event: "values", Data: []byte(`{}`)}})
	if err != nil {
		t.Fatal(err)
	}
	s.PublishRunEvents(appended)
	if _, err := s.ForOwner(owner).CancelRun(ctx, run.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FinishRun(ctx, held.Lease(), RunCancelled, ""); err != nil {
		t.Fatal(err)
	}
	want := []string{
		RunQueueChannel + " ",
		RunEventsChannel + " " + run.ID + ":" + strconv.FormatInt(appended[0].Seq, 10),
		RunCancelChannel + " " + run.ID + ":" + thread,
		RunEventsChannel + " " + run.ID + ":cancelled:" + strconv.FormatInt(appended[0].Seq, 10),
	}
	got := heard(t, conn, time.Second)
	if len(got) != len(want) {
		for _, n := range got {
			t.Logf("heard %s %q from backend %d", n.Channel, n.Payload, n.PID)
		}
		t.Fatalf("heard %d notifications, want %d", len(got), len(want))
	}
	notifier := s.notifier.pid.Load()
	for i, n := range got {
		if line := n.Channel + " " + n.Payload; line != want[i] {
			t.Errorf("notification %d is %q, want %q", i+1, line, want[i])
		}
		if n.PID != notifier {
			t.Errorf("notification %d (%s %s) came from backend %d, not the notifier's %d: a transaction sent it",
				i+1, n.Channel, n.Payload, n.PID, notifier)
		}
	}
}

// A notifier whose connection is cut sends what it was sending again on
// a new one.
func TestNotifierSendsAgainOnANewConnection(t *testing.T) {
	ctx := context.Background()
	s := openQueueStores(t, 1)[0]
	conn := listenTo(t, s)
	s.announce(note{RunQueueChannel, "first"})
	heard(t, conn, 500*time.Millisecond)
	pid := s.notifier.pid.Load()
	if _, err := s.Pool.Exec(ctx, `SELECT pg_terminate_backend($1)`, pid); err != nil {
		t.Fatal(err)
	}
	s.announce(note{RunQueueChannel, "second"})
	got := heard(t, conn, 2*time.Second)
	if len(got) != 1 || got[0].Payload != "second" {
		t.Fatalf("after the notifier's connection was cut, heard %v, want the second note", got)
	}
	if got[0].PID == pid {
		t.Error("the note came from the connection that was cut")
	}
}

// A notifier that cannot send keeps what it cannot send up to a bound;
// past it, it drops the notes and, once it sends again, tells every
// listener of each run channel to read what it follows again.
func TestNotifierThatDroppedNotesTellsEveryone(t *testing.T) {
	s := openQueueStores(t, 1)[0]
	conn := listenTo(t, s)
	open := make(chan struct{})
	nf := startNotifier(func(ctx context.Context) (*pgx.Conn, error) {
		select {
		case <-open:
			return pgx.ConnectConfig(ctx, s.Pool.Config().ConnConfig.Copy())
		default:
			return nil, errors.New("the database cannot be reached")
		}
	})
	t.Cleanup(nf.close)
	n := make(notes, maxQueuedNotes/2+1)
	for i := range n {
		n[i] = note{RunEventsChannel, fmt.Sprintf("run:%d", i)}
	}
	nf.queue(n)
	nf.queue(n) // past the bound: all dropped
	close(open)
	nf.queue(notes{{RunQueueChannel, "after"}})
	got := heard(t, conn, 2*time.Second)
	var lines []string
	for _, x := range got {
		lines = append(lines, x.Channel+" "+x.Payload)
	}
	want := []string{RunEventsChannel + " *", RunQueueChannel + " *", RunCancelChannel + " *", RunQueueChannel + " after"}
	if fmt.Sprint(lines) != fmt.Sprint(want) {
		t.Fatalf("heard %q, want %q", lines, want)
	}
}

// A follower that hears nothing of its run for followQuiet reads the
// table anyway: the process that ended the run may have stopped before it
// announced the end.
func TestFollowerReadsAgainWhenItHearsNothing(t *testing.T) {
	stores := openQueueStores(t, 2)
	writer, reader := stores[0], stores[1]
	owner, run := claimedRun(t, writer, "quiet", "w")
	appendEvents(t, writer, owner, run.ID, 1, 1)
	listening(t, reader)
	defer func(was time.Duration) { followQuiet = was }(followQuiet)
	followQuiet = 200 * time.Millisecond
	got, err := follow(t, reader, owner, run.ID, 0, func(RunEvent) {
		// The run ends, and its end is never announced.
		if _, err := writer.Pool.Exec(context.Background(),
			`UPDATE runs SET status = 'success', finished_at = now() WHERE id = $1`, run.ID); err != nil {
			t.Error(err)
		}
	})
	if err != nil || len(got) != 1 {
		t.Fatalf("following a run whose end was not announced: %d events, %v", len(got), err)
	}
}

// A store that is closed starts no notifier again: what a late change
// announces reaches this process's listeners only.
func TestClosedStoreStartsNoNotifier(t *testing.T) {
	s := openQueueStores(t, 1)[0]
	s.announce(note{RunQueueChannel, ""})
	s.Close()
	s.announce(note{RunQueueChannel, ""})
	s.hubMu.Lock()
	defer s.hubMu.Unlock()
	if s.notifier != nil {
		t.Error("announcing after Close started a notifier")
	}
}

// A notifier sends a note queued after a quiet while at once, and those
// queued soon after a send together once its spacing has passed (here, when
// it closes, which does not wait for it): one statement for them all.
func TestNotifierSpacesItsSends(t *testing.T) {
	s := openQueueStores(t, 1)[0]
	conn := listenTo(t, s)
	rec := &sqllog.Recorder{}
	cfg := s.Pool.Config().ConnConfig.Copy()
	cfg.Tracer = rec
	nf := startNotifier(func(ctx context.Context) (*pgx.Conn, error) { return pgx.ConnectConfig(ctx, cfg) })
	nf.spacing = time.Hour
	rec.Start()
	nf.queue(notes{{RunQueueChannel, "first"}})
	if got := heard(t, conn, 2*time.Second); len(got) != 1 || got[0].Payload != "first" {
		t.Fatalf("a note after a quiet while: heard %v, want it at once", got)
	}
	nf.queue(notes{{RunQueueChannel, "second"}})
	nf.queue(notes{{RunQueueChannel, "third"}})
	if got := heard(t, conn, 300*time.Millisecond); len(got) != 0 {
		t.Fatalf("notes queued just after a send were sent before its spacing passed: %v", got)
	}
	nf.close()
	if got := heard(t, conn, 2*time.Second); len(got) != 2 {
		t.Fatalf("a closing notifier sent %v, want the second and third notes", got)
	}
	if sends := len(rec.Stop()); sends != 2 {
		t.Errorf("%d statements for three notes, want 2", sends)
	}
}
