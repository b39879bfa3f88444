package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
)

type greetIn struct {
	Name string `json:"name"`
}

type greetOut struct {
	Greeting string `json:"greeting"`
}

// tripgraph tools lists and calls the tools of a server over Streamable
// HTTP or SSE, sending the --header flags.
func TestToolsCommand(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "greet", Description: "Greets someone.\nMore detail."}, func(_ context.Context, _ *mcp.CallToolRequest, in greetIn) (*mcp.CallToolResult, greetOut, error) {
		return nil, greetOut{Greeting: "olá, " + in.Name}, nil
	})
	keyed := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-Api-Key") != "k1" {
				http.Error(w, "no key", http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
		})
	}
	get := func(*http.Request) *mcp.Server { return srv }
	streamable := httptest.NewServer(keyed(mcp.NewStreamableHTTPHandler(get, nil)))
	defer streamable.Close()
	sse := httptest.NewServer(keyed(mcp.NewSSEHandler(get, nil)))
	defer sse.Close()

	tests := []struct {
		name string
		args []string
		want string
		code errcode.Code
	}{
		{"list", []string{"list", "--server", streamable.URL, "--header", "X-Api-Key: k1"}, "greet                        Greets someone.\n", ""},
		{"call", []string{"call", "--server", streamable.URL, "--header", "X-Api-Key:k1", "greet", `{"name":"Ana"}`}, `"greeting": "olá, Ana"`, ""},
		{"call over SSE", []string{"call", "--server", sse.URL, "--sse", "--header", "X-Api-Key:k1", "greet", `{"name":"Bo"}`}, `"greeting": "olá, Bo"`, ""},
		{"no key", []string{"list", "--server", streamable.URL}, "", errcode.Unavailable},
		{"no such tool", []string{"call", "--server", streamable.URL, "--header", "X-Api-Key:k1", "nope"}, "", errcode.NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := runTools(context.Background(), envConfig(t), tt.args, &out)
			if tt.code != "" {
				if errcode.Of(err) != tt.code {
					t.Fatalf("error = %v, want %s", err, tt.code)
				}
				return
			}
			if err != nil || !strings.Contains(out.String(), tt.want) {
				t.Fatalf("output %q, %v; want %q", out.String(), err, tt.want)
			}
		})
	}
}
