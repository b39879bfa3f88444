// Package usestream drives, in Debian's chromium, a small page built on
// the LangGraph SDK's useStream hook (app.jsx: the client code Agent Chat
// UI runs, with React, bundled by esbuild from the npm packages locked in
// package-lock.json) against a real `tripgraph serve` on another origin:
// a trip conversation streamed through CORS, tripgraph's components shown
// through LoadExternalComponent and /ui/{assistant}, and bookings asked
// for with the components' own Book buttons: one approved through its
// human-in-the-loop interrupt, as Agent Chat UI answers it, one cancelled
// in the pending booking's card, and the trip changed in its card. It needs node, npm,
// chromium and PostgreSQL; it is skipped without them and with -short.
package usestream

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/tripgraph/tripgraph/testing/npmtest"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/servetest"
)

var testURL string

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "usestream", &testURL)) }

// chromiumPath is where the tests expect Debian's chromium.
const chromiumPath = "/usr/bin/chromium"

// screenshot is where the test leaves its screenshot (git ignores it).
var screenshot = filepath.Join("..", "screenshots", "usestream.png")

func TestUseStreamConversation(t *testing.T) {
	pgtest.Skip(t)
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("%s is not installed (make test installs it)", chromiumPath)
	}
	npmtest.Install(t, ".")
	page := bundle(t)
	keys := servetest.Prepare(t, testURL, "usestream-traveller")
	site := httptest.NewServer(page)
	t.Cleanup(site.Close)
	addr := servetest.FreeAddr(t)
	servetest.Serve(t, servetest.Build(t), addr, testURL, "TRIPGRAPH_CORS_ORIGINS="+site.URL,
		"TRIPGRAPH_PUBLIC_URL=http://"+addr, "TRIPGRAPH_RATE_LIMIT=1000", "TRIPGRAPH_RATE_BURST=1000")

	ctx, logged := openTab(t)
	at := site.URL + "/?api=" + "http://" + addr + "&key=" + keys[0]
	step(t, ctx, "open the page", chromedp.Navigate(at), chromedp.WaitVisible(chromedp.CSS(`[data-draft]`)))

	// A trip: the reply streams in, with the trip's card and the places to
	// stay, each rendered by tripgraph through /ui/trip-planner.
	step(t, ctx, "send a message",
		chromedp.SendKeys(chromedp.CSS(`[data-draft]`), "4 nights in Lisbon in May, 3 of us"),
		chromedp.Click(chromedp.CSS(`form button[type=submit]`)))
	waitFor(t, ctx, "the reply and the places to stay, rendered by tripgraph", `(() => {
		const ai = document.querySelectorAll('[data-message="ai"]').length;
		const stays = shadowText('[data-ui="accommodations-list"]');
		const trip = shadowText('[data-ui="trip-details"]');
		return document.querySelector('main').dataset.loading === 'false' && ai > 0 &&
			stays.includes('Lisbon') && trip.includes('Lisbon') ? 'ok' : '';
	})()`)

	// A booking from the card: the Book button of the first place, in
	// tripgraph's component, submits through the page's stream; the run
	// pauses on the human-in-the-loop request, which the page shows as
	// Agent Chat UI does, and its Approve (a decision, sent with the
	// checkpoint the page's branch is at) books: the card says booked,
	// with the reference.
	click(t, ctx, "the card's Book button of the first place", shadowButton(`[data-ui="accommodations-list"]`, `form.book button`, 0))
	waitFor(t, ctx, "the booking's human-in-the-loop request", `(() => {
		const r = document.querySelector('[data-interrupt="book-accommodation"]');
		return r && r.textContent.includes('Book ') && document.querySelector('[data-approve]') ? 'ok' : '';
	})()`)
	click(t, ctx, "the button that approves the booking", `[data-approve]`)
	waitFor(t, ctx, "the booking made", `(() => {
		const card = shadowText('li [data-ui="booking-confirmation"]');
		return document.querySelector('main').dataset.loading === 'false' && !document.querySelector('[data-interrupt]') &&
			/Booked/.test(card) && /booking reference/.test(card) ? 'ok' : '';
	})()`)

	// Another from the card, cancelled in the pending booking's own card
	// (the interrupt's component): its Cancel resumes the run with the
	// planner's answer, and nothing is booked.
	click(t, ctx, "the card's Book button of the second place", shadowButton(`[data-ui="accommodations-list"]`, `form.book button`, 1))
	waitFor(t, ctx, "the pending booking's card", `(() => {
		const pending = shadowText('[data-pending]');
		return document.querySelector('[data-interrupt="book-accommodation"]') && /Confirm your booking/.test(pending) ? 'ok' : '';
	})()`)
	click(t, ctx, "the pending card's Cancel", shadowButton(`[data-pending]`, `form.answer button.secondary`, 0))
	waitFor(t, ctx, "the booking cancelled", `(() => {
		const cards = shadowText('li [data-ui="booking-confirmation"]');
		return document.querySelector('main').dataset.loading === 'false' && !document.querySelector('[data-interrupt]') &&
			/Booking cancelled/.test(cards) && /booking reference/.test(cards) ? 'ok' : '';
	})()`)
	// The trip's edit, in its card: 2 guests instead of 3 updates the trip
	// in place, says the change as the traveller's message and searches
	// again, as tripgraph's own page does.
	waitFor(t, ctx, "the trip's edit sent", `(() => {
		const f = __shadow('[data-ui="trip-details"]', 'form.trip-edit', 0);
		if (!f) return '';
		f.querySelector('[name=numberOfGuests]').value = '2';
		f.requestSubmit();
		return 'ok';
	})()`)
	waitFor(t, ctx, "the trip changed and searched again", `(() => {
		const said = [...document.querySelectorAll('[data-message="human"]')].map((m) => m.textContent);
		return document.querySelector('main').dataset.loading === 'false' && said.some((m) => /^Change the trip to Lisbon, .*2 guests$/.test(m)) &&
			/2 guests/.test(shadowText('[data-ui="trip-details"]')) && !/3 guests/.test(shadowText('[data-ui="trip-details"]')) &&
			document.querySelectorAll('[data-ui="accommodations-list"]').length === 2 ? 'ok' : '';
	})()`)
	if failed, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.error || ''`)); err != nil || failed != "" {
		t.Fatalf("useStream reported an error: %q (%v)", failed, err)
	}
	if errs := logged(); len(errs) > 0 {
		t.Fatalf("the page logged errors (a CORS refusal among them would be here):\n%s", strings.Join(errs, "\n"))
	}
}

// bundle builds app.jsx with esbuild into a folder of its own and returns
// a handler that serves it with its page.
func bundle(t *testing.T) http.Handler {
	t.Helper()
	out := t.TempDir()
	cmd := exec.Command(filepath.Join("node_modules", ".bin", "esbuild"), "app.jsx", "--bundle", "--format=esm",
		"--jsx=automatic", "--define:process.env.NODE_ENV=\"production\"", "--outfile="+filepath.Join(out, "app.js"), "--log-level=warning")
	if data, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bundling app.jsx: %v\n%s", err, data)
	}
	index := `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>useStream</title></head>` +
		`<body><div id="root"></div><script type="module" src="/app.js"></script></body></html>`
	if err := os.WriteFile(filepath.Join(out, "index.html"), []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	return http.FileServer(http.Dir(out))
}

// openTab starts chromium headless, off the network but for loopback, and
// returns a tab and what its pages logged as errors. When the test ends,
// the tab's screenshot is saved and chromium stopped.
func openTab(t *testing.T) (context.Context, func() []string) {
	t.Helper()
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromiumPath), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1100, 1400),
		chromedp.Flag("headless", true), chromedp.Flag("no-sandbox", true), chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-first-run", true), chromedp.Flag("disable-extensions", true),
		chromedp.Flag("no-proxy-server", true), chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.Flag("disable-dev-shm-usage", true))
	ctx, cancel := chromedp.NewContext(alloc)
	var mu sync.Mutex
	var errs []string
	record := func(line string) {
		mu.Lock()
		defer mu.Unlock()
		errs = append(errs, line)
	}
	stop := func() { cancel(); cancelAlloc() }
	if err := chromedp.Do(ctx); err != nil {
		stop()
		t.Fatalf("starting %s: %v", chromiumPath, err)
	}
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError {
				record(fmt.Sprintf("%s: %s (%s)", e.Entry.Source, e.Entry.Text, e.Entry.URL))
			}
		case *runtime.EventExceptionThrown:
			record("exception: " + e.ExceptionDetails.Text)
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				record("console.error: " + strings.Join(parts, " "))
			}
		}
	}); err != nil {
		stop()
		t.Fatalf("listening to the tab: %v", err)
	}
	for _, enable := range []cdp.Command[cdp.Empty, cdp.Empty]{cdplog.Enable, runtime.Enable} {
		if _, err := chromedp.Call(ctx, enable, cdp.Empty{}); err != nil {
			stop()
			t.Fatalf("enabling the tab's log: %v", err)
		}
	}
	t.Cleanup(func() {
		if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
			os.MkdirAll(filepath.Dir(screenshot), 0o755)
			os.WriteFile(screenshot, png, 0o644)
		}
		stop()
	})
	return ctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), errs...)
	}
}

// step runs actions in the tab within a bound, failing the test with what.
func step(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// click clicks the element a selector finds once it is there. The click is
// the element's own, not the mouse's: the places' photos load around the
// buttons, and a mouse click aimed at where a button was can land beside it
// once the page has moved.
func click(t *testing.T, ctx context.Context, what, selector string) {
	t.Helper()
	find := fmt.Sprintf(`document.querySelector(%q)`, selector)
	if strings.HasPrefix(selector, "__shadow(") {
		find = selector
	}
	waitFor(t, ctx, what+", clicked", fmt.Sprintf(`(b => b ? (b.click(), 'ok') : '')(%s)`, find))
}

// shadowButton is a selector for click: the index-th element that css
// finds inside the shadow roots under the elements within finds, where
// LoadExternalComponent shows tripgraph's components (a stay's Book is in
// its details, opened first, as a traveller opens them).
func shadowButton(within, css string, index int) string {
	return fmt.Sprintf(`__shadow(%q, %q, %d)`, within, css, index)
}

// shadowText is a page helper: the text inside the shadow roots under the
// elements a selector finds, where LoadExternalComponent shows a
// component.
const shadowText = `window.shadowText = (sel) => [...document.querySelectorAll(sel + ' [id^="child-shadow"]')]
	.map((host) => host.shadowRoot ? host.shadowRoot.textContent : '').join(' ');
window.__shadow = (within, css, index) => {
	const found = [...document.querySelectorAll(within + ' [id^="child-shadow"]')]
		.flatMap((host) => host.shadowRoot ? [...host.shadowRoot.querySelectorAll(css)] : []);
	const el = found[index];
	const details = el && el.closest('details');
	if (details) details.open = true;
	return el || null;
};`

// waitFor evaluates a script until it answers "ok", for at most a minute.
func waitFor(t *testing.T, ctx context.Context, what, script string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](shadowText+script)); err == nil && got == "ok" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	html, _ := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("main")))
	t.Fatalf("waiting for %s: not within a minute; the page:\n%s", what, html)
}
