package browser

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// recordComponents starts recording, in the page, the first appearance of
// each kind of component: in which order, when (performance.now()), and
// whether the live stream was still open then. It also marks the page, so
// that a test can tell the components came into this page rather than
// with a new one.
const recordComponents = `(() => {
	window.__tripgraphPage = true;
	window.__seen = [];
	const note = el => {
		if (el.nodeType !== 1 || !el.classList.contains('component')) return;
		const kind = [...el.classList].find(c => c !== 'component' && !c.startsWith('booking-'));
		if (window.__seen.some(s => s.kind === kind)) return;
		window.__seen.push({kind, at: performance.now(), live: document.getElementById('live') !== null});
	};
	new MutationObserver(records => {
		for (const r of records) for (const n of r.addedNodes) {
			if (n.nodeType !== 1) continue;
			note(n);
			n.querySelectorAll('.component').forEach(note);
		}
	}).observe(document.body, {childList: true, subtree: true});
	return true;
})()`

// seen is a component's first appearance, as recordComponents notes it.
type seen struct {
	Kind string  `json:"kind"`
	At   float64 `json:"at"`
	Live bool    `json:"live"`
}

// runEnded is true once the reply's live stream is closed and the message
// box is free again.
const runEnded = `document.getElementById('live') === null && document.querySelector('form.composer[aria-busy="true"]') === null`

// threadPath matches the path of a thread page.
var threadPath = regexp.MustCompile(`^/app/threads/[^/?#]+$`)

// TestServeInBrowser drives the pages of one real serve: a traveller's
// whole visit, the Portuguese interface, and memory across conversations.
func TestServeInBrowser(t *testing.T) {
	pgtest.Skip(t)
	browser(t) // before the server, which takes a while to start
	s := startSite(t)
	t.Run("traveller", func(t *testing.T) { traveller(t, s) })
	t.Run("Portuguese", func(t *testing.T) { portuguese(t, s) })
	t.Run("memory", func(t *testing.T) { memory(t, s) })
}

// traveller follows a traveller through the pages, in one tab: log in
// with a key, plan Lisbon and watch it stream, filter the restaurants,
// book a stay and reload, ask for beach photos, scrub the timeline back
// and fork to another city. Each step is a subtest with its own
// screenshot; a step needs the ones before it.
func traveller(t *testing.T, s *site) {
	p := newTab(t)
	p.acceptLanguage("en")
	var thread string // the Lisbon thread's URL

	step := func(name string, f func(p *tab)) {
		if !t.Run(name, func(t *testing.T) { f(p.under(t)) }) {
			t.FailNow()
		}
	}
	step("log in with an API key", func(p *tab) {
		p.login(s)
		if got := eval[string](p, "location.pathname"); got != "/app" {
			p.t.Errorf("after logging in the page is %s, want /app", got)
		}
	})
	step("Lisbon streams trip, stays, restaurants in order", func(p *tab) {
		eval[bool](p, recordComponents)
		p.send("4 nights in Lisbon in May, 3 of us")
		p.wait("the reply to end", runEnded+` && window.__seen.some(s => s.kind === 'restaurants')`)
		got := eval[[]seen](p, "window.__seen")
		var order []string
		for _, c := range got {
			order = append(order, c.Kind)
			if !c.Live {
				p.t.Errorf("%s appeared after the live stream had closed", c.Kind)
			}
		}
		if want := "trip-details accommodations restaurants"; strings.Join(order, " ") != want {
			p.t.Errorf("components appeared in the order %q, want %q", order, want)
		}
		if !eval[bool](p, "window.__tripgraphPage === true") {
			p.t.Error("the page was reloaded: the components did not stream into it")
		}
		if eval[bool](p, `[...document.querySelectorAll('#conversation > .hint')].some(e => e.offsetParent !== null)`) {
			p.t.Error("the empty conversation's hint still shows above the first message")
		}
		p.t.Logf("first appearances (ms after recording began): %+v", got)
		thread = currentThread(p)
	})
	step("restaurant cuisine chips filter", func(p *tab) {
		checkCuisineChips(p, "#conversation .component.restaurants")
	})
	step("chat page accessibility", func(p *tab) {
		checkAccessibility(p)
	})
	step("booking is confirmed and survives a reload", func(p *tab) {
		card := "#conversation .component.accommodations .card"
		name := eval[string](p, fmt.Sprintf(`document.querySelector(%q).textContent.trim()`, card+" h4"))
		p.click(card + " details summary")
		total := eval[string](p, fmt.Sprintf(`document.querySelector(%q).textContent.trim()`, card+" .total-amount"))
		p.click(card + " button.book")
		p.waitFor("#conversation .component.booking form.answer")
		p.click("#conversation .component.booking form.answer button[value=true]")
		p.waitFor("#conversation .component.booking.booking-booked")
		p.wait("the booking reply to end", runEnded)
		p.do(chromedp.Reload())
		p.waitFor("#conversation .component.booking.booking-booked")
		booked := eval[string](p, `document.querySelector('#conversation .component.booking.booking-booked').textContent`)
		if !strings.Contains(booked, name) {
			p.t.Errorf("after a reload the booked card does not name %q:\n%s", name, booked)
		}
		if got := eval[string](p, `document.querySelector('#conversation .component.booking.booking-booked .total-amount').textContent.trim()`); got != total {
			p.t.Errorf("the booking's total is %s; the stay's details said %s", got, total)
		}
		if n := eval[int](p, `document.querySelectorAll('#conversation .component.booking form.answer').length`); n != 0 {
			p.t.Errorf("after a reload the booking still asks for an answer (%d forms)", n)
		}
	})
	step("beach photos load", func(p *tab) {
		p.navigate(s.base + "/app")
		p.appReady()
		p.send("mostre fotos da praia")
		p.waitFor("#conversation .component.photos img")
		p.wait("the reply to end", runEnded)
		checkImagesLoad(p, "#conversation .component.photos > .grid img")
		// More than a screen of photos: the rest are behind "show more".
		more := eval[int](p, `document.querySelectorAll('#conversation .component.photos .more img').length`)
		if more == 0 {
			p.t.Fatal("the beach photos have no \"show more\": the grid stops at its first page")
		}
		p.click("#conversation .component.photos .more summary")
		checkImagesLoad(p, "#conversation .component.photos .more li:nth-child(-n+6) img")
		p.t.Logf("%d more photos behind \"show more\"", more)
	})
	var oldHead string // the Lisbon branch's newest step, before the fork
	step("timeline step 2 shows the earlier state", func(p *tab) {
		p.navigate(thread + "/timeline")
		p.waitFor("nav.timeline li a")
		oldHead = eval[string](p, `document.querySelector('nav.timeline li a').href`)
		i := eval[int](p, `[...document.querySelectorAll('nav.timeline li a')].findIndex(a => /\bStep 2\b/.test(a.textContent)) + 1`)
		if i == 0 {
			p.t.Fatal("the timeline has no step 2")
		}
		p.click(fmt.Sprintf("nav.timeline li:nth-child(%d) a", i))
		// The timeline opens on its newest step, so a current step is there
		// before the click's page has replaced it: wait for step 2's.
		p.wait("step 2 to be the selected step", `document.querySelector('nav.timeline a[aria-current="step"] strong')?.textContent === 'Step 2'`)
		kinds := componentKinds(p, ".replay")
		if !containsAll(kinds, "trip-details", "accommodations", "restaurants") || slices.Contains(kinds, "booking") {
			p.t.Errorf("step 2 shows components %q; want the trip, stays and restaurants, and not the booking made later", kinds)
		}
		if got := eval[int](p, `document.querySelectorAll('#conversation .component.booking').length`); got != 0 {
			p.t.Errorf("step 2 shows %d booking cards", got)
		}
	})
	step("replay page accessibility", func(p *tab) {
		checkAccessibility(p)
	})
	step("fork from step 2 to Porto, the Lisbon branch unchanged", func(p *tab) {
		p.do(chromedp.SetValue(chromedp.CSS("form.fork [name=message]"), "4 nights in Porto in May, 3 of us"))
		p.click("form.fork button[type=submit]")
		p.waitFor("#conversation .component.trip-details")
		p.wait("the Porto trip", `[...document.querySelectorAll('#conversation .component.trip-details')].some(c => c.textContent.includes('Porto'))`)
		p.wait("the forked reply to end", runEnded)
		p.do(chromedp.Reload()) // the thread as the fork saved it
		p.waitFor("#conversation .component.trip-details")
		if trips := eval[string](p, `[...document.querySelectorAll('#conversation .component.trip-details')].map(c => c.textContent).join(' ')`); !strings.Contains(trips, "Porto") {
			p.t.Errorf("after a reload the thread's trip is %q, want Porto", trips)
		}
		if n := eval[int](p, `document.querySelectorAll('#conversation .component.booking').length`); n != 0 {
			p.t.Errorf("the fork shows %d booking cards: it did not start from step 2, before the booking", n)
		}
		p.navigate(oldHead)
		p.waitFor(".replay .component.booking.booking-booked")
		trips := eval[string](p, `[...document.querySelectorAll('.replay .component.trip-details')].map(c => c.textContent).join(' ')`)
		if !strings.Contains(trips, "Lisbon") || strings.Contains(trips, "Porto") {
			p.t.Errorf("the Lisbon branch's newest step now shows the trip %q", trips)
		}
	})
}

// under is the same tab seen from a subtest: failures and the screenshot
// are the subtest's.
func (p *tab) under(t *testing.T) *tab {
	q := &tab{t: t, ctx: p.ctx, errors: p.errors}
	t.Cleanup(q.screenshot)
	return q
}

// currentThread is the URL of the thread the page shows: the address when
// it is a thread page, else the current thread in the thread list.
func currentThread(p *tab) string {
	p.t.Helper()
	if path := eval[string](p, "location.pathname"); threadPath.MatchString(path) {
		return eval[string](p, "location.origin + location.pathname")
	}
	href := eval[string](p, `(document.querySelector('nav.threads a[aria-current="page"]') || {}).href || ''`)
	if href == "" {
		p.t.Fatal("the page names no current thread (neither its address nor the thread list)")
	}
	return href
}

// componentKinds lists the kinds of the components inside the element the
// selector matches, in document order.
func componentKinds(p *tab, within string) []string {
	return eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll(%q)].map(el =>
		[...el.classList].find(c => c !== 'component' && !c.startsWith('booking-')))`, within+" .component"))
}

// loadImages scrolls each image into view, waits (up to 5 s) until the
// browser is done with it (lazy images load only when near the viewport)
// and returns the ones that did not load. Images behind a closed "show
// more" are not shown, so not counted.
const loadImages = `(async sel => {
	const bad = [];
	const shown = [...document.querySelectorAll(sel)].filter(img => !img.closest('details:not([open])'));
	for (const img of shown) {
		img.scrollIntoView({block: 'center'});
		for (let i = 0; i < 100 && !img.complete; i++) { // complete: loaded, or failed
			await new Promise(r => setTimeout(r, 50));
		}
		if (!(img.complete && img.naturalWidth > 0)) bad.push(img.currentSrc || img.src);
	}
	return {count: shown.length, bad};
})(%q)`

// checkImagesLoad fails the test when there is no image or any image does
// not load (a naturalWidth of 0 after it was scrolled into view).
func checkImagesLoad(p *tab, selector string) {
	p.t.Helper()
	res := eval[struct {
		Count int      `json:"count"`
		Bad   []string `json:"bad"`
	}](p, fmt.Sprintf(loadImages, selector))
	if res.Count == 0 {
		p.t.Fatalf("no image matches %s", selector)
	}
	if len(res.Bad) > 0 {
		p.t.Errorf("%d of %d images did not load, among them: %q", len(res.Bad), res.Count, res.Bad[:min(3, len(res.Bad))])
		return
	}
	p.t.Logf("%d images loaded", res.Count)
}

func containsAll(list []string, want ...string) bool {
	for _, w := range want {
		if !slices.Contains(list, w) {
			return false
		}
	}
	return true
}
