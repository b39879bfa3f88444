package mcpbridge

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/mcpauth"
)

var testSecret = []byte("0123456789abcdef-test-secret")

// A userId the model writes never reaches a server as written: a built-in
// server gets the context's user, another server gets none; a built-in
// HTTP server gets a token minted for the context's user.
func TestModelSuppliedUserID(t *testing.T) {
	http := newHTTPServer(t, false).config("ours")
	http.Builtin = true
	inMemory := ServerConfig{Name: "ours", Transport: Memory, NewServer: newTestServer, Enabled: true, Builtin: true}
	theirs := newHTTPServer(t, false).config("theirs")
	tests := []struct {
		name       string
		cfg        ServerConfig
		wantUserID string
		wantToken  bool
	}{
		{"built-in over HTTP", http, "ana", true},
		{"built-in in memory", inMemory, "ana", false},
		{"a user's server", theirs, "", false},
	}
	ctx, user, reg := context.Background(), "ana", registry(nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBridge(t, Options{Servers: []ServerConfig{tt.cfg}, Secret: testSecret})
			tools, err := as(b, reg, user).List(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, tool := range tools {
				if strings.Contains(string(tool.InputSchema), `"userId"`) {
					t.Errorf("the model is shown userId in %s: %s", tool.Name, tool.InputSchema)
				}
			}
			res, err := as(b, reg, user).Call(ctx, "whoami", json.RawMessage(`{"userId":"bob","note":"hi"}`))
			if err != nil {
				t.Fatal(err)
			}
			var got whoOut
			if err := json.Unmarshal(res.Full, &got); err != nil {
				t.Fatal(err)
			}
			if got.UserID != tt.wantUserID {
				t.Errorf("the server got userId %q, want %q", got.UserID, tt.wantUserID)
			}
			if !tt.wantToken {
				if got.Bearer != "" {
					t.Errorf("the server got a credential it should not: %q", got.Bearer)
				}
				return
			}
			claims, err := mcpauth.Verify(testSecret, strings.TrimPrefix(got.Bearer, "Bearer "))
			if err != nil || claims.UserID != "ana" {
				t.Errorf("bearer %q: claims %+v, %v; want a valid token for ana", got.Bearer, claims, err)
			}
		})
	}
}

// A built-in tool needs a user in the context.
func TestBuiltinNeedsUser(t *testing.T) {
	cfg := ServerConfig{Name: "ours", Transport: Memory, NewServer: newTestServer, Enabled: true, Builtin: true}
	b := newBridge(t, Options{Servers: []ServerConfig{cfg}})
	if _, err := b.For(User{}).Call(context.Background(), "echo", json.RawMessage(`{"text":"x"}`)); err == nil {
		t.Fatal("a call with no user succeeded")
	}
}
