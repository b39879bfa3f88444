package browser

import (
	"testing"

	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// TestFirstCardPromptly checks what keeps the first card of a reply from
// waiting in the page: the live stream is asked for in the same task as
// the message's answer is swapped in (not after htmx's settle delay), no
// copy of the whole page is made for the browser's history (Back loads
// the page again), and a stream that hands over many fragments at once
// makes the page follow the reply once per frame, not once per fragment.
func TestFirstCardPromptly(t *testing.T) {
	pgtest.Skip(t)
	browser(t)
	s := startSite(t)
	t.Run("the stream is asked for with the answer", func(t *testing.T) {
		p := newTab(t)
		p.acceptLanguage("en")
		p.login(s)
		eval[bool](p, `(() => {
			const ES = window.EventSource;
			window.EventSource = function (url, opts) { window.__made = true; return new ES(url, opts); };
			document.addEventListener('htmx:afterSwap', () => {
				setTimeout(() => { window.__madeBy = window.__made === true; }, 0);
			}, {once: true});
			return true;
		})()`)
		p.send("4 nights in Lisbon in May, 3 of us")
		p.wait("the reply to end", runEnded)
		if !eval[bool](p, "window.__madeBy") {
			t.Error("the live stream was not asked for in the task that swapped the answer in")
		}
	})
	t.Run("no history copy, and Back loads the page", func(t *testing.T) {
		p := newTab(t)
		p.acceptLanguage("en")
		p.login(s)
		p.navigate(s.base + "/app")
		p.appReady()
		p.send("4 nights in Lisbon in May, 3 of us")
		p.wait("the thread's address", `location.pathname.startsWith('/app/threads/')`)
		p.wait("the reply to end", runEnded)
		if eval[bool](p, `sessionStorage.getItem('htmx-history-cache') !== null`) {
			t.Error("htmx kept a copy of the page in session storage")
		}
		eval[bool](p, `(window.__before = true, history.back(), true)`)
		p.wait("the new conversation's page, loaded again", `location.pathname === '/app' && window.__before === undefined && document.readyState === 'complete'`)
		if n := eval[int](p, `document.querySelectorAll('#conversation article.message').length`); n != 0 {
			t.Errorf("Back shows %d messages on the new conversation's page, want none", n)
		}
	})
	t.Run("a catching-up stream is followed once per frame", func(t *testing.T) {
		p := newTab(t)
		p.acceptLanguage("en")
		p.login(s)
		// The stream is opened 1.5 s late, when the run has written most
		// of its events: they come in one go, handled in one task.
		eval[bool](p, lateStream+`
			window.__frame = 0;
			(function tick() { window.__frame++; requestAnimationFrame(tick); })();
			window.__perFrame = {};
			const scroll = Element.prototype.scrollIntoView;
			Element.prototype.scrollIntoView = function (...a) {
				if (this.closest('#conversation') && !this.matches('article.message.human.pending')) {
					window.__perFrame[window.__frame] = (window.__perFrame[window.__frame] || 0) + 1;
				}
				return scroll.apply(this, a);
			};
			true`)
		p.send("4 nights in Lisbon in May, 3 of us")
		p.wait("the reply to end", runEnded+` && document.querySelector('#conversation .component.restaurants')`)
		perFrame := eval[map[string]int](p, "window.__perFrame")
		if len(perFrame) == 0 {
			t.Fatal("the page never scrolled to the reply")
		}
		for frame, n := range perFrame {
			if n > 1 {
				t.Errorf("the page scrolled to the reply %d times in frame %s, want once a frame at most (all: %v)", n, frame, perFrame)
			}
		}
	})
}

// lateStream makes the page's EventSource connect 1.5 s after it is made,
// as if the stream had been slow to open: a stand-in that takes the
// listeners until the real one is there.
const lateStream = `(() => {
	const ES = window.EventSource;
	window.EventSource = class extends EventTarget {
		constructor(url, opts) {
			super();
			this.url = url; this.readyState = 0; this.listeners = [];
			setTimeout(() => {
				if (this.readyState === 2) return;
				const es = this.real = new ES(url, opts);
				es.onopen = e => { this.readyState = es.readyState; this.onopen && this.onopen(e); };
				es.onerror = e => { this.readyState = es.readyState; this.onerror && this.onerror(e); };
				es.onmessage = e => { this.onmessage && this.onmessage(e); };
				for (const [name, f] of this.listeners) es.addEventListener(name, f);
			}, 1500);
		}
		addEventListener(name, f) { this.listeners.push([name, f]); if (this.real) this.real.addEventListener(name, f); }
		removeEventListener(name, f) { this.listeners = this.listeners.filter(l => l[0] !== name || l[1] !== f); if (this.real) this.real.removeEventListener(name, f); }
		close() { this.readyState = 2; if (this.real) this.real.close(); }
	};
})();`
