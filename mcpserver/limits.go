package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionHeader names a Streamable HTTP session.
const sessionHeader = "Mcp-Session-Id"

// codeServerError is the JSON-RPC code of the limits this server applies
// (a batch's work, the session cap): the range -32000 to -32099 is the
// implementation's own.
const codeServerError = -32000

// rpcError is a JSON-RPC error to answer a whole HTTP request with.
type rpcError struct {
	status int
	id     json.RawMessage // the request's id; null when unknown
	code   int64
	msg    string
}

func (e *rpcError) write(w http.ResponseWriter) {
	id := e.id
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": e.code, "message": e.msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.status)
	w.Write(body)
}

// message is what checkBody reads of each JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// checkBody reads a POST body within BodyTimeout (the connection's read
// deadline is set for the body only, and cleared once it is read, so
// streamed responses are not cut), and refuses, as JSON-RPC errors, a body
// that is not JSON-RPC, a batch of more than MaxBatch messages, a call of
// a method the server does not answer, and a request other than
// initialize without a session. A batch's calls share a budget of
// MaxBatchResultBytes.
func checkBody(opts HTTPOptions, budgets *batchBudgets, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, rerr := readBody(w, r, opts)
		if rerr != nil {
			rerr.write(w)
			return
		}
		msgs, rerr := parseMessages(body, opts.MaxBatch, r.Header.Get(sessionHeader) != "")
		if rerr != nil {
			rerr.write(w)
			return
		}
		if len(msgs) == 1 && msgs[0].Method != "" && !answered[msgs[0].Method] {
			if len(msgs[0].ID) == 0 { // a notification: nothing to answer
				w.WriteHeader(http.StatusAccepted)
				return
			}
			(&rpcError{http.StatusOK, msgs[0].ID, jsonrpc.CodeMethodNotFound, methodNotFound(msgs[0].Method).Message}).write(w)
			return
		}
		if len(msgs) > 1 {
			id := r.Header.Get(requestIDHeader)
			budgets.open(id, opts.MaxBatchResultBytes)
			defer budgets.close(id)
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		next.ServeHTTP(w, r)
	})
}

func readBody(w http.ResponseWriter, r *http.Request, opts HTTPOptions) ([]byte, *rpcError) {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(opts.BodyTimeout))
	buf := bytes.NewBuffer(make([]byte, 0, min(max(r.ContentLength, 0), opts.MaxBodyBytes)+1))
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, opts.MaxBodyBytes))
	body := buf.Bytes()
	rc.SetReadDeadline(time.Time{})
	if err != nil {
		// Closing the connection after the reply spares the server
		// waiting for the rest of a body that may never come.
		w.Header().Set("Connection", "close")
	}
	var tooBig *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.As(err, &tooBig):
		return nil, &rpcError{status: http.StatusRequestEntityTooLarge, code: jsonrpc.CodeInvalidRequest,
			msg: fmt.Sprintf("the request body is larger than %d bytes", opts.MaxBodyBytes)}
	case errors.As(err, &netErr) && netErr.Timeout():
		return nil, &rpcError{status: http.StatusRequestTimeout, code: jsonrpc.CodeInvalidRequest,
			msg: fmt.Sprintf("the request body did not arrive within %s", opts.BodyTimeout)}
	case err != nil:
		return nil, &rpcError{status: http.StatusBadRequest, code: jsonrpc.CodeInvalidRequest, msg: "the request body could not be read"}
	}
	return body, nil
}

// parseMessages reads the messages of a body: one object or a batch.
func parseMessages(body []byte, maxBatch int, inSession bool) ([]message, *rpcError) {
	parseError := &rpcError{status: http.StatusBadRequest, code: jsonrpc.CodeParseError, msg: "the body is not a JSON-RPC message or batch"}
	body = bytes.TrimSpace(body)
	raws := []json.RawMessage{body}
	if bytes.HasPrefix(body, []byte("[")) {
		var rerr *rpcError
		if raws, rerr = batch(body, maxBatch); rerr != nil {
			return nil, rerr
		}
	}
	msgs := make([]message, len(raws))
	for i, raw := range raws {
		if !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) || json.Unmarshal(raw, &msgs[i]) != nil {
			return nil, parseError
		}
		if len(raws) > 1 && msgs[i].Method != "" && !answered[msgs[i].Method] {
			return nil, &rpcError{status: http.StatusBadRequest, id: msgs[i].ID, code: jsonrpc.CodeMethodNotFound,
				msg: methodNotFound(msgs[i].Method).Message}
		}
	}
	if !inSession && (len(msgs) != 1 || msgs[0].Method != "initialize") {
		return nil, &rpcError{status: http.StatusBadRequest, id: msgs[0].ID, code: jsonrpc.CodeInvalidRequest,
			msg: "the Mcp-Session-Id header is required: send initialize first, then the session id it returns with every request"}
	}
	return msgs, nil
}

// batch splits a batch into its messages, reading no further than one
// message past maxBatch, so that refusing a huge batch costs little.
func batch(body []byte, maxBatch int) ([]json.RawMessage, *rpcError) {
	parseError := &rpcError{status: http.StatusBadRequest, code: jsonrpc.CodeParseError, msg: "the body is not a JSON-RPC message or batch"}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.Token() // [
	var raws []json.RawMessage
	for dec.More() {
		if len(raws) == maxBatch {
			return nil, &rpcError{status: http.StatusBadRequest, code: jsonrpc.CodeInvalidRequest,
				msg: fmt.Sprintf("a batch holds at most %d messages", maxBatch)}
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, parseError
		}
		raws = append(raws, raw)
	}
	if end, err := dec.Token(); err != nil || end != json.Delim(']') || dec.More() {
		return nil, parseError
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, parseError
	}
	if len(raws) == 0 {
		return nil, &rpcError{status: http.StatusBadRequest, code: jsonrpc.CodeInvalidRequest, msg: "a batch holds at least one message"}
	}
	return raws, nil
}

// batchBudgets holds the budgets of the running batches, by request id.
type batchBudgets struct{ m sync.Map }

// budget is what is left of a batch's result bytes. Its calls run one at
// a time, so that none starts once the budget is spent.
type budget struct {
	mu   sync.Mutex
	left int64
}

func (b *batchBudgets) open(id string, n int64) { b.m.Store(id, &budget{left: n}) }
func (b *batchBudgets) close(id string)         { b.m.Delete(id) }

// middleware refuses the calls of a batch whose budget is spent, and
// charges each result's size to it.
func (b *batchBudgets) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		extra := req.GetExtra()
		if extra == nil || extra.Header == nil {
			return next(ctx, method, req)
		}
		v, ok := b.m.Load(extra.Header.Get(requestIDHeader))
		if !ok {
			return next(ctx, method, req)
		}
		bud := v.(*budget)
		bud.mu.Lock()
		defer bud.mu.Unlock()
		if bud.left <= 0 {
			return nil, &jsonrpc.Error{Code: codeServerError, Message: "this batch has produced all the results one request may: send the remaining calls in another request"}
		}
		res, err := next(ctx, method, req)
		if res != nil {
			data, _ := json.Marshal(res)
			bud.left -= int64(len(data))
		}
		return res, err
	}
}

// sessionCap caps the live sessions. A new session past the cap closes
// the session idle for longest (no request in flight, its last one
// oldest); when none is idle, the new one is refused.
type sessionCap struct {
	srv  *mcp.Server
	max  int
	next http.Handler

	mu       sync.Mutex
	live     map[string]*sessionUse
	creating int // sessions being created, counted against max
}

type sessionUse struct {
	last     time.Time
	inFlight int
}

func (c *sessionCap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if id := r.Header.Get(sessionHeader); id != "" {
		c.use(id, 1)
		defer c.use(id, -1)
		c.next.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodPost {
		c.next.ServeHTTP(w, r)
		return
	}
	if !c.reserve() {
		(&rpcError{status: http.StatusServiceUnavailable, code: codeServerError,
			msg: fmt.Sprintf("the server holds its maximum of %d sessions, all busy: try again later", c.max)}).write(w)
		return
	}
	sw := &sessionSniffer{ResponseWriter: w}
	defer func() { c.created(sw.id) }()
	c.next.ServeHTTP(sw, r)
}

// use counts a request in (+1) or out (-1) of a known session.
func (c *sessionCap) use(id string, delta int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if u, ok := c.live[id]; ok {
		u.inFlight += delta
		u.last = time.Now()
	}
}

// reserve makes room for one more session, closing the oldest idle ones
// as needed, and reports whether there is room.
func (c *sessionCap) reserve() bool {
	live := map[string]*mcp.ServerSession{}
	for ss := range c.srv.Sessions() {
		live[ss.ID()] = ss
	}
	var evict []*mcp.ServerSession
	c.mu.Lock()
	for id := range c.live {
		if live[id] == nil { // closed by its timeout or its client
			delete(c.live, id)
		}
	}
	for len(c.live)+c.creating >= c.max {
		oldest := ""
		for id, u := range c.live {
			if u.inFlight == 0 && (oldest == "" || u.last.Before(c.live[oldest].last)) {
				oldest = id
			}
		}
		if oldest == "" {
			c.mu.Unlock()
			return false
		}
		delete(c.live, oldest)
		evict = append(evict, live[oldest])
	}
	c.creating++
	c.mu.Unlock()
	for _, ss := range evict {
		ss.Close()
	}
	return true
}

// created ends a reservation, with the new session's id ("" when none was
// made).
func (c *sessionCap) created(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.creating--
	if id != "" {
		c.live[id] = &sessionUse{last: time.Now()}
	}
}

// sessionSniffer notes the session id the SDK's handler answers with.
type sessionSniffer struct {
	http.ResponseWriter
	id string
}

func (s *sessionSniffer) WriteHeader(status int) {
	if status < 300 {
		s.id = s.Header().Get(sessionHeader)
	}
	s.ResponseWriter.WriteHeader(status)
}

func (s *sessionSniffer) Write(p []byte) (int, error) {
	if s.id == "" {
		s.id = s.Header().Get(sessionHeader)
	}
	return s.ResponseWriter.Write(p)
}

func (s *sessionSniffer) Flush()                      { http.NewResponseController(s.ResponseWriter).Flush() }
func (s *sessionSniffer) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// jsonRPCErrors turns the plain-text errors of the SDK's handler (unknown
// session, wrong method, headers) into JSON-RPC error bodies with the same
// status.
func jsonRPCErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		jw := &jsonErrorWriter{ResponseWriter: w}
		next.ServeHTTP(jw, r)
		if jw.status != 0 {
			code := int64(jsonrpc.CodeInvalidRequest)
			if jw.status == http.StatusNotFound {
				code = codeServerError // the session is gone: initialize again
			}
			jw.Header().Del("Content-Length")
			(&rpcError{status: jw.status, code: code, msg: strings.TrimSpace(jw.text.String())}).write(w)
		}
	})
}

// jsonErrorWriter holds back a plain-text error response.
type jsonErrorWriter struct {
	http.ResponseWriter
	status int // of the plain-text error held back; 0 when none
	text   bytes.Buffer
	wrote  bool
}

func (j *jsonErrorWriter) WriteHeader(status int) {
	if !j.wrote && status >= 400 && strings.HasPrefix(j.Header().Get("Content-Type"), "text/plain") {
		j.status = status
		return
	}
	j.wrote = true
	j.ResponseWriter.WriteHeader(status)
}

func (j *jsonErrorWriter) Write(p []byte) (int, error) {
	if j.status != 0 {
		if j.text.Len() < 1024 {
			j.text.Write(p)
		}
		return len(p), nil
	}
	j.wrote = true
	return j.ResponseWriter.Write(p)
}

func (j *jsonErrorWriter) Flush() {
	if j.status == 0 {
		http.NewResponseController(j.ResponseWriter).Flush()
	}
}

func (j *jsonErrorWriter) Unwrap() http.ResponseWriter { return j.ResponseWriter }
