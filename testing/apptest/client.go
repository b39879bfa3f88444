package apptest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// What the tests send the server and read back of its streams, as the
// LangGraph and AI SDK clients do.

// RunBody is a run body with a person's message.
func RunBody(text string) string {
	return fmt.Sprintf(`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":%q}]}}`, text)
}

// StreamBody is a run body with a person's message, streamed in modes (a
// JSON string or list), with extra members (",\"k\":v…").
func StreamBody(text, modes, extra string) string {
	return fmt.Sprintf(`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":%q}]},"stream_mode":%s%s}`, text, modes, extra)
}

// JSONString is s as a JSON string.
func JSONString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// RunJSON is what the API answers of a run.
type RunJSON struct {
	RunID       string `json:"run_id"`
	ThreadID    string `json:"thread_id"`
	AssistantID string `json:"assistant_id"`
	Status      string `json:"status"`
}

// Frame is one server-sent event.
type Frame struct {
	ID, Event string
	Data      string
}

// ReadFrames reads server-sent events until the body ends, skipping
// comments.
func ReadFrames(t testing.TB, body io.Reader) []Frame {
	t.Helper()
	var out []Frame
	var f Frame
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if f.Event != "" {
				out = append(out, f)
			}
			f = Frame{}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "id: "):
			f.ID = line[4:]
		case strings.HasPrefix(line, "event: "):
			f.Event = line[7:]
		case strings.HasPrefix(line, "data: "):
			f.Data = line[6:]
		}
	}
	return out
}

// ChatParts reads a UI message stream: each data line's JSON part, and
// whether it ended with [DONE].
func ChatParts(t testing.TB, body io.Reader) ([]map[string]any, bool) {
	t.Helper()
	var parts []map[string]any
	done := false
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			done = true
			continue
		}
		var p map[string]any
		if err := json.Unmarshal([]byte(data), &p); err != nil {
			t.Fatalf("part %s: %v", data, err)
		}
		parts = append(parts, p)
	}
	return parts, done
}

// OpenStream sends Alice's stream request and returns the response,
// checked to be an event stream.
func (s *Server) OpenStream(ctx context.Context, method, path, body string, header http.Header) *http.Response {
	s.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.URL+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-Api-Key", s.AliceKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		s.t.Fatalf("%s %s = %d %s %s", method, path, resp.StatusCode, resp.Header.Get("Content-Type"), data)
	}
	return resp
}
