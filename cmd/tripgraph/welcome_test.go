package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// What make run prints works as printed: its key streams the suggested
// first run from the API, and the run shows the trip it understood.
func TestWelcomeRequestStreamsARun(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	st := storetest.Open(t, "cmd")
	lisbon := seed.City{Name: "Lisbon", GeoName: "Lisboa", Country: "PT", Population: 550_000, Lat: 38.72, Lng: -9.14}
	if err := seed.Run(ctx, st, seed.Options{Cities: []seed.City{lisbon}, DemoUser: demoUser}); err != nil {
		t.Fatal(err)
	}
	env := &serving{st: st, mediaRoot: t.TempDir()}
	a, err := newAPI(ctx, config.Default(), env, "http://127.0.0.1:1", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ts := httptest.NewServer(a.Handler())
	defer ts.Close()

	var out bytes.Buffer
	if err := printWelcome(ctx, &out, st, a.Server, ts.URL); err != nil {
		t.Fatal(err)
	}
	key := regexp.MustCompile(`x-api-key: (\S+)'`).FindStringSubmatch(out.String())
	if !strings.Contains(out.String(), ts.URL) || key == nil {
		t.Fatalf("the welcome lacks the address or the key:\n%s", out.String())
	}
	checkLoginLink(t, out.String(), ts.URL, key[1])
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/runs/stream", strings.NewReader(firstRunBody))
	req.Header.Set("x-api-key", key[1])
	req.Header.Set("content-type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("the first run: %d %s", resp.StatusCode, body)
	}
	var events []string
	sawTrip := false
	for sc := bufio.NewScanner(resp.Body); sc.Scan(); {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			events = append(events, name)
		}
		sawTrip = sawTrip || (strings.HasPrefix(line, "data: ") && strings.Contains(line, `"trip-details"`) && strings.Contains(line, "Lisbon"))
	}
	// The server closes the stream after its last frame, as LangGraph's
	// does, with no frame to say so; a run that failed ends with error.
	if !sawTrip || len(events) == 0 || events[len(events)-1] == "error" || ctx.Err() != nil {
		t.Fatalf("the stream (%v) lacks the Lisbon trip details or does not end", events)
	}
}

// checkLoginLink opens the welcome's browser link: it signs the browser
// in to the demo account once, and does not carry the API key.
func checkLoginLink(t *testing.T, welcome, base, key string) {
	t.Helper()
	link := regexp.MustCompile(regexp.QuoteMeta(base) + `/login/link/\S+`).FindString(welcome)
	if link == "" || strings.Contains(link, key) {
		t.Fatalf("no login link without the key in the welcome:\n%s", welcome)
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(u string) int {
		resp, err := browser.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := get(link); got != http.StatusSeeOther {
		t.Fatalf("the login link answered %d", got)
	}
	if got := get(base + "/app"); got != http.StatusOK {
		t.Fatalf("the demo account's page answered %d after the link", got)
	}
	jar, _ = cookiejar.New(nil)
	browser.Jar = jar
	if got := get(link); got != http.StatusUnauthorized {
		t.Errorf("the login link worked twice: %d", got)
	}
}
