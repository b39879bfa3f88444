package main

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

func TestProfilesAreServedOnLoopbackOnly(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:6060", "example.com:6060"} {
		if _, _, err := startProfiling(addr, log); err == nil {
			t.Errorf("profiles served on %s", addr)
		}
	}
	if listening, _, err := startProfiling("", log); err != nil || listening != "" {
		t.Errorf("off by default: %q, %v", listening, err)
	}
	listening, stop, err := startProfiling("127.0.0.1:0", log)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	resp, err := http.Get("http://" + listening + "/debug/pprof/goroutine?debug=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "goroutine profile") {
		t.Errorf("the goroutine profile = %d %.200s", resp.StatusCode, body)
	}
}
