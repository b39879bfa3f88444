package mcpbridge

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// memoryTransport serves an in-process server over a pair of in-memory
// connections that hand each other JSON-RPC messages as values: a request's
// params and a response's result are the JSON text the sender made, and the
// receiver decodes them as it would from any transport. What a stream would
// add, encoding the envelope and decoding it again, is left out (memoryConn).
// The client's side refuses a message whose payload is over the size cap.
type memoryTransport struct {
	server *mcp.Server
	limit  int64
	state  *connState
}

func (t *memoryTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	client, server := memoryPair(t.limit, t.state)
	if _, err := t.server.Connect(ctx, connected{server}, nil); err != nil {
		client.Close()
		return nil, fmt.Errorf("starting the in-process server: %w", err)
	}
	return client, nil
}

// connected is a transport whose connection is already made.
type connected struct{ c mcp.Connection }

func (t connected) Connect(context.Context) (mcp.Connection, error) { return t.c, nil }

// memoryPair returns two connected ends: what one writes, the other reads.
// The first (the client's) refuses a message whose payload is over limit
// bytes and marks state; closing either end closes both.
func memoryPair(limit int64, state *connState) (client, server *memoryConn) {
	toClient, toServer := make(chan jsonrpc.Message), make(chan jsonrpc.Message)
	p := &pipeEnds{done: make(chan struct{})}
	client = &memoryConn{ends: p, in: toClient, out: toServer, limit: limit, state: state}
	server = &memoryConn{ends: p, in: toServer, out: toClient}
	return client, server
}

// pipeEnds is what both ends of a pair share: whether it is closed.
type pipeEnds struct {
	once sync.Once
	done chan struct{}
}

// memoryConn is one end of a memoryPair.
type memoryConn struct {
	ends  *pipeEnds
	in    <-chan jsonrpc.Message
	out   chan<- jsonrpc.Message
	limit int64      // 0: no cap
	state *connState // marked when a message passes limit
}

func (c *memoryConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var msg jsonrpc.Message
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.ends.done:
		return nil, io.EOF
	case msg = <-c.in:
	}
	if c.limit > 0 && int64(payloadSize(msg)) > c.limit {
		c.state.tooLarge.Store(true)
		return nil, errTooLarge
	}
	return msg, nil
}

func (c *memoryConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	msg, err := handedOver(msg)
	if err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-c.ends.done:
		return io.ErrClosedPipe
	case c.out <- msg:
		return nil
	}
}

func (c *memoryConn) Close() error {
	c.ends.once.Do(func() { close(c.ends.done) })
	return nil
}

func (c *memoryConn) SessionID() string { return "" }

// handedOver is what the other end reads of msg: a copy of its envelope,
// which neither end shares, holding the same params or result, which no
// one changes once made. Extra, the sender's note to its own transport,
// stays behind. A response's error goes the wire's way, so that the
// receiver finds the JSON-RPC error a stream would give it.
func handedOver(msg jsonrpc.Message) (jsonrpc.Message, error) {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		return &jsonrpc.Request{ID: m.ID, Method: m.Method, Params: m.Params}, nil
	case *jsonrpc.Response:
		if m.Error == nil {
			return &jsonrpc.Response{ID: m.ID, Result: m.Result}, nil
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return nil, fmt.Errorf("encoding a message: %w", err)
	}
	return jsonrpc.DecodeMessage(data)
}

// payloadSize is the length of a message's params or result, the part
// of it that grows with what was asked or answered.
func payloadSize(msg jsonrpc.Message) int {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		return len(m.Params)
	case *jsonrpc.Response:
		return len(m.Result)
	}
	return 0
}
