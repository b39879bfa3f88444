package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"strings"
	"testing"
)

// runStdio serves input on a StdioTransport until the input ends, and
// returns the replies.
func runStdio(t *testing.T, f *fixture, input string, tr *StdioTransport) []rpcReply {
	t.Helper()
	var out bytes.Buffer
	tr.In, tr.Out = strings.NewReader(input), &out
	if err := New(testConfig(f, f.ana.ID)).Run(context.Background(), tr); err != nil && err != io.EOF {
		t.Fatalf("Run: %v", err)
	}
	var replies []rpcReply
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var r rpcReply
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("a reply is not JSON-RPC: %q", sc.Text())
		}
		replies = append(replies, r)
	}
	return replies
}

const stdioInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
	`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"

// A malformed line gets a JSON-RPC error, and the server reads on.
func TestStdioMalformedLines(t *testing.T) {
	f := setup(t)
	bad := []struct {
		line string
		id   string // of the reply
		code int64
	}{
		{`not json`, "null", -32700},
		{`null`, "null", -32600},
		{`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`, "null", -32600},
		{strings.Repeat(`{"a":`, 100) + `1` + strings.Repeat(`}`, 100), "null", -32600},
		{`{"jsonrpc":"2.0","id":3,"method":"ping","x":"` + strings.Repeat("x", 2000) + `"}`, "null", -32600},
		{`{"jsonrpc":"2.0","id":4}`, "4", -32600},
		{`{"jsonrpc":"2.0","id":5,"method":"foo/bar"}`, "5", -32601},
		{`{"jsonrpc":"2.0","id":"x","method":"` + strings.Repeat("m", 900) + `"}`, `"x"`, -32601},
	}
	input := stdioInit
	for _, b := range bad {
		input += b.line + "\n"
	}
	input += `{"jsonrpc":"2.0","id":6,"method":"tools/list"}` + "\n"
	replies := runStdio(t, f, input, &StdioTransport{MaxLineBytes: 1024})
	// Errors for bad lines are written as they are read, so they may pass
	// the replies to earlier requests: compare them as a multiset.
	want := map[string]int{"1 ok": 1, "6 ok": 1}
	for _, b := range bad {
		want[fmt.Sprintf("%s %d", b.id, b.code)]++
	}
	got := map[string]int{}
	for _, r := range replies {
		if r.Error != nil && len(r.Error.Message) > 200 {
			t.Errorf("reply %s repeats too much: %.80q…", r.ID, r.Error.Message)
		}
		if r.Error == nil {
			got[string(r.ID)+" ok"]++
		} else {
			got[fmt.Sprintf("%s %d", r.ID, r.Error.Code)]++
		}
	}
	if !maps.Equal(got, want) {
		t.Fatalf("replies %v, want %v", got, want)
	}
}

// When stdin closes right after the requests, every reply is still
// written before the server stops.
func TestStdioRepliesBeforeExit(t *testing.T) {
	f := setup(t)
	input := stdioInit +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"getUserAlbums","arguments":{}}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`
	for run := range 20 {
		if replies := runStdio(t, f, input, &StdioTransport{}); len(replies) != 3 {
			t.Fatalf("run %d: %d replies, want 3", run, len(replies))
		}
	}
}
