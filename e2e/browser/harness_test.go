// Package browser drives tripgraph's pages in Debian's chromium, headless,
// through the DevTools protocol (chromedp): the chat page against a real
// `tripgraph serve` with the offline model and PostgreSQL, and the
// components in a page of fixture data. Every test saves a full-page
// screenshot under e2e/screenshots/, named after the test. The pages are
// checked with axe-core, installed from package-lock.json on first use.
//
// `make test` installs chromium when it is missing; a bare `go test` skips
// these tests when there is no chromium.
package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/chromedp"

	"github.com/tripgraph/tripgraph/testing/pgtest"
)

var testURL string

func TestMain(m *testing.M) {
	os.Exit(pgtest.Run(m, "browser", &testURL, stopBrowser))
}

// chromiumPath is where the tests expect Debian's chromium.
const chromiumPath = "/usr/bin/chromium"

// screenshotDir is where each test leaves its screenshot (git ignores it).
const screenshotDir = "../screenshots"

// actionTimeout bounds one step in the browser: a page load, a click and
// what it shows, a script.
const actionTimeout = 30 * time.Second

// The one browser every test opens its tabs in: started on first use,
// stopped when the package's tests end.
var shared struct {
	once    sync.Once
	ctx     context.Context // a chromedp context whose browser is running
	stop    func()
	err     error
	profile string
}

// chromiumFlags keep the browser headless, in a fresh profile, and off the
// network: no background requests, updates, sync, first-run pages, and
// every host name but the loopback address made unresolvable.
func chromiumFlags(bin, profile string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 900),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("disable-client-side-phishing-detection", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("safebrowsing-disable-auto-update", true),
		chromedp.Flag("disable-features", "Translate,OptimizationHints,MediaRouter,AutofillServerCommunication,CertificateTransparencyComponentUpdater,InterestFeedContentSuggestions"),
		chromedp.Flag("no-proxy-server", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("hide-scrollbars", true),
	}
}

// startBrowser starts chromium once for the package.
func startBrowser() (context.Context, error) {
	shared.once.Do(func() {
		if _, err := os.Stat(chromiumPath); err != nil {
			shared.err = fmt.Errorf("%w: %s is not installed (run `make test`, which installs it, or `apt-get install -y chromium`)", errNoChromium, chromiumPath)
			return
		}
		profile, err := os.MkdirTemp("", "tripgraph-chromium-*")
		if err != nil {
			shared.err = fmt.Errorf("making the browser profile: %w", err)
			return
		}
		shared.profile = profile
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), chromiumFlags(chromiumPath, profile)...)
		ctx, cancel := chromedp.NewContext(alloc)
		shared.stop = func() { cancel(); cancelAlloc() }
		if err := chromedp.Do(ctx); err != nil {
			shared.err = fmt.Errorf("starting %s: %w", chromiumPath, err)
			return
		}
		shared.ctx = ctx
	})
	return shared.ctx, shared.err
}

var errNoChromium = errors.New("no chromium")

func stopBrowser() {
	if shared.stop != nil {
		shared.stop()
	}
	if shared.profile != "" {
		os.RemoveAll(shared.profile)
	}
}

// browser returns the shared browser, starting it on first use; the test
// is skipped when chromium is not installed, and with -short.
func browser(t testing.TB) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("needs chromium: not run with -short")
	}
	ctx, err := startBrowser()
	if errors.Is(err, errNoChromium) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return ctx
}

// tab is one test's page in the shared browser, in its own browser context
// (its own cookies and storage).
type tab struct {
	t      testing.TB
	ctx    context.Context
	errors *pageErrors
}

// pageErrors are the errors a tab's pages logged to the console: script
// errors and refusals of the Content-Security-Policy among them.
type pageErrors struct {
	mu       sync.Mutex
	lines    []string
	expected []string // the addresses whose failure a test asks for
}

func (e *pageErrors) add(line string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, x := range e.expected {
		if strings.HasSuffix(line, "("+x+")") {
			return
		}
	}
	e.lines = append(e.lines, line)
}

// expect leaves out the errors logged for the address u: a page the test
// means to fail (a 404).
func (e *pageErrors) expect(u string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.expected = append(e.expected, u)
}

func (e *pageErrors) all() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.lines...)
}

// newTab opens a tab for the test in a fresh browser context. When the test
// ends, the tab's full-page screenshot is saved (whether it passed or not)
// and the tab is closed.
func newTab(t testing.TB) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser(t), chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	p := &tab{t: t, ctx: ctx, errors: &pageErrors{}}
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	p.watchErrors()
	t.Cleanup(p.screenshot) // runs before cancel: cleanups run last-in first-out
	t.Cleanup(p.checkErrors)
	return p
}

// watchErrors records every error entry of the tab's console log.
func (p *tab) watchErrors() {
	p.t.Helper()
	if err := chromedp.Listen(p.ctx, func(ev any) {
		if e, ok := ev.(*cdplog.EventEntryAdded); ok && e.Entry.Level == cdplog.EntryLevelError {
			p.errors.add(fmt.Sprintf("%s: %s (%s)", e.Entry.Source, e.Entry.Text, e.Entry.URL))
		}
	}); err != nil {
		p.t.Fatalf("listening to the tab's log: %v", err)
	}
	if _, err := chromedp.Call(p.ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		p.t.Fatalf("enabling the tab's log: %v", err)
	}
}

// checkErrors fails the test when a page logged an error.
func (p *tab) checkErrors() {
	if errs := p.errors.all(); len(errs) > 0 {
		p.t.Errorf("the pages logged %d errors:\n%s", len(errs), strings.Join(errs, "\n"))
	}
}

// do runs browser steps, each bounded by actionTimeout, and fails the test
// on the first error.
func (p *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	for _, s := range steps {
		if _, err := run(p, s); err != nil {
			p.t.Fatal(err)
		}
	}
}

// run runs one step, bounded by actionTimeout.
func run[T any](p *tab, a chromedp.Action[T]) (T, error) {
	ctx, cancel := context.WithTimeout(p.ctx, actionTimeout)
	defer cancel()
	return chromedp.Run(ctx, a)
}

// eval evaluates a script (awaiting the promise it returns, if any) and
// decodes its value; it fails the test on error.
func eval[T any](p *tab, script string) T {
	p.t.Helper()
	v, err := run(p, chromedp.Evaluate[T](script, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("script failed: %v\n%s", err, script)
	}
	return v
}

// wait waits until the script's value is truthy, and fails the test with
// what is waited for when it is not within actionTimeout. It keeps asking
// across page loads (a script fails while a page is replaced).
func (p *tab) wait(what, script string) {
	p.t.Helper()
	deadline := time.Now().Add(actionTimeout)
	var last error
	for time.Now().Before(deadline) {
		ok, err := run(p, chromedp.Evaluate[bool]("!!("+script+")"))
		if err == nil && ok {
			return
		}
		if err != nil {
			last = err
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.t.Fatalf("waiting for %s: not within %s (last error: %v)", what, actionTimeout, last)
}

// navigate loads a page and waits until its body is there.
func (p *tab) navigate(url string) {
	p.t.Helper()
	p.do(chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("body")))
}

// click clicks the first element the CSS selector matches, as a user would
// (the element must be visible). Content htmx has just swapped in is
// clicked once htmx has set it up (it drops the class htmx-added then,
// some 20 ms later): no one clicks sooner, and a form clicked sooner would
// be posted without htmx.
func (p *tab) click(selector string) {
	p.t.Helper()
	p.wait(selector+" set up by htmx", fmt.Sprintf(`(e => e !== null && e.closest('.htmx-added') === null)(document.querySelector(%q))`, selector))
	p.do(chromedp.ScrollIntoView(chromedp.CSS(selector)), chromedp.Click(chromedp.CSS(selector)))
}

// screenshot saves the full page as e2e/screenshots/<test name>.png.
// A page caught loading cannot be captured: it is tried again a few times.
func (p *tab) screenshot() {
	png, err := run(p, chromedp.FullScreenshot(100))
	for i := 0; err != nil && i < 5; i++ {
		time.Sleep(200 * time.Millisecond)
		png, err = run(p, chromedp.FullScreenshot(100))
	}
	if err != nil {
		p.t.Logf("no screenshot: %v", err)
		return
	}
	if err := os.MkdirAll(screenshotDir, 0o755); err != nil {
		p.t.Logf("no screenshot: %v", err)
		return
	}
	path := filepath.Join(screenshotDir, screenshotName(p.t.Name())+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Logf("no screenshot: %v", err)
		return
	}
	if p.t.Failed() {
		abs, _ := filepath.Abs(path)
		p.t.Logf("screenshot of the failed page: %s", abs)
	}
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// screenshotName makes a test's name a file name: subtests are joined
// with "__", anything else outside [A-Za-z0-9._-] becomes "_".
func screenshotName(testName string) string {
	return unsafeName.ReplaceAllString(strings.ReplaceAll(testName, "/", "__"), "_")
}
