package browser

import (
	"slices"
	"testing"
)

// timeSend notes, in the page, when the message form is submitted (the
// press of Send) and when the conversation first shows the traveller's
// own message and then the first component, each when it is added and at
// the animation frame after that (the frame that paints it), all with
// performance.now(). It resolves with the milliseconds from Send to each.
const timeSend = `new Promise(resolve => {
	let sent, message;
	document.querySelector('form.composer').addEventListener('submit', () => { sent = performance.now(); }, {capture: true, once: true});
	new MutationObserver((records, observer) => {
		if (sent === undefined) return;
		for (const r of records) for (const n of r.addedNodes) {
			if (n.nodeType !== 1) continue;
			if (message === undefined && n.matches('article.message.human')) {
				const added = performance.now() - sent;
				message = {added, painted: added};
				requestAnimationFrame(() => { message.painted = performance.now() - sent; });
			}
			if (n.matches('.component') || n.querySelector('.component')) {
				observer.disconnect();
				const added = performance.now() - sent;
				requestAnimationFrame(() => resolve({message, card: {added, painted: performance.now() - sent}}));
				return;
			}
		}
	}).observe(document.getElementById('conversation'), {childList: true, subtree: true});
	window.__sendTimes = undefined;
}).then(t => { window.__sendTimes = t; })`

// sendTimes are the milliseconds from Send to the traveller's message on
// screen and to the first component.
type sendTimes struct {
	Message moment `json:"message"`
	Card    moment `json:"card"`
}

// moment is when something was added to the page and when the frame that
// paints it began, in milliseconds after Send.
type moment struct {
	Added   float64 `json:"added"`
	Painted float64 `json:"painted"`
}

// BenchmarkSendToFirstComponent measures, in the browser, the time from
// pressing Send on a new conversation to the traveller's own message on
// screen and to the first component ("4 nights in Lisbon in May, 3 of
// us" with the offline model, against a real serve on this machine). It
// reports the median and the slowest of each.
func BenchmarkSendToFirstComponent(b *testing.B) {
	browser(b) // before the server, which takes a while to start
	s := startSite(b)
	p := newTab(b)
	p.acceptLanguage("en")
	p.login(s)
	var message, card, cardAdded []float64
	for b.Loop() {
		p.navigate(s.base + "/app")
		p.appReady()
		eval[bool](p, `(`+timeSend+`, true)`)
		p.send("4 nights in Lisbon in May, 3 of us")
		p.wait("the first component", "window.__sendTimes !== undefined")
		t := eval[sendTimes](p, "window.__sendTimes")
		message, card = append(message, t.Message.Painted), append(card, t.Card.Painted)
		cardAdded = append(cardAdded, t.Card.Added)
		p.wait("the reply to end", runEnded)
	}
	b.Logf("ms from Send to the message on screen, round by round: %.0f", message)
	b.Logf("ms from Send to the first component, round by round: %.0f", card)
	b.Logf("ms from Send to the first component added (before its frame), round by round: %.0f", cardAdded)
	slices.Sort(message)
	slices.Sort(card)
	slices.Sort(cardAdded)
	b.ReportMetric(message[len(message)/2], "ms-message-median")
	b.ReportMetric(message[len(message)-1], "ms-message-max")
	b.ReportMetric(card[len(card)/2], "ms-card-median")
	b.ReportMetric(card[len(card)-1], "ms-card-max")
	b.ReportMetric(cardAdded[len(cardAdded)/2], "ms-card-added-median")
}
