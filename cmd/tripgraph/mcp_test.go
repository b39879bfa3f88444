package main

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/store"
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

// The commands give the MCP server their logger, so that its INTERNAL
// errors and panics reach the log.
func TestMCPConfigHasLogger(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	if got := (&serving{st: &store.Store{}}).mcpConfig("http://127.0.0.1:8081", log).Logger; got != log {
		t.Fatalf("mcpConfig gives the server logger %v, want the command's", got)
	}
}
