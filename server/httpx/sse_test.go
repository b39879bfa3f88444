package httpx

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
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
