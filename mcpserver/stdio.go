package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults of StdioTransport.
const (
	DefaultMaxLineBytes = 4 << 20
	DefaultMaxDepth     = 64
	DefaultDrainTimeout = 30 * time.Second
)

// StdioTransport serves MCP over newline-delimited JSON-RPC on a reader
// and a writer (stdin and stdout by default). It replaces the SDK's
// stdio transport, which ends the session on the first malformed line and
// can lose replies when stdin closes:
//
//   - a line that is not a JSON-RPC message (not JSON, null, a batch,
//     nested deeper than MaxDepth, longer than MaxLineBytes) is answered
//     with a JSON-RPC error, and the server reads on;
//   - when the input ends, the session ends only once every request read
//     has been answered (or DrainTimeout has passed), so a client that
//     writes its requests and closes stdin gets every reply.
type StdioTransport struct {
	In           io.Reader // default os.Stdin
	Out          io.Writer // default os.Stdout
	MaxLineBytes int
	MaxDepth     int
	DrainTimeout time.Duration
}

// Connect implements mcp.Transport.
func (t *StdioTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{
		out:      t.Out,
		maxDepth: t.MaxDepth,
		drain:    t.DrainTimeout,
		lines:    make(chan line),
		closed:   make(chan struct{}),
		pending:  map[jsonrpc.ID]bool{},
		answered: make(chan struct{}, 1),
	}
	in := t.In
	if in == nil {
		in = os.Stdin
	}
	if c.out == nil {
		c.out = os.Stdout
	}
	if c.maxDepth == 0 {
		c.maxDepth = DefaultMaxDepth
	}
	if c.drain == 0 {
		c.drain = DefaultDrainTimeout
	}
	maxLine := t.MaxLineBytes
	if maxLine == 0 {
		maxLine = DefaultMaxLineBytes
	}
	go c.readLines(bufio.NewReaderSize(in, 64<<10), maxLine)
	return c, nil
}

// line is one input line, or why there is none.
type line struct {
	data    []byte
	tooLong bool
	err     error // io.EOF at the end of the input
}

// lineConn is the connection of a StdioTransport.
type lineConn struct {
	out      io.Writer
	maxDepth int
	drain    time.Duration

	lines  chan line
	closed chan struct{}
	once   sync.Once

	writeMu sync.Mutex

	mu       sync.Mutex
	pending  map[jsonrpc.ID]bool // calls read and not answered yet
	answered chan struct{}       // signalled when a call is answered
}

// readLines sends the input's lines to c.lines until the input ends or
// the connection closes. A line longer than max is skipped to its end and
// reported as too long.
func (c *lineConn) readLines(r *bufio.Reader, max int) {
	for {
		var buf []byte
		tooLong := false
		var err error
		for {
			var chunk []byte
			chunk, err = r.ReadSlice('\n')
			if !tooLong {
				if len(buf)+len(chunk) > max+1 { // +1: the newline
					tooLong, buf = true, nil
				} else {
					buf = append(buf, chunk...)
				}
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if len(buf) > 0 || tooLong {
			select {
			case c.lines <- line{data: buf, tooLong: tooLong}:
			case <-c.closed:
				return
			}
		}
		if err != nil {
			select {
			case c.lines <- line{err: err}:
			case <-c.closed:
			}
			return
		}
	}
}

// Read returns the next JSON-RPC message, answering malformed lines with
// errors on the way. At the end of the input it waits for every pending
// call to be answered before it reports io.EOF.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var l line
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case l = <-c.lines:
		}
		if l.err != nil {
			c.waitAnswered(ctx)
			if errors.Is(l.err, io.EOF) {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("reading stdin: %w", l.err)
		}
		msg, rerr := c.decode(l)
		if rerr != nil {
			if err := c.writeError(ctx, rerr); err != nil {
				return nil, err
			}
			continue
		}
		if msg == nil { // a blank line
			continue
		}
		if req, ok := msg.(*jsonrpc.Request); ok && !answered[req.Method] {
			// Answered here, as over HTTP, so that the error repeats at
			// most the start of the method's name.
			if req.IsCall() {
				id, _ := json.Marshal(req.ID.Raw())
				if err := c.writeError(ctx, &rpcError{id: id, code: jsonrpc.CodeMethodNotFound, msg: methodNotFound(req.Method).Message}); err != nil {
					return nil, err
				}
			}
			continue
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.mu.Lock()
			c.pending[req.ID] = true
			c.mu.Unlock()
		}
		return msg, nil
	}
}

// decode reads one line as a JSON-RPC message; nil for a blank line.
func (c *lineConn) decode(l line) (jsonrpc.Message, *rpcError) {
	if l.tooLong {
		return nil, &rpcError{code: jsonrpc.CodeInvalidRequest, msg: "the line is longer than the server accepts"}
	}
	data := bytes.TrimSpace(l.data)
	switch {
	case len(data) == 0:
		return nil, nil
	case !json.Valid(data):
		return nil, &rpcError{code: jsonrpc.CodeParseError, msg: "the line is not JSON"}
	case data[0] == '[':
		return nil, &rpcError{code: jsonrpc.CodeInvalidRequest, msg: "batches are not accepted over stdio: send one message per line"}
	case data[0] != '{':
		return nil, &rpcError{code: jsonrpc.CodeInvalidRequest, msg: "a message must be a JSON object"}
	case depth(data) > c.maxDepth:
		return nil, &rpcError{code: jsonrpc.CodeInvalidRequest, msg: fmt.Sprintf("the message is nested deeper than %d levels", c.maxDepth)}
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if _, isResponse := msg.(*jsonrpc.Response); isResponse && err == nil && !hasResult(data) {
		err = errors.New("a response without a result or an error")
	}
	if err != nil {
		var m message
		json.Unmarshal(data, &m)
		if _, err := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","method":"x","id":` + string(m.ID) + `}`)); err != nil {
			m.ID = nil // not a valid id: answer with null
		}
		return nil, &rpcError{id: m.ID, code: jsonrpc.CodeInvalidRequest, msg: "the line is not a valid JSON-RPC message"}
	}
	return msg, nil
}

// hasResult reports whether a message has a result or an error, as a
// response must.
func hasResult(data []byte) bool {
	var m struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	return json.Unmarshal(data, &m) == nil && (m.Result != nil || m.Error != nil)
}

// depth returns how deeply a valid JSON value nests objects and arrays.
func depth(data []byte) int {
	d, deepest, inString, escaped := 0, 0, false, false
	for _, b := range data {
		switch {
		case escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case b == '"':
			inString = !inString
		case inString:
		case b == '{' || b == '[':
			d++
			deepest = max(deepest, d)
		case b == '}' || b == ']':
			d--
		}
	}
	return deepest
}

// waitAnswered waits until every call read has been answered, the
// connection closes, ctx ends or the drain timeout passes.
func (c *lineConn) waitAnswered(ctx context.Context) {
	timeout := time.NewTimer(c.drain)
	defer timeout.Stop()
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.answered:
		case <-c.closed:
			return
		case <-ctx.Done():
			return
		case <-timeout.C:
			return
		}
	}
}

// Write writes one message as one line.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	if err := c.writeLine(data); err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.pending, resp.ID)
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return nil
}

func (c *lineConn) writeError(ctx context.Context, e *rpcError) error {
	id := e.id
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": e.code, "message": e.msg}})
	return c.writeLine(data)
}

func (c *lineConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	if _, err := c.out.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("writing to stdout: %w", err)
	}
	return nil
}

// Close stops reading; writes after it fail.
func (c *lineConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection: a stdio connection has none.
func (c *lineConn) SessionID() string { return "" }
