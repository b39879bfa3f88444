package browser

import (
	"context"
	"os/exec"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/servetest"
)

// site is a real `tripgraph serve` on a loopback port, with the offline
// model, on the package's database: a catalog of Lisbon and Porto, and the
// demo traveller (who has the demo photo albums) with an API key.
type site struct {
	base string // http://127.0.0.1:port
	key  string // the demo traveller's API key
}

// startSite builds the binary with the browser scripts embedded (`make
// assets`), prepares the database and starts serve until the test ends.
func startSite(t testing.TB) *site {
	t.Helper()
	if out, err := exec.Command("make", "-C", "../..", "assets").CombinedOutput(); err != nil {
		t.Fatalf("make assets (htmx and its SSE extension, for the live pages) failed: %v\n%s", err, out)
	}
	keys := servetest.Prepare(t, testURL, "demo")
	addCity(t, seed.City{Name: "Porto", GeoName: "Porto", Country: "PT", Population: 230_000, Lat: 41.15, Lng: -8.61})
	addr := servetest.FreeAddr(t)
	servetest.Serve(t, servetest.Build(t), addr, testURL)
	return &site{base: "http://" + addr, key: keys[0]}
}

// addCity adds a city to the catalog, with its places to stay and to eat.
func addCity(t testing.TB, c seed.City) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, testURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := seed.Run(ctx, st, seed.Options{Cities: []seed.City{c}}); err != nil {
		t.Fatalf("seeding %s: %v", c.Name, err)
	}
}

// acceptLanguage makes every request of the tab send Accept-Language:
// lang.
func (p *tab) acceptLanguage(lang string) {
	p.t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": lang}})
		return err
	}))
}

// login signs in through the login form with the API key and waits for
// the chat page.
func (p *tab) login(s *site) {
	p.t.Helper()
	p.navigate(s.base + "/login")
	p.do(chromedp.SetValue(chromedp.CSS("#api_key"), s.key))
	p.click("form.login button[type=submit]")
	p.appReady()
}

// appReady waits until a page of the app is loaded with its scripts: a
// message sent before htmx is there is posted as a plain form.
func (p *tab) appReady() {
	p.t.Helper()
	p.waitFor("form.composer")
	p.wait("the page's scripts", `document.readyState === 'complete' && window.htmx !== undefined`)
}

// waitFor waits until an element the CSS selector matches is in the page
// (across page loads).
func (p *tab) waitFor(selector string) {
	p.t.Helper()
	if _, err := run(p, chromedp.WaitReady(chromedp.CSS(selector))); err != nil {
		p.t.Fatalf("waiting for %s: %v", selector, err)
	}
}

// send types a message into the message box and presses Send.
func (p *tab) send(message string) {
	p.t.Helper()
	p.do(chromedp.SetValue(chromedp.CSS("#message"), message))
	p.click("form.composer button[type=submit]")
}
