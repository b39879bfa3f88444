// Package aisdk reads tripgraph's POST /api/chat with the AI SDK's own chat
// transport and UI message stream reader, against a `tripgraph serve` the
// test starts. It needs node and npm; the npm packages are installed from
// package-lock.json on first use.
package aisdk

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/testing/servetest"

	"github.com/tripgraph/tripgraph/testing/npmtest"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

var testURL string

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "aisdk", &testURL)) }

func TestChatWithTheAISDK(t *testing.T) {
	pgtest.Skip(t)
	npmtest.Install(t, ".")
	key := servetest.Prepare(t, testURL, "chat-traveller")[0]
	addr := servetest.FreeAddr(t)
	servetest.Serve(t, servetest.Build(t), addr, testURL)
	cmd := exec.Command("node", "chat.mjs")
	cmd.Env = append(os.Environ(), "TRIPGRAPH_URL=http://"+addr, "TRIPGRAPH_API_KEY="+key)
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("the AI SDK script failed (%v):\n%s", err, out)
	}
}
