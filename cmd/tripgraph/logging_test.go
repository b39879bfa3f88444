package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/testing/servetest"
)

// jsonLines returns the records of out, failing the test on a line that
// is not a JSON object.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var recs []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Errorf("a line is not JSON: %q", sc.Text())
			continue
		}
		recs = append(recs, rec)
	}
	return recs
}

// syncBuffer is a bytes.Buffer that goroutines may write at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Under the serving commands' logger, what libraries write with the
// standard log package and what the HTTP server reports (a handler's
// panic here) are JSON lines, the server's at error level.
func TestServingLogIsJSON(t *testing.T) {
	prev := slog.Default()
	t.Cleanup(func() {
		slog.SetDefault(prev)
		log.SetOutput(os.Stderr)
		log.SetFlags(log.LstdFlags)
	})
	var out syncBuffer
	l := servingLog(&out)

	log.Printf("a provider's warning") // what a library writes with the log package
	addr := servetest.FreeAddr(t)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- listenAndServe(ctx, addr, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }), l, nil)
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			resp.Body.Close()
		}
		if strings.Contains(out.String(), "boom") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the handler's panic was never logged:\n%s", out.String())
		}
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var sawLibrary, sawPanic bool
	for _, rec := range jsonLines(t, out.String()) {
		msg, _ := rec["msg"].(string)
		sawLibrary = sawLibrary || msg == "a provider's warning"
		if strings.Contains(msg, "panic serving") && strings.Contains(msg, "boom") {
			sawPanic = true
			if rec["level"] != "ERROR" {
				t.Errorf("the HTTP server's report has level %v, want ERROR", rec["level"])
			}
		}
	}
	if !sawLibrary || !sawPanic {
		t.Fatalf("the library's line (%v) or the panic (%v) is missing:\n%s", sawLibrary, sawPanic, out.String())
	}
}

// Every line tripgraph serve writes on stderr is JSON, from the first to
// its failure: here it migrates, seeds, and cannot listen.
func TestServeLogsOnlyJSONLines(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := tripgraphCommand(ctx, "serve", "--addr", taken.Addr().String())
	cmd.Env = append(cmd.Env, "DATABASE_URL="+testURL, "TRIPGRAPH_MEDIA_ROOT="+t.TempDir(), "MCP_SECRET=", "TRIPGRAPH_MODEL=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("serve on a taken address: %v, want exit status 1\n%s", err, stderr.String())
	}
	recs := jsonLines(t, stderr.String())
	if len(recs) < 2 {
		t.Fatalf("serve logged %d lines, want its start and its failure:\n%s", len(recs), stderr.String())
	}
	last := recs[len(recs)-1]
	if errText, _ := last["err"].(string); last["level"] != "ERROR" || !strings.Contains(errText, "address already in use") {
		t.Fatalf("the last line is %v, want the failure to listen at level ERROR", last)
	}
	if stdout.Len() > 0 {
		t.Fatalf("serve wrote on stdout: %q", stdout.String())
	}
}
