// Package openaitest is a local server that speaks OpenAI's Chat
// Completions wire format, JSON and streamed (SSE), including tool calls. It
// answers from a script and records every request, so that tests can run
// langchaingo's real OpenAI client against it.
package openaitest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
)

// ToolCall is a tool call the scripted model makes.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string // JSON
}

// Reply is one scripted model answer.
type Reply struct {
	Content   string
	ToolCalls []ToolCall
}

// Request is what a client sent, decoded loosely.
type Request struct {
	Model      string            `json:"model"`
	Messages   []json.RawMessage `json:"messages"`
	Tools      []json.RawMessage `json:"tools"`
	ToolChoice json.RawMessage   `json:"tool_choice"`
	Stream     bool              `json:"stream"`
}

// ToolNames returns the names of the tools offered in the request.
func (r Request) ToolNames() []string {
	var names []string
	for _, t := range r.Tools {
		var tool struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		json.Unmarshal(t, &tool)
		names = append(names, tool.Function.Name)
	}
	return names
}

// Server is the scripted model server.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	script   []Reply
	requests []Request
}

// New starts a server that answers with replies, in order.
func New(replies ...Reply) *Server {
	s := &Server{script: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/chat/completions" && r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	var req Request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	if len(s.script) == 0 {
		s.mu.Unlock()
		http.Error(w, `{"error":{"message":"the script has no more replies"}}`, http.StatusInternalServerError)
		return
	}
	reply := s.script[0]
	s.script = s.script[1:]
	s.mu.Unlock()
	if req.Stream {
		stream(w, req.Model, reply)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(completion(req.Model, reply))
}

func finishReason(r Reply) string {
	if len(r.ToolCalls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

func wireToolCalls(r Reply) []map[string]any {
	var calls []map[string]any
	for _, tc := range r.ToolCalls {
		calls = append(calls, map[string]any{"id": tc.ID, "type": "function",
			"function": map[string]any{"name": tc.Name, "arguments": tc.Arguments}})
	}
	return calls
}

func completion(model string, r Reply) map[string]any {
	msg := map[string]any{"role": "assistant", "content": r.Content}
	if calls := wireToolCalls(r); calls != nil {
		msg["tool_calls"] = calls
	}
	return map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finishReason(r)}},
		"usage":   map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
	}
}

// stream sends a reply as SSE chunks: the text a few characters at a time,
// then each tool call as a header chunk and two argument fragments.
func stream(w http.ResponseWriter, model string, r Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	flusher, _ := w.(http.Flusher)
	send := func(delta map[string]any, finish any) {
		chunk := map[string]any{"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		data, _ := json.Marshal(chunk)
		fmt.Fprintf(w, "data: %s\n\n", data)
		if flusher != nil {
			flusher.Flush()
		}
	}
	send(map[string]any{"role": "assistant", "content": ""}, nil)
	for text := r.Content; text != ""; {
		n := min(4, len(text))
		send(map[string]any{"content": text[:n]}, nil)
		text = text[n:]
	}
	for i, tc := range r.ToolCalls {
		send(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": tc.ID, "type": "function",
			"function": map[string]any{"name": tc.Name, "arguments": ""}}}}, nil)
		half := len(tc.Arguments) / 2
		for _, part := range []string{tc.Arguments[:half], tc.Arguments[half:]} {
			send(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": part}}}}, nil)
		}
	}
	send(map[string]any{}, finishReason(r))
	fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}
