package browser

import (
	"slices"
	"testing"
)

// timeFirstComponent notes, in the page, when the message form is
// submitted (the press of Send) and when the first component is added
// to the conversation, both with performance.now(), and resolves with the
// milliseconds between them.
const timeFirstComponent = `new Promise(resolve => {
	let sent;
	document.querySelector('form.composer').addEventListener('submit', () => { sent = performance.now(); }, {capture: true, once: true});
	new MutationObserver((records, observer) => {
		for (const r of records) for (const n of r.addedNodes) {
			if (n.nodeType === 1 && sent !== undefined && (n.matches('.component') || n.querySelector('.component'))) {
				observer.disconnect();
				resolve(performance.now() - sent);
				return;
			}
		}
	}).observe(document.getElementById('conversation'), {childList: true, subtree: true});
	window.__firstComponent = undefined;
}).then(ms => { window.__firstComponent = ms; })`

// BenchmarkSendToFirstComponent measures, in the browser, the time from
// pressing Send on a new conversation to the first component on screen
// ("4 nights in Lisbon in May, 3 of us" with the offline model, against a
// real serve on this machine). It reports the median and the slowest.
func BenchmarkSendToFirstComponent(b *testing.B) {
	browser(b) // before the server, which takes a while to start
	s := startSite(b)
	p := newTab(b)
	p.acceptLanguage("en")
	p.login(s)
	var times []float64
	for b.Loop() {
		p.navigate(s.base + "/app")
		p.appReady()
		eval[bool](p, `(`+timeFirstComponent+`, true)`)
		p.send("4 nights in Lisbon in May, 3 of us")
		p.wait("the first component", "window.__firstComponent !== undefined")
		times = append(times, eval[float64](p, "window.__firstComponent"))
		p.wait("the reply to end", runEnded)
	}
	b.Logf("ms from Send to the first component, round by round: %.0f", times)
	slices.Sort(times)
	b.ReportMetric(times[len(times)/2], "ms-median")
	b.ReportMetric(times[len(times)-1], "ms-max")
}
