package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// streamModes are the modes every stream asks for; a stream carries every
// stored event of these and every error event.
var streamModes = []string{"values", "updates", "custom", "messages-tuple"}

// streamedEvents are the SSE event names of streamModes.
var streamedEvents = map[string]bool{"values": true, "updates": true, "custom": true, "messages": true, "error": true}

// messages are what the travellers say, drawn at random.
var messages = []string{
	"4 nights in Lisbon in May, 3 of us",
	"3 nights in Porto in June, 2 of us",
	"Hotels in Lisbon from July 10 to July 14 for 2 adults",
	"Quero ir a Lisboa em maio, 3 noites, somos 2",
	"Restaurants in Porto for tonight",
	"A week in Lisbon in September for two",
	"thank you",
}

// Bounds of one client's waits.
const (
	createPatience = 90 * time.Second // to start a run through outages
	followPatience = 3 * time.Minute  // to see a started run end
	streamIdle     = 45 * time.Second // a stream silent this long is dropped and joined again
)

// frame is one SSE frame a client received.
type frame struct {
	ID    int64 // 0 when the frame has none
	Event string
	Data  []byte
}

// runRecord is what one client saw of one run.
type runRecord struct {
	Client  int
	Thread  string
	Run     string // "" when no run was started
	Kind    string // turn, ask (a booking request), confirm or decline
	Adopted bool   // found on the thread after the request that made it failed
	Frames  []frame
	Status  string // the final status the client read
	Drops   int    // streams the client dropped on purpose and joined again
	Rejoins int    // streams that ended or broke before the run did, joined again
	Stalls  int    // streams silent for streamIdle, dropped and joined again
	// EarlyEnds are streams that ended without an error before their run
	// did: a client that trusts the end misses the rest.
	EarlyEnds int
	Streams   []string // each stream the client read: where, from where, how it ended
	GaveUp    string   // why the client stopped following, when it did
	Refused   string   // a 4xx that refused the run
	Key       string   // for confirm: the confirmation key sent
	Booked    bookedCard
	Started   time.Time
	Ended     time.Time
}

// bookedCard is the booking-confirmation card a confirm run showed last.
type bookedCard struct {
	Status    string
	BookingID string
}

// stay is one booking a client asks for: a place and dates no other
// booking of the campaign shares.
type stay struct {
	ID         string
	Start, End string
}

// client is one traveller with their own API key, doing turns on their
// threads until the campaign stops starting runs.
type client struct {
	id       int
	key      string
	servers  []string // base URLs
	rng      *rand.Rand
	http     *http.Client
	nextStay func() stay
	known    map[string]bool // run ids this client has seen
	runs     []*runRecord
	threads  []string
	// counters of what the client did, for the report
	threadFails int
}

// loop does turns until stopping is closed, then returns. Each turn is
// bounded by createPatience and followPatience.
func (c *client) loop(ctx context.Context, stopping <-chan struct{}) {
	thread := ""
	for {
		select {
		case <-stopping:
			return
		case <-ctx.Done():
			return
		default:
		}
		if thread == "" || c.rng.Float64() < 0.15 {
			t, err := c.createThread(ctx)
			if err != nil {
				c.threadFails++
				sleep(ctx, time.Second)
				continue
			}
			thread = t
			c.threads = append(c.threads, t)
		}
		if c.rng.Float64() < 0.25 {
			c.book(ctx, thread)
		} else {
			msg := messages[c.rng.IntN(len(messages))]
			c.run(ctx, thread, "turn", map[string]any{"assistant_id": "trip-planner",
				"input": map[string]any{"messages": []map[string]string{{"role": "user", "content": msg}}}})
		}
		sleep(ctx, time.Duration(c.rng.IntN(500))*time.Millisecond)
	}
}

// book asks for a stay, and answers the confirmation it gets: mostly yes.
func (c *client) book(ctx context.Context, thread string) {
	s := c.nextStay()
	ask := c.run(ctx, thread, "ask", map[string]any{"assistant_id": "trip-planner", "input": map[string]any{
		"messages":       []map[string]string{{"role": "user", "content": "Book it, please"}},
		"bookingRequest": map[string]any{"id": s.ID, "startDate": s.Start, "endDate": s.End, "guests": 1},
	}})
	if ask.Status != "interrupted" {
		return
	}
	key := pendingKey(ask.Frames)
	if key == "" {
		return
	}
	kind, confirmed := "confirm", true
	if c.rng.Float64() < 0.15 {
		kind, confirmed = "decline", false
	}
	rec := c.run(ctx, thread, kind, map[string]any{"assistant_id": "trip-planner",
		"command": map[string]any{"resume": map[string]any{"confirmed": confirmed, "key": key}}})
	rec.Key = key
	rec.Booked = lastBookingCard(rec.Frames)
}

// run starts a run on the thread and follows its stream to the end,
// through whatever the faults do to the servers and the streams.
func (c *client) run(ctx context.Context, thread, kind string, body map[string]any) *runRecord {
	rec := &runRecord{Client: c.id, Thread: thread, Kind: kind, Started: time.Now()}
	c.runs = append(c.runs, rec)
	defer func() { rec.Ended = time.Now() }()
	body["stream_mode"] = streamModes
	payload, _ := json.Marshal(body)
	deadline := time.Now().Add(createPatience)
	for wait := 200 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
		server := c.pick()
		resp, err := c.do(ctx, server, http.MethodPost, "/threads/"+thread+"/runs/stream", payload, nil)
		if err == nil {
			switch {
			case resp.StatusCode == http.StatusOK:
				stream := openSSE(server, resp.Body)
				if f, err := stream.next(streamIdle); err == nil && f.Event == "metadata" {
					var meta struct {
						RunID string `json:"run_id"`
					}
					json.Unmarshal(f.Data, &meta)
					rec.Run = meta.RunID
					c.known[rec.Run] = true
					c.follow(ctx, rec, stream)
					return rec
				}
				stream.close() // a run may have been made, its id not sent: it is found below
			case resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusConflict && resp.StatusCode != http.StatusTooManyRequests:
				msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
				resp.Body.Close()
				rec.Refused = fmt.Sprintf("%d %s", resp.StatusCode, bytes.TrimSpace(msg))
				return rec
			default:
				resp.Body.Close()
			}
		}
		// Whether the failed request made a run is unknown: a run on the
		// thread that the client has not seen is that run.
		if id := c.unseenRun(ctx, thread); id != "" {
			rec.Run, rec.Adopted = id, true
			c.known[id] = true
			c.follow(ctx, rec, nil)
			return rec
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			rec.GaveUp = "could not start the run"
			return rec
		}
		sleep(ctx, wait)
	}
}

// follow reads the run's stream until the run is final: it drops the
// stream on purpose now and then, and joins it again from the last event
// it got whenever it ends or breaks before the run does.
func (c *client) follow(ctx context.Context, rec *runRecord, stream *sse) {
	deadline := time.Now().Add(followPatience)
	dropAfter := c.dropPoint()
	var last int64
	for {
		if stream == nil {
			stream = c.join(ctx, rec, last, deadline)
			if stream == nil {
				rec.GaveUp = "could not join the stream"
				return
			}
		}
		n, dropped, ended, notice := 0, false, false, ""
		var err error
		for !dropped && !ended {
			var f frame
			if f, err = stream.next(streamIdle); err != nil {
				break
			}
			switch {
			case f.ID > 0:
				rec.Frames = append(rec.Frames, f)
				last = max(last, f.ID)
			case f.Event == "end":
				ended = true
			case f.Event == "error": // the stream's own, not the run's: it says to join again
				notice = string(f.Data)
			}
			n++
			dropped = dropAfter >= 0 && n >= dropAfter
		}
		if errors.Is(err, io.EOF) {
			ended = true // the server closes a stream once its run has ended, as LangGraph's does
		}
		stream.close()
		how := "ended"
		switch {
		case dropped:
			how = "dropped"
		case errors.Is(err, errStalled):
			how = "stalled"
			rec.Stalls++
		case !ended:
			how = fmt.Sprintf("broke (%v)", err)
		case notice != "":
			how = "ended with " + notice
		}
		rec.Streams = append(rec.Streams, fmt.Sprintf("%s after %d: %d frames, %s", stream.server, last, n, how))
		stream = nil
		if dropped {
			rec.Drops++
			if rec.Drops < 2 {
				dropAfter = c.dropPoint()
			} else {
				dropAfter = -1
			}
			continue
		}
		if ended && notice == "" {
			// A stream that ends without an error of its own has sent the
			// whole run: the run must be final now.
			status, err := c.runStatus(ctx, rec, deadline)
			if err != nil {
				rec.GaveUp = "could not read the run's status: " + err.Error()
				return
			}
			if final(status) {
				rec.Status = status
				return
			}
			rec.EarlyEnds++
		}
		rec.Rejoins++
		if time.Now().After(deadline) {
			rec.GaveUp = "the run did not end within " + followPatience.String()
			return
		}
	}
}

// dropPoint is after how many frames the client drops its next stream:
// -1 (it does not) for two streams out of three.
func (c *client) dropPoint() int {
	if c.rng.Float64() < 0.35 {
		return 1 + c.rng.IntN(12)
	}
	return -1
}

// join opens the run's stream again after event last, on any server,
// retrying until deadline.
func (c *client) join(ctx context.Context, rec *runRecord, last int64, deadline time.Time) *sse {
	q := "?stream_mode=" + strings.Join(streamModes, "&stream_mode=")
	header := http.Header{}
	if last > 0 {
		header.Set("Last-Event-ID", strconv.FormatInt(last, 10))
	}
	for wait := 200 * time.Millisecond; time.Now().Before(deadline) && ctx.Err() == nil; wait = min(2*wait, 2*time.Second) {
		server := c.pick()
		resp, err := c.do(ctx, server, http.MethodGet, "/threads/"+rec.Thread+"/runs/"+rec.Run+"/stream"+q, nil, header)
		if err == nil {
			if resp.StatusCode == http.StatusOK {
				stream := openSSE(server, resp.Body)
				if f, err := stream.next(streamIdle); err == nil && f.Event == "metadata" {
					return stream
				}
				stream.close()
			} else {
				resp.Body.Close()
			}
		}
		sleep(ctx, wait)
	}
	return nil
}

// runStatus reads the run's status on any server, retrying until deadline.
func (c *client) runStatus(ctx context.Context, rec *runRecord, deadline time.Time) (string, error) {
	var run struct {
		Status string `json:"status"`
	}
	err := c.getJSON(ctx, "/threads/"+rec.Thread+"/runs/"+rec.Run, deadline, &run)
	return run.Status, err
}

// unseenRun is a run on the thread this client has not seen, or "".
func (c *client) unseenRun(ctx context.Context, thread string) string {
	var runs []struct {
		RunID string `json:"run_id"`
	}
	if err := c.getJSON(ctx, "/threads/"+thread+"/runs?limit=10", time.Now().Add(createPatience), &runs); err != nil {
		return ""
	}
	for _, r := range runs {
		if !c.known[r.RunID] {
			return r.RunID
		}
	}
	return ""
}

// createThread makes a thread, retrying through outages.
func (c *client) createThread(ctx context.Context) (string, error) {
	deadline := time.Now().Add(createPatience)
	for wait := 200 * time.Millisecond; time.Now().Before(deadline) && ctx.Err() == nil; wait = min(2*wait, 2*time.Second) {
		resp, err := c.do(ctx, c.pick(), http.MethodPost, "/threads", []byte(`{}`), nil)
		if err == nil {
			var t struct {
				ThreadID string `json:"thread_id"`
			}
			ok := resp.StatusCode == http.StatusOK && json.NewDecoder(resp.Body).Decode(&t) == nil && t.ThreadID != ""
			resp.Body.Close()
			if ok {
				return t.ThreadID, nil
			}
		}
		sleep(ctx, wait)
	}
	return "", errors.New("no thread made through the outages")
}

// getJSON reads path's JSON on any server, retrying failures until
// deadline.
func (c *client) getJSON(ctx context.Context, path string, deadline time.Time, into any) error {
	var last error
	for wait := 200 * time.Millisecond; time.Now().Before(deadline) && ctx.Err() == nil; wait = min(2*wait, 2*time.Second) {
		resp, err := c.do(ctx, c.pick(), http.MethodGet, path, nil, nil)
		if err == nil {
			if resp.StatusCode == http.StatusOK {
				err = json.NewDecoder(resp.Body).Decode(into)
				resp.Body.Close()
				if err == nil {
					return nil
				}
			} else {
				err = fmt.Errorf("GET %s: %d", path, resp.StatusCode)
				resp.Body.Close()
			}
		}
		last = err
		sleep(ctx, wait)
	}
	return fmt.Errorf("GET %s: gave up: %w", path, errors.Join(last, ctx.Err()))
}

// do sends one request to the server at base with the client's key.
func (c *client) do(ctx context.Context, base, method, path string, body []byte, header http.Header) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, base+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return c.http.Do(req)
}

// pick is a server at random.
func (c *client) pick() string { return c.servers[c.rng.IntN(len(c.servers))] }

// final reports whether a run's status is an end.
func final(status string) bool {
	switch status {
	case "success", "error", "interrupted", "cancelled":
		return true
	}
	return false
}

// errStalled is a stream that sent nothing for the idle time.
var errStalled = errors.New("the stream sent nothing for " + streamIdle.String())

// sse reads one response's server-sent events, frame by frame.
type sse struct {
	server string
	body   io.ReadCloser
	lines  chan string
	done   chan struct{}
	err    error // why reading stopped, nil at the body's clean end; set before lines is closed
}

func openSSE(server string, body io.ReadCloser) *sse {
	s := &sse{server: server, body: body, lines: make(chan string), done: make(chan struct{})}
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(body)
		sc.Buffer(make([]byte, 64<<10), 8<<20)
		for sc.Scan() {
			select {
			case s.lines <- sc.Text():
			case <-s.done:
				return
			}
		}
		s.err = sc.Err() // a server killed mid-stream cuts the body short: not a clean end
	}()
	return s
}

// next is the stream's next frame; io.EOF when it ended cleanly, the read
// error when it broke, errStalled when
// no line came for idle. Frames without an event name (keep-alives) are
// skipped.
func (s *sse) next(idle time.Duration) (frame, error) {
	var f frame
	timer := time.NewTimer(idle)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				if s.err != nil {
					return frame{}, s.err
				}
				return frame{}, io.EOF
			}
			timer.Reset(idle)
			switch {
			case line == "":
				if f.Event != "" {
					return f, nil
				}
				f = frame{}
			case strings.HasPrefix(line, "event: "):
				f.Event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "id: "):
				f.ID, _ = strconv.ParseInt(strings.TrimPrefix(line, "id: "), 10, 64)
			case strings.HasPrefix(line, "data: "):
				f.Data = []byte(strings.TrimPrefix(line, "data: "))
			}
		case <-timer.C:
			return frame{}, errStalled
		}
	}
}

// close ends the response, and the reading with it.
func (s *sse) close() {
	close(s.done)
	s.body.Close()
}

// pendingKey is the key of the booking confirmation the run paused on
// (its updates' "__interrupt__"), or "".
func pendingKey(frames []frame) string {
	key := ""
	for _, f := range frames {
		var u struct {
			Interrupts []struct {
				Value card `json:"value"`
			} `json:"__interrupt__"`
		}
		if f.Event != "updates" || json.Unmarshal(f.Data, &u) != nil {
			continue
		}
		for _, in := range u.Interrupts {
			if in.Value.Name == "booking-confirmation" && in.Value.Props.Status == "pending" && in.Value.Props.Key != "" {
				key = in.Value.Props.Key
			}
		}
	}
	return key
}

// lastBookingCard is the last booking-confirmation card the frames show.
func lastBookingCard(frames []frame) bookedCard {
	var b bookedCard
	for _, f := range frames {
		if c, ok := uiCard(f); ok && c.Name == "booking-confirmation" {
			b = bookedCard{Status: c.Props.Status, BookingID: c.Props.BookingID}
		}
	}
	return b
}

// card is a UI component as a custom event carries it.
type card struct {
	Type  string `json:"type"`
	ID    string `json:"id"`
	Name  string `json:"name"`
	Props struct {
		Status    string `json:"status"`
		Key       string `json:"key"`
		BookingID string `json:"bookingId"`
	} `json:"props"`
}

// uiCard reads a custom frame's UI component.
func uiCard(f frame) (card, bool) {
	var c card
	if f.Event != "custom" || json.Unmarshal(f.Data, &c) != nil || c.Type != "ui" {
		return card{}, false
	}
	return c, true
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// stayCounter hands out stays no two bookings share.
type stayCounter struct {
	places []string
	n      atomic.Int64
}

func (s *stayCounter) next() stay {
	n := int(s.n.Add(1) - 1)
	start := time.Date(2028, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 3*(n/len(s.places)))
	return stay{ID: s.places[n%len(s.places)], Start: start.Format(time.DateOnly), End: start.AddDate(0, 0, 2).Format(time.DateOnly)}
}
