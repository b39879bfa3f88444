package main

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/mcpserver"
)

// Over stdio, links are given only when they can work: with the public
// URL of a server that shares the secret.
func TestStdioLinksNote(t *testing.T) {
	for _, tc := range []struct {
		name      string
		publicURL string
		secret    []byte
		want      []string // in the note; none when links are on
	}{
		{"neither", "", nil, []string{"TRIPGRAPH_PUBLIC_URL", "MCP_SECRET"}},
		{"no secret", "https://trips.example", nil, []string{"MCP_SECRET"}},
		{"no public URL", "", []byte("a shared secret!"), []string{"TRIPGRAPH_PUBLIC_URL"}},
		{"both", "https://trips.example", []byte("a shared secret!"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			note := stdioLinksNote(tc.publicURL, tc.secret)
			if (note == "") != (len(tc.want) == 0) {
				t.Fatalf("note %q, want one naming %v", note, tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(note, w) {
					t.Errorf("note %q does not name %s", note, w)
				}
			}
		})
	}
}

// The HTTP limits come from the environment; bad values are refused.
func TestHTTPOptionsFromEnv(t *testing.T) {
	t.Setenv("MCP_MAX_SESSIONS", "7")
	t.Setenv("MCP_SESSION_TIMEOUT", "90s")
	t.Setenv("MCP_MAX_BATCH", "3")
	t.Setenv("MCP_MAX_BATCH_RESULT_BYTES", "1000")
	t.Setenv("MCP_MAX_BODY_BYTES", "2000")
	t.Setenv("MCP_BODY_TIMEOUT", "2s")
	o, err := httpOptionsFromEnv()
	want := mcpserver.HTTPOptions{MaxSessions: 7, SessionTimeout: 90 * time.Second, MaxBatch: 3,
		MaxBatchResultBytes: 1000, MaxBodyBytes: 2000, BodyTimeout: 2 * time.Second}
	if err != nil || o.MaxSessions != want.MaxSessions || o.SessionTimeout != want.SessionTimeout || o.MaxBatch != want.MaxBatch ||
		o.MaxBatchResultBytes != want.MaxBatchResultBytes || o.MaxBodyBytes != want.MaxBodyBytes || o.BodyTimeout != want.BodyTimeout {
		t.Fatalf("httpOptionsFromEnv = %+v, %v; want %+v", o, err, want)
	}
	t.Setenv("MCP_MAX_BATCH", "-1")
	t.Setenv("MCP_BODY_TIMEOUT", "soon")
	if _, err := httpOptionsFromEnv(); err == nil || !strings.Contains(err.Error(), "MCP_MAX_BATCH") || !strings.Contains(err.Error(), "MCP_BODY_TIMEOUT") {
		t.Fatalf("bad values: %v, want an error naming both", err)
	}
}

// The commands give the MCP server their logger, so that its INTERNAL
// errors and panics reach the log.
func TestMCPConfigHasLogger(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	if got := (&serving{}).mcpConfig("http://127.0.0.1:8081", log).Logger; got != log {
		t.Fatalf("mcpConfig gives the server logger %v, want the command's", got)
	}
}
