package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A message crosses a memory pair as a copy of its envelope holding the
// same payload; what the sender noted for its own transport stays behind,
// and an error arrives as the JSON-RPC error a stream would carry.
func TestMemoryPairHandsOver(t *testing.T) {
	ctx := context.Background()
	client, server := memoryPair(0, &connState{})
	defer client.Close()
	pass := func(from, to *memoryConn, msg jsonrpc.Message) jsonrpc.Message {
		t.Helper()
		go from.Write(ctx, msg)
		got, err := to.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	id, _ := jsonrpc.MakeID(float64(7))
	sent := &jsonrpc.Request{ID: id, Method: "tools/call", Params: json.RawMessage(`{"name":"add"}`), Extra: "the client's own"}
	req, ok := pass(client, server, sent).(*jsonrpc.Request)
	if !ok || req == sent || req.ID != id || req.Method != sent.Method || string(req.Params) != string(sent.Params) || req.Extra != nil {
		t.Errorf("the server read %#v for %#v", req, sent)
	}

	answer := &jsonrpc.Response{ID: id, Result: json.RawMessage(`{"content":[]}`), Extra: "the server's own"}
	res, ok := pass(server, client, answer).(*jsonrpc.Response)
	if !ok || res == answer || res.ID != id || string(res.Result) != string(answer.Result) || res.Error != nil || res.Extra != nil {
		t.Errorf("the client read %#v for %#v", res, answer)
	}

	failed := &jsonrpc.Response{ID: id, Error: errors.New("the tool broke")}
	res, _ = pass(server, client, failed).(*jsonrpc.Response)
	var wire *jsonrpc.Error
	if res == nil || !errors.As(res.Error, &wire) || wire.Message != "the tool broke" {
		t.Errorf("the client read the error %#v, want a JSON-RPC error with the message", res)
	}
}
