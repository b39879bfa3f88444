package browser

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"

	"github.com/jackc/pgx/v5"
)

// timeSendSteps notes, in the page, what happens between the press of Send
// and the first card's frame, in milliseconds after Send: the message's
// post (its request and answer, from the page's resource timing), the
// answer swapped in, the live stream's EventSource made and open, the
// stream's request and headers, each fragment's arrival (with its event
// id, the run event's seq) and the first card added and painted. The wall
// clock time of Send (performance.timeOrigin + the press) lets the server's
// times, read from the database, be put on the same line.
const timeSendSteps = `(() => {
	const m = {frags: []};
	const now = () => performance.now() - m.sentAt;
	window.__steps = undefined;
	const ES = window.EventSource;
	window.EventSource = function (url, opts) {
		m.sourceMade = now();
		const es = new ES(url, opts);
		es.addEventListener('open', () => { m.sourceOpen = now(); });
		es.addEventListener('fragment', e => { m.frags.push({at: now(), id: e.lastEventId, card: e.data.includes('class="component')}); });
		window.EventSource = ES;
		return es;
	};
	document.querySelector('form.composer').addEventListener('submit', () => { performance.mark('send'); m.sentAt = performance.now(); m.wall = performance.timeOrigin + m.sentAt; }, {capture: true, once: true});
	document.addEventListener('htmx:afterSwap', () => { if (m.swapped === undefined) m.swapped = now(); }, {once: true});
	m.events = {};
	for (const name of ['htmx:beforeRequest', 'htmx:afterRequest', 'htmx:beforeSwap', 'htmx:beforeHistorySave', 'htmx:pushedIntoHistory', 'htmx:afterSettle', 'htmx:sseOpen', 'htmx:sseBeforeMessage', 'htmx:sseMessage', 'htmx:oobAfterSwap']) {
		document.addEventListener(name, () => { if (m.sentAt !== undefined && m.events[name] === undefined) m.events[name] = now(); }, {capture: true});
	}
	new MutationObserver((records, observer) => {
		if (m.sentAt === undefined) return;
		for (const r of records) for (const n of r.addedNodes) {
			if (n.nodeType === 1 && (n.matches('.component') || n.querySelector('.component'))) {
				observer.disconnect();
				m.cardAdded = now();
				performance.mark('card added');
				requestAnimationFrame(() => { m.cardPainted = now(); performance.mark('card frame'); window.__steps = m; });
				return;
			}
		}
	}).observe(document.getElementById('conversation'), {childList: true, subtree: true});
	return true;
})()`

// resourceSteps adds to the page's marks the post's and the stream's
// resource timing (read once the stream has ended, when its entry is
// there), in milliseconds after Send.
const resourceSteps = `(() => {
	const m = window.__steps;
	const rel = t => t - m.sentAt;
	for (const e of performance.getEntriesByType('resource')) {
		if (e.startTime < m.sentAt) continue;
		const r = {start: rel(e.startTime), request: rel(e.requestStart), response: rel(e.responseStart), end: rel(e.responseEnd)};
		if (e.name.includes('/live')) m.stream = m.stream || r;
		else if (e.name.endsWith('/messages')) m.post = m.post || r;
	}
	m.threadPath = location.pathname;
	return m;
})()`

// stepMarks are a round's marks in the page (timeSendSteps and
// resourceSteps), in ms after Send; events are the first time each htmx
// event of interest fired.
type stepMarks struct {
	SentAt      float64            `json:"sentAt"`
	Wall        float64            `json:"wall"` // ms since the epoch
	Swapped     float64            `json:"swapped"`
	SourceMade  float64            `json:"sourceMade"`
	SourceOpen  float64            `json:"sourceOpen"`
	Frags       []arrival          `json:"frags"`
	CardAdded   float64            `json:"cardAdded"`
	CardPainted float64            `json:"cardPainted"`
	Post        resource           `json:"post"`
	Stream      resource           `json:"stream"`
	ThreadPath  string             `json:"threadPath"`
	Events      map[string]float64 `json:"events"`
}

// arrival is a stream fragment's arrival: when, its event id, and
// whether it holds a component.
type arrival struct {
	At   float64 `json:"at"`
	ID   string  `json:"id"`
	Card bool    `json:"card"`
}

// resource is a request's resource timing, in ms after Send.
type resource struct {
	Start    float64 `json:"start"`
	Request  float64 `json:"request"`
	Response float64 `json:"response"`
	End      float64 `json:"end"`
}

// serverMarks are the server's times of a round's run, in ms after Send:
// the run made and claimed, each checkpoint written, and the run event
// the first card came in.
type serverMarks struct {
	created, started float64
	checkpoints      []string // node@ms
	cardEvent        float64
}

// BenchmarkSendToFirstComponentSteps breaks BenchmarkSendToFirstComponent's
// time down: it logs, round by round and as medians, when each step
// between Send and the first card's frame happened, from the page's own
// marks and the server's times in the database (both on this machine's
// clock).
func BenchmarkSendToFirstComponentSteps(b *testing.B) {
	browser(b)
	s := startSite(b)
	p := newTab(b)
	p.acceptLanguage("en")
	p.login(s)
	db, err := pgx.Connect(context.Background(), testURL)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close(context.Background())
	rows := map[string][]float64{}
	note := func(name string, v float64) { rows[name] = append(rows[name], v) }
	trace := os.Getenv("BROWSER_TRACE") // a file to write the second round's trace to
	for i := 0; b.Loop(); i++ {
		p.navigate(s.base + "/app")
		p.appReady()
		eval[bool](p, timeSendSteps)
		round := func() {
			p.send("4 nights in Lisbon in May, 3 of us")
			p.wait("the first component", "window.__steps !== undefined")
			p.wait("the reply to end", runEnded)
		}
		if trace != "" && i == 1 { // the second round: the first warms up
			traceRound(p, trace, round)
		} else {
			round()
		}
		m := eval[stepMarks](p, resourceSteps)
		sv, err := readServerMarks(db, m)
		if err != nil {
			b.Fatal(err)
		}
		card := firstCard(m.Frags)
		note("a post: request sent", m.Post.Request)
		note("b post: answer's first byte", m.Post.Response)
		note("c post: answer swapped", m.Swapped)
		note("d stream: EventSource made", m.SourceMade)
		note("e stream: request sent", m.Stream.Request)
		note("f stream: headers (open)", m.Stream.Response)
		note("s1 server: run created", sv.created)
		note("s2 server: run claimed", sv.started)
		note("s3 server: card's event written", sv.cardEvent)
		note("b2 post: answer's end", m.Post.End)
		for name, at := range m.Events {
			note("ev "+name, at)
		}
		note("g card's fragment arrives", card.At)
		note("h card added", m.CardAdded)
		note("i card's frame", m.CardPainted)
		fmt.Fprintf(os.Stderr, "round: checkpoints %s; fragments %v\n", strings.Join(sv.checkpoints, " "), m.Frags)
	}
	var names []string
	for n := range rows {
		names = append(names, n)
	}
	slices.Sort(names)
	var out strings.Builder
	for _, n := range names {
		v := slices.Clone(rows[n])
		fmt.Fprintf(&out, "\n%-36s median %6.1f ms  rounds %.0f", n, median(v), rows[n])
	}
	fmt.Fprintln(os.Stderr, out.String())
}

// firstCard is the first fragment that holds a component.
func firstCard(frags []arrival) arrival {
	for _, f := range frags {
		if f.Card {
			return f
		}
	}
	return arrival{}
}

// median sorts v and returns its middle value.
func median(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
}

// readServerMarks reads the round's run from the database: its thread is
// the page's (the address the answer pushed).
func readServerMarks(db *pgx.Conn, m stepMarks) (serverMarks, error) {
	ctx := context.Background()
	thread := m.ThreadPath[strings.LastIndex(m.ThreadPath, "/")+1:]
	rel := func(t time.Time) float64 { return float64(t.UnixMicro())/1000 - m.Wall }
	var sv serverMarks
	var runID string
	var created, started time.Time
	err := db.QueryRow(ctx, `SELECT id, created_at, started_at FROM runs WHERE thread_id = $1 ORDER BY created_at LIMIT 1`, thread).
		Scan(&runID, &created, &started)
	if err != nil {
		return sv, fmt.Errorf("reading the run of thread %s: %w", thread, err)
	}
	sv.created, sv.started = rel(created), rel(started)
	rows, err := db.Query(ctx, `SELECT node, created_at FROM checkpoints WHERE thread_id = $1 ORDER BY id`, thread)
	if err != nil {
		return sv, err
	}
	for rows.Next() {
		var node string
		var at time.Time
		if err := rows.Scan(&node, &at); err != nil {
			return sv, err
		}
		sv.checkpoints = append(sv.checkpoints, fmt.Sprintf("%s@%.1f", node, rel(at)))
	}
	if err := rows.Err(); err != nil {
		return sv, err
	}
	card := firstCard(m.Frags)
	var at time.Time
	if err := db.QueryRow(ctx, `SELECT created_at FROM run_events WHERE run_id = $1 AND seq = $2`, runID, card.ID).Scan(&at); err != nil {
		return sv, fmt.Errorf("reading the card's event %s of run %s: %w", card.ID, runID, err)
	}
	sv.cardEvent = rel(at)
	return sv, nil
}

// traceRound records the browser's timeline (the page's scripts, style,
// layout, paint and frames, and the page's performance marks) while round
// runs, and writes it as a JSON array of trace events to path, which
// chromium's trace viewer and Perfetto open.
func traceRound(p *tab, path string, round func()) {
	p.t.Helper()
	var mu sync.Mutex
	var events []jsonv2.Value
	done := make(chan struct{})
	chromedp.Listen(p.ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			events = append(events, e.Value...)
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(done)
		}
	})
	categories := []string{"devtools.timeline", "disabled-by-default-devtools.timeline", "disabled-by-default-devtools.timeline.frame", "blink.user_timing", "loading", "toplevel", "v8.execute", "blink"}
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, tracing.Start, tracing.StartParams{TransferMode: tracing.StartTransferModeReportEvents,
			TraceConfig: &tracing.TraceConfig{IncludedCategories: categories}})
		return err
	}))
	round()
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, tracing.End, cdp.Empty{})
		return err
	}))
	select {
	case <-done:
	case <-time.After(actionTimeout):
		p.t.Fatal("the trace did not complete")
	}
	mu.Lock()
	defer mu.Unlock()
	var out bytes.Buffer
	out.WriteString("[")
	for i, e := range events {
		if i > 0 {
			out.WriteString(",\n")
		}
		out.Write(e)
	}
	out.WriteString("]")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		p.t.Fatalf("writing the trace: %v", err)
	}
}
