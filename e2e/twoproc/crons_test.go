package twoproc

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/servetest"
)

// atMinute waits for a real minute boundary instead of moving the crons'
// due time to a few seconds ahead: the long form of the test below (up to
// a minute more).
var atMinute = flag.Bool("crons.minute", false, "in TestCronsFireOnceAcrossProcesses, wait for the crons' real minute instead of making them due in a few seconds")

// Fifty crons due at the same minute, on two serve processes sharing the
// database, one of which is SIGKILLed while it executes one of their runs:
// each cron starts exactly one run, and every run ends.
func TestCronsFireOnceAcrossProcesses(t *testing.T) {
	pgtest.Skip(t)
	const n = 50
	key := servetest.Prepare(t, testURL, "twoproc-crons")[0]
	bin := servetest.Build(t)
	// One user's fifty runs at once: past the default limit of runs queued
	// and running, which would skip the due times of thirty.
	env := []string{"TRIPGRAPH_WORKERS=2", "TRIPGRAPH_RUN_LEASE=2s", "TRIPGRAPH_RATE_LIMIT=1000", "TRIPGRAPH_RATE_BURST=1000",
		fmt.Sprintf("TRIPGRAPH_MAX_ACTIVE_RUNS=%d", n)}
	addrA, addrB := servetest.FreeAddr(t), servetest.FreeAddr(t)
	a := servetest.Serve(t, bin, addrA, testURL, env...)
	workersA := workersOf(t, addrA, key) // before B starts: A alone can claim the run
	servetest.Serve(t, bin, addrB, testURL, env...)

	// Each cron on a thread of its own, every minute, ending after the
	// first minute it is due: one due time each.
	first := time.Now().UTC().Truncate(time.Minute).Add(time.Minute)
	if time.Until(first) < 15*time.Second { // room to create them all within this minute
		time.Sleep(time.Until(first) + 100*time.Millisecond)
		first = first.Add(time.Minute)
	}
	end := first.Add(30 * time.Second).Format(time.RFC3339)
	ids := make([]string, n)
	t.Cleanup(func() { // none left by a failed run fires in the package's later tests
		servetest.QueryRow(testURL, `WITH d AS (DELETE FROM crons WHERE id::text = ANY($1) RETURNING 1) SELECT count(*) FROM d`, ids, new(int))
	})
	for i := range ids {
		tid := servetest.PostJSON(t, addrA, key, "/threads", `{}`)["thread_id"].(string)
		body := fmt.Sprintf(`{"assistant_id":"trip-planner","schedule":"* * * * *","end_time":%q,"input":{"messages":[{"role":"user","content":"2 nights in Lisbon in May, 2 of us"}]}}`, end)
		c := servetest.PostJSON(t, addrB, key, "/threads/"+tid+"/runs/crons", body)
		ids[i] = c["cron_id"].(string)
		if due, _ := time.Parse(time.RFC3339, c["next_run_date"].(string)); !due.Equal(first) {
			t.Fatalf("cron %d is first due at %s, want %s", i, due, first)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, testURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	due := first
	if !*atMinute { // the same minute, a few seconds from now
		due = time.Now().Add(3 * time.Second)
		if _, err := conn.Exec(ctx, `UPDATE crons SET next_run_at = $1, end_time = $1 WHERE id = ANY($2::uuid[])`, due, ids); err != nil {
			t.Fatal(err)
		}
	}
	// Kill A once the crons are due and one of A's workers is executing one
	// of their runs (or 5 seconds after, if none of A's ever does).
	time.Sleep(time.Until(due))
	busy := 0
	for deadline := time.Now().Add(5 * time.Second); busy == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM runs WHERE metadata->>'cron_id' = ANY($1)
				AND status = 'running' AND starts_with(worker_id, $2)`, ids, workersA).Scan(&busy); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killedAt := time.Now()

	var runs, crons, ended, taken int
	for {
		err := conn.QueryRow(ctx, `SELECT count(*), count(DISTINCT metadata->>'cron_id'),
				count(*) FILTER (WHERE status = 'success'), count(*) FILTER (WHERE attempts > 1)
			FROM runs WHERE metadata->>'cron_id' = ANY($1)`, ids).Scan(&runs, &crons, &ended, &taken)
		if err != nil {
			t.Fatal(err)
		}
		if runs > n {
			t.Fatalf("%d runs for %d crons: a due time started more than one", runs, crons)
		}
		if ended == n {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%d runs of %d crons, %d ended, when the time ran out", runs, crons, ended)
		case <-time.After(200 * time.Millisecond):
		}
	}
	var late int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM crons WHERE id = ANY($1::uuid[]) AND next_run_at IS NOT NULL`, ids).Scan(&late); err != nil {
		t.Fatal(err)
	}
	if runs != n || crons != n || late != 0 {
		t.Errorf("%d runs for %d crons, %d crons still due; want %d runs, one per cron, none due", runs, crons, late, n)
	}
	t.Logf("%d crons, %d runs, all ended %s after A was killed %s after they were due, executing %d of them; %d runs taken over from A",
		crons, runs, time.Since(killedAt).Round(100*time.Millisecond), killedAt.Sub(due).Round(10*time.Millisecond), busy, taken)
}

// workersOf is the prefix of the worker ids of the only serve process on
// addr: that of the worker that executes a run started through it.
func workersOf(t *testing.T, addr, key string) string {
	t.Helper()
	tid := servetest.PostJSON(t, addr, key, "/threads", `{}`)["thread_id"].(string)
	servetest.PostJSON(t, addr, key, "/threads/"+tid+"/runs/wait", `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"hello"}]}}`)
	var worker string
	if err := servetest.QueryRow(testURL, `SELECT worker_id FROM runs WHERE thread_id = $1`, tid, &worker); err != nil {
		t.Fatal(err)
	}
	i := strings.LastIndexByte(worker, '-') // a process's workers are <its id>-<n>
	if i < 0 {
		t.Fatalf("worker id %q has no process part", worker)
	}
	return worker[:i+1]
}
