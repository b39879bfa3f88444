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
// connections that hand each other JSON-RPC messages in their wire form:
// the sender encodes each message and the receiver decodes it, as over a
// stream, but whole, so that nothing scans a byte stream for where a
// message ends. The client's side refuses a message over the size cap
// before decoding it.
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
// The first (the client's) refuses a message of more than limit bytes and
// marks state; closing either end closes both.
func memoryPair(limit int64, state *connState) (client, server *memoryConn) {
	toClient, toServer := make(chan []byte), make(chan []byte)
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
	in    <-chan []byte
	out   chan<- []byte
	limit int64      // 0: no cap
	state *connState // marked when a message passes limit
}

func (c *memoryConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var data []byte
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.ends.done:
		return nil, io.EOF
	case data = <-c.in:
	}
	if c.limit > 0 && int64(len(data)) > c.limit {
		c.state.tooLarge.Store(true)
		return nil, errTooLarge
	}
	return jsonrpc.DecodeMessage(data)
}

func (c *memoryConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-c.ends.done:
		return io.ErrClosedPipe
	case c.out <- data:
		return nil
	}
}

func (c *memoryConn) Close() error {
	c.ends.once.Do(func() { close(c.ends.done) })
	return nil
}

func (c *memoryConn) SessionID() string { return "" }
