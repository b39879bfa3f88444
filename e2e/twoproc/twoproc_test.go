// Package twoproc runs two `tripgraph serve` processes on one database: a
// run started through one is streamed through the other, the process that
// executes it is killed mid-run, and the other takes the run over once the
// lease lapses.
package twoproc

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/testing/servetest"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/testing/openaitest"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

var testURL string

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "twoproc", &testURL)) }

// frame is one SSE frame.
type frame struct {
	id    int64 // 0 when the frame has none
	event string
}

func TestKilledWorkerRunIsTakenOverAndStreamedElsewhere(t *testing.T) {
	pgtest.Skip(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	key := servetest.Prepare(t, testURL, "twoproc-traveller")[0]
	bin := servetest.Build(t)

	// The model holds its first request until the asking process dies:
	// that process is then mid-run, with its lease held. Later requests are
	// answered from a script.
	modelURL, held := heldModel(t)

	addrA := servetest.FreeAddr(t)
	a := serve(t, bin, addrA, modelURL)
	tid := servetest.PostJSON(t, addrA, key, "/threads", `{}`)["thread_id"].(string)
	rid := servetest.PostJSON(t, addrA, key, "/threads/"+tid+"/runs",
		`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"two days in Lisbon"}]}}`)["run_id"].(string)
	select {
	case <-held:
	case <-ctx.Done():
		t.Fatal("process A never asked the model")
	}

	addrB := servetest.FreeAddr(t)
	serve(t, bin, addrB, modelURL)
	type streamed struct {
		frames []frame
		ended  bool
	}
	frames := make(chan streamed, 1)
	go func() {
		f, ended := stream(ctx, t, addrB, key, tid, rid)
		frames <- streamed{f, ended}
	}()

	var beforeKill int
	if err := servetest.QueryRow(testURL, `SELECT count(*) FROM run_events WHERE run_id = $1`, rid, &beforeKill); err != nil {
		t.Fatal(err)
	}
	if err := a.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	out := <-frames
	got := out.frames
	if !out.ended {
		t.Fatalf("the stream through B did not end within the time limit: %v", got)
	}

	ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, testURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var status string
	var attempts int
	if err := conn.QueryRow(ctx, `SELECT status, attempts FROM runs WHERE id = $1`, rid).Scan(&status, &attempts); err != nil {
		t.Fatal(err)
	}
	if status != "success" || attempts != 2 {
		t.Fatalf("run ended %q after %d claims, want success after 2", status, attempts)
	}
	rows, err := conn.Query(ctx, `SELECT seq, event FROM run_events WHERE run_id = $1 ORDER BY seq`, rid)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (frame, error) {
		var f frame
		return f, r.Scan(&f.id, &f.event)
	})
	if err != nil {
		t.Fatal(err)
	}
	checkFrames(t, got, stored)
	t.Logf("%d events streamed through B, %d of them stored by A before it was killed", len(stored), beforeKill)
}

// checkFrames checks that the stream opened with metadata and carried
// every stored event once, in order, and nothing after the last (as
// LangGraph's own server, it sends no frame to say it ends).
func checkFrames(t *testing.T, got, stored []frame) {
	t.Helper()
	if len(stored) == 0 {
		t.Fatal("the run stored no events")
	}
	if len(got) < 2 || got[0].event != "metadata" {
		t.Fatalf("stream %v does not open with metadata", got)
	}
	body := got[1:]
	if len(body) != len(stored) {
		t.Fatalf("streamed %d events %v, stored %d %v", len(body), body, len(stored), stored)
	}
	for i := range stored {
		if body[i] != stored[i] {
			t.Errorf("event %d streamed as %v, stored as %v", i, body[i], stored[i])
		}
	}
}

// everyMode asks a join for every mode a run stores (a join with none
// streams the modes the run was created with: values alone here).
const everyMode = "stream_mode=values&stream_mode=updates&stream_mode=messages-tuple&stream_mode=custom"

// stream reads the run's SSE stream from the process at addr, every mode,
// until it ends, and reports whether the server ended it (rather than
// ctx's deadline).
func stream(ctx context.Context, t *testing.T, addr, key, tid, rid string) ([]frame, bool) {
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+addr+"/threads/"+tid+"/runs/"+rid+"/stream?"+everyMode, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return nil, false
	}
	defer resp.Body.Close()
	var frames []frame
	for _, f := range servetest.ReadSSE(resp.Body) {
		frames = append(frames, frame{id: f.ID, event: f.Event})
	}
	return frames, ctx.Err() == nil
}

// serve runs `serve` on addr, with its model at modelURL, one worker and
// 2 s leases (so that B takes the killed A's run over within about 3 s),
// until the test ends or the test kills it.
func serve(t *testing.T, bin, addr, modelURL string) *exec.Cmd {
	t.Helper()
	return servetest.Serve(t, bin, addr, testURL, "TRIPGRAPH_MODEL=openai:scripted", "OPENAI_API_KEY=test",
		"OPENAI_BASE_URL="+modelURL, "TRIPGRAPH_WORKERS=1", "TRIPGRAPH_RUN_LEASE=2s")
}

// heldModel is a model that never answers its first request (it is held
// until the asking process is gone or the test ends) and answers the
// later ones from a script: a trip's extraction, then a reply. It returns
// the model's base URL and a channel closed when the first request came.
func heldModel(t *testing.T) (url string, held <-chan struct{}) {
	t.Helper()
	script := openaitest.New(
		openaitest.Reply{ToolCalls: []openaitest.ToolCall{{ID: "call_x", Name: "extract",
			Arguments: `{"location":"Lisbon","startDate":"2027-05-01","nights":2,"numberOfGuests":2,"intent":"accommodations","language":"en"}`}}},
		openaitest.Reply{Content: "Lisbon: Belém in the morning, Alfama at night."},
	)
	t.Cleanup(script.Close)
	testDone, first := make(chan struct{}), make(chan struct{})
	var once sync.Once
	gate := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		isFirst := false
		once.Do(func() { isFirst = true })
		if isFirst {
			close(first)
			select { // until the asking process is gone, or the test ends
			case <-r.Context().Done():
			case <-testDone:
			}
			return
		}
		script.Config.Handler.ServeHTTP(w, r)
	})
	model := &http.Server{Handler: gate}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go model.Serve(ln)
	t.Cleanup(func() { model.Close() })
	// Cleanups run last first: a held request that no client cancelled
	// ends before the model closes.
	t.Cleanup(func() { close(testDone) })
	return "http://" + ln.Addr().String() + "/v1", first
}
