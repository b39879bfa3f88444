package httpx

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/store"
)

// An event with line breaks (a message's text in HTML) goes out as one
// event of several data lines, which the browser joins back with line
// breaks.
func TestSSELines(t *testing.T) {
	for _, tt := range []struct {
		name, data, want string
	}{
		{"one line", "<p>hi</p>", "id: 7\nevent: fragment\ndata: <p>hi</p>\n\n"},
		{"line breaks", "<div>a\nb\r\n</div>", "id: 7\nevent: fragment\ndata: <div>a\ndata: b\ndata: </div>\n\n"},
		{"empty", "", "id: 7\nevent: fragment\ndata: \n\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			if err := (SSE{w: rec, rc: http.NewResponseController(rec)}).Lines(7, "fragment", tt.data); err != nil {
				t.Fatal(err)
			}
			got := rec.Body.String()
			if got != tt.want {
				t.Fatalf("wrote %q, want %q", got, tt.want)
			}
			var data []string
			for line := range strings.Lines(got) {
				if rest, ok := strings.CutPrefix(line, "data: "); ok {
					data = append(data, strings.TrimSuffix(rest, "\n"))
				}
			}
			if joined := strings.Join(data, "\n"); joined != strings.ReplaceAll(tt.data, "\r\n", "\n") {
				t.Fatalf("read back %q", joined)
			}
		})
	}
}

// An event is its id line (none for id 0), its name and its data, then a
// blank line.
func TestSSEEvent(t *testing.T) {
	for _, tt := range []struct {
		id   int64
		want string
	}{
		{42, "id: 42\nevent: values\ndata: {\"a\":1}\n\n"},
		{0, "event: values\ndata: {\"a\":1}\n\n"},
	} {
		rec := httptest.NewRecorder()
		if err := (SSE{w: rec, rc: http.NewResponseController(rec)}).Event(tt.id, "values", []byte(`{"a":1}`)); err != nil {
			t.Fatal(err)
		}
		if got := rec.Body.String(); got != tt.want {
			t.Errorf("id %d: wrote %q, want %q", tt.id, got, tt.want)
		}
		if !rec.Flushed {
			t.Errorf("id %d: the event was not flushed", tt.id)
		}
	}
}

// flushCounter is a response that keeps what each of its flushes sent.
type flushCounter struct {
	*httptest.ResponseRecorder
	mu      sync.Mutex
	written string
	flushes []string
}

func (f *flushCounter) Write(b []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.written += string(b)
	return f.ResponseRecorder.Write(b)
}

func (f *flushCounter) Flush() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.flushes = append(f.flushes, f.written)
	f.written = ""
}

func (f *flushCounter) sent() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.flushes)
}

// A relay writes the events that wait together in its feed with one
// flush, and flushes an event that comes alone at once: nothing it wrote
// is left unflushed while it waits for more, even when the last event of
// a burst writes nothing (a mode the client did not ask for).
func TestRelayFlushesWhatIsReadyTogetherOnce(t *testing.T) {
	rec := &flushCounter{ResponseRecorder: httptest.NewRecorder()}
	w := SSE{w: rec, rc: http.NewResponseController(rec), held: &heldFlush{}}
	feed := make(chan store.RunEvent, relayAhead)
	for seq := int64(1); seq <= 3; seq++ {
		feed <- store.RunEvent{Seq: seq, Event: "values", Data: []byte(`{}`)}
	}
	feed <- store.RunEvent{Seq: 4, Event: "skipped"}
	send := func(e store.RunEvent) error {
		if e.Event == "skipped" {
			return nil
		}
		return w.Event(e.Seq, e.Event, e.Data)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		relay(ctx, w, feed, make(chan error, 1), send, func(error) {})
	}()
	waitFlushes := func(n int) []string {
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if got := rec.sent(); len(got) >= n {
				return got
			}
			time.Sleep(time.Millisecond)
		}
		t.Fatalf("%d flushes, want %d", len(rec.sent()), n)
		return nil
	}
	got := waitFlushes(1)
	if len(got) != 1 || strings.Count(got[0], "event: values") != 3 {
		t.Fatalf("flushes %q, want the three ready events in one", got)
	}
	feed <- store.RunEvent{Seq: 5, Event: "values", Data: []byte(`{}`)}
	if got := waitFlushes(2); !strings.Contains(got[1], "id: 5\n") {
		t.Fatalf("the second flush is %q, want the event that came alone", got[1])
	}
	close(feed)
	<-done
}
