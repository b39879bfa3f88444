// Package shutdown stops a `tripgraph serve` with SIGTERM while it executes
// and streams runs, and checks that it stops within its grace period, hands
// the runs back to the queue, ends its streams with an error that says to
// join again, and that a second process finishes the runs.
package shutdown

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/testing/openaitest"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/servetest"
)

var testURL string

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "shutdown", &testURL)) }

// grace is process A's TRIPGRAPH_SHUTDOWN_GRACE.
const grace = 2 * time.Second

// frame is one SSE frame of a LangGraph stream.
type frame struct {
	id          int64 // 0 when the frame has none
	event, data string
}

func TestSIGTERMHandsRunsBackAndEndsStreams(t *testing.T) {
	pgtest.Skip(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	key := servetest.Prepare(t, testURL, "shutdown-traveller")[0]
	bin := servetest.Build(t)

	// While A lives, the model holds every request until its client gives
	// up: A's runs are mid-run when it is told to stop, and cannot finish
	// within the grace. Then it answers from a script, one run at a time.
	extract := openaitest.Reply{ToolCalls: []openaitest.ToolCall{{ID: "call_x", Name: "extract",
		Arguments: `{"location":"Lisbon","startDate":"2027-05-01","nights":2,"numberOfGuests":2,"intent":"accommodations","language":"en"}`}}}
	answer := openaitest.Reply{Content: "Lisbon: Belém in the morning, Alfama at night."}
	script := openaitest.New(extract, answer, extract, answer)
	defer script.Close()
	var holding atomic.Bool
	holding.Store(true)
	held := make(chan struct{}, 8)
	testDone := make(chan struct{})
	model := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if holding.Load() {
			held <- struct{}{}
			select { // until the asking process is gone, or the test ends
			case <-r.Context().Done():
			case <-testDone:
			}
			return
		}
		script.Config.Handler.ServeHTTP(w, r)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go model.Serve(ln)
	defer model.Close()
	defer close(testDone) // first: a held request that no client cancelled ends before the model closes

	modelURL := "http://" + ln.Addr().String() + "/v1"

	addrA := servetest.FreeAddr(t)
	a := serve(t, bin, addrA, modelURL, "TRIPGRAPH_WORKERS=2", "TRIPGRAPH_SHUTDOWN_GRACE="+grace.String())
	tid := servetest.PostJSON(t, addrA, key, "/threads", `{}`)["thread_id"].(string)
	lg := open(ctx, t, addrA, key, "POST", "/threads/"+tid+"/runs/stream",
		`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"two days in Lisbon"}]},"stream_mode":["values","updates","custom","messages-tuple"]}`, "")
	rid := runOf(t, lg)
	framesA := make(chan []frame, 1)
	go func() { framesA <- readFrames(lg.Body) }()
	chat := open(ctx, t, addrA, key, "POST", "/api/chat", `{"messages":[{"role":"user","content":"two days in Lisbon"}]}`, "")
	chatTid, chatRid := threadOf(t, chat), runOf(t, chat)
	chatA := make(chan []string, 1)
	go func() { chatA <- readData(chat.Body) }()
	for range 2 {
		select {
		case <-held:
		case <-ctx.Done():
			t.Fatal("A's two runs never both asked the model")
		}
	}

	if err := a.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- a.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("A exited with %v after SIGTERM", err)
		}
	case <-time.After(grace + 30*time.Second):
		t.Fatalf("A did not exit within %s of SIGTERM (its grace plus 30 s)", grace)
	}

	got := <-framesA
	n := len(got)
	if n < 2 || got[0].event != "metadata" || got[n-1].event != "error" ||
		!strings.Contains(got[n-1].data, `"error":"UNAVAILABLE"`) || !strings.Contains(got[n-1].data, "Last-Event-ID") {
		t.Fatalf("A's LangGraph stream does not end with an UNAVAILABLE error that says to join again: %v", got)
	}
	parts := <-chatA
	if p := len(parts); p < 3 || parts[p-1] != "[DONE]" || !strings.Contains(parts[p-2], `"type":"finish"`) ||
		!strings.Contains(parts[p-3], `"type":"error"`) || !strings.Contains(parts[p-3], "shutting down") {
		t.Fatalf("A's chat stream does not end with an error, finish and [DONE]: %v", parts)
	}
	for _, id := range []string{rid, chatRid} {
		var status string
		var attempts int
		var leased bool
		if err := servetest.QueryRow(testURL, `SELECT status, attempts, lease_expires_at IS NOT NULL FROM runs WHERE id = $1`, id, &status, &attempts, &leased); err != nil {
			t.Fatal(err)
		}
		if status != "pending" || attempts != 1 || leased {
			t.Fatalf("run %s after A stopped: %s after %d claims, leased %v; want pending, handed back", id, status, attempts, leased)
		}
	}

	// B takes both runs from the queue; the LangGraph client joins again
	// from the last event A sent, and gets the rest.
	holding.Store(false)
	addrB := servetest.FreeAddr(t)
	serve(t, bin, addrB, modelURL, "TRIPGRAPH_WORKERS=1")
	last := int64(0)
	for _, f := range got {
		last = max(last, f.id)
	}
	join := open(ctx, t, addrB, key, "GET", "/threads/"+tid+"/runs/"+rid+"/stream", "", strconv.FormatInt(last, 10))
	rest := readFrames(join.Body)
	join.Body.Close()
	if len(rest) < 2 || ctx.Err() != nil || rest[len(rest)-1].event == "error" {
		t.Fatalf("the joined stream through B did not end with the run's output: %v", rest)
	}
	checkWhole(t, rid, append(body(got), body(rest)...))
	// B resumed the run from A's checkpoint instead of starting it over:
	// the person's message is in the thread once.
	var state struct {
		Values struct {
			Messages []struct{ Type, Content string }
		}
	}
	getJSON(ctx, t, addrB, key, "/threads/"+tid+"/state", &state)
	humans := 0
	for _, m := range state.Values.Messages {
		if m.Type == "human" {
			humans++
		}
	}
	if humans != 1 || len(state.Values.Messages) < 2 {
		t.Fatalf("the thread's messages after B finished the run: %+v", state.Values.Messages)
	}

	// The chat's run, next in B's queue, ends too.
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+addrB+"/threads/"+chatTid+"/runs/"+chatRid+"/join", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var status string
	var attempts int
	if err := servetest.QueryRow(testURL, `SELECT status, attempts FROM runs WHERE id = $1`, chatRid, &status, &attempts); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || status != "success" || attempts != 2 {
		t.Fatalf("the chat's run joined through B: %d, %s after %d claims; want success after 2", resp.StatusCode, status, attempts)
	}
}

// body is a stream's frames without metadata and error.
func body(frames []frame) []frame {
	var out []frame
	for _, f := range frames {
		if f.id > 0 {
			out = append(out, frame{id: f.id, event: f.event})
		}
	}
	return out
}

// checkWhole checks that the run ended in success after two claims and
// that the frames carry its stored events once each, in order.
func checkWhole(t *testing.T, rid string, streamed []frame) {
	t.Helper()
	var status string
	var attempts int
	if err := servetest.QueryRow(testURL, `SELECT status, attempts FROM runs WHERE id = $1`, rid, &status, &attempts); err != nil {
		t.Fatal(err)
	}
	if status != "success" || attempts != 2 {
		t.Fatalf("run %s ended %s after %d claims, want success after 2", rid, status, attempts)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, testURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
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
	if len(streamed) != len(stored) {
		t.Fatalf("streamed %d events %v, stored %d %v", len(streamed), streamed, len(stored), stored)
	}
	for i := range stored {
		if streamed[i] != stored[i] {
			t.Errorf("event %d streamed as %v, stored as %v", i, streamed[i], stored[i])
		}
	}
}

// serve runs `serve` on addr with its model at modelURL until the test
// ends or the test stops it.
func serve(t *testing.T, bin, addr, modelURL string, env ...string) *exec.Cmd {
	t.Helper()
	return servetest.Serve(t, bin, addr, testURL, append([]string{"TRIPGRAPH_MODEL=openai:scripted",
		"OPENAI_API_KEY=test", "OPENAI_BASE_URL=" + modelURL}, env...)...)
}

// open sends a request that answers with an event stream and returns the
// response; lastEventID, when set, is sent as Last-Event-ID.
func open(ctx context.Context, t *testing.T, addr, key, method, path, body, lastEventID string) *http.Response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequestWithContext(ctx, method, "http://"+addr+path, rd)
	req.Header.Set("Authorization", "Bearer "+key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// threadOf and runOf read a stream's run from its Content-Location,
// /threads/{thread_id}/runs/{run_id}.
func threadOf(t *testing.T, resp *http.Response) string { return location(t, resp)[2] }
func runOf(t *testing.T, resp *http.Response) string    { return location(t, resp)[4] }

func location(t *testing.T, resp *http.Response) []string {
	t.Helper()
	parts := strings.Split(resp.Header.Get("Content-Location"), "/")
	if len(parts) != 5 {
		t.Fatalf("Content-Location %q", resp.Header.Get("Content-Location"))
	}
	return parts
}

// readFrames reads SSE frames until the body ends.
func readFrames(r io.Reader) []frame {
	var frames []frame
	for _, f := range servetest.ReadSSE(r) {
		frames = append(frames, frame{id: f.ID, event: f.Event, data: f.Data})
	}
	return frames
}

// readData reads the data lines of a UI message stream until it ends.
func readData(r io.Reader) []string {
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}

func getJSON(ctx context.Context, t *testing.T, addr, key, path string, v any) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+addr+path, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || json.Unmarshal(b, v) != nil {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
	}
}
