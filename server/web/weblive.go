package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a-h/templ"
	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/replay"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/metrics"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/server/runner"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/ui"
)

// liveContext is the rendering context of a thread's fragments: the
// page's language and the thread's actions, also for a thread the request
// has just made (whose id is not in the path).
func (s *App) liveContext(c echo.Context, threadID string) context.Context {
	return ui.WithActions(s.pageContext(c), threadActions(threadID, s.csrfToken(c)))
}

// LiveURL is the live stream of a run for a page that shows the thread at
// checkpointID ("" for none) and, beyond it, the message messageID.
func LiveURL(threadID, runID, checkpointID, messageID string) string {
	q := url.Values{}
	if checkpointID != "" {
		q.Set("checkpoint", checkpointID)
	}
	if messageID != "" {
		q.Set("message", messageID)
	}
	u := ThreadURL(threadID) + "/runs/" + url.PathEscape(runID) + "/live"
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

// threadView is what a thread's page shows: its newest state, pending
// components included, and, while a run is active on it, that run's live
// stream (ui.Page.LiveURL), so that a reload rejoins the run; "" when none
// is. The run is read first: a run that ends after the state is read
// still streams what the state misses.
func threadView(cx context.Context, t tenant.Tenant, threadID string) (nodes.State, string, error) {
	run, err := t.ActiveRun(cx, threadID)
	active := err == nil
	if err != nil && errcode.Of(err) != errcode.NotFound {
		return nodes.State{}, "", err
	}
	shown, err := runner.Head(cx, t, threadID)
	if err != nil {
		return nodes.State{}, "", err
	}
	if active {
		if shown, err = runBase(cx, t, run, shown); err != nil {
			return nodes.State{}, "", err
		}
	}
	var state nodes.State
	checkpointID := ""
	if shown != nil {
		if state, err = replay.Shown(*shown); err != nil {
			return nodes.State{}, "", err
		}
		checkpointID = shown.ID
	}
	if !active {
		return state, "", nil
	}
	return state, LiveURL(threadID, run.ID, checkpointID, ""), nil
}

// runBase is the checkpoint a page shows under an active run's live
// stream: the thread's head, unless the run forks from an earlier
// checkpoint and has written nothing yet; then that checkpoint, so that a
// fork's page does not show the other branch until its first step.
func runBase(cx context.Context, t tenant.Tenant, run store.Run, head *graph.Checkpoint) (*graph.Checkpoint, error) {
	j, err := runner.DecodeJob(run.Input)
	if err != nil || j.CheckpointID == "" || head != nil && head.Metadata.RunID == run.ID {
		return head, err
	}
	base, err := t.Planner.Checkpoint(cx, run.ThreadID, j.CheckpointID)
	if err != nil {
		return nil, fmt.Errorf("reading the checkpoint run %s forks from: %w", run.ID, httpx.FromGraph(err))
	}
	return &base, nil
}

// started is what a form started: a run on a thread, for a page that shows
// the thread at checkpoint plus shown (a fragment rendered with the
// thread's actions), and, for a message that made the thread, the message
// box to post the next ones to it.
type started struct {
	run        store.Run
	checkpoint string
	message    string
	shown      []templ.Component
	newThread  bool
	title      string // a new thread's title, until its trip is known
}

// pageForm runs a form that starts a run, and answers: an htmx request
// with the fragment for the conversation, a plain post with a redirect to
// the thread's page. A failure is answered with its status and what to do
// next: for htmx the notice, in place; for a plain post the error page.
func (s *App) pageForm(start func(echo.Context) (started, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		st, err := start(c)
		switch {
		case err != nil:
			return s.refusal(c, err)
		case !byHTMX(c):
			return c.Redirect(http.StatusSeeOther, LatestURL(st.run.ThreadID))
		}
		cx := s.liveContext(c, st.run.ThreadID)
		parts := append(st.shown, ui.LiveRun(LiveURL(st.run.ThreadID, st.run.ID, st.checkpoint, st.message)))
		if st.newThread {
			parts = append(parts, s.newThreadParts(c, st)...)
		}
		return render(c, cx, http.StatusOK, templ.Join(parts...))
	}
}

// newThreadParts are what a page for a new conversation changes once its
// first message made the thread: its address, the thread at the top of
// the list (with the message as its title until the trip is known), the
// timeline link, and a composer that posts to the thread.
func (s *App) newThreadParts(c echo.Context, st started) []templ.Component {
	id := st.run.ThreadID
	c.Response().Header().Set("HX-Push-Url", ThreadURL(id))
	item := ui.ThreadItem(ui.ThreadLink{ID: id, Title: st.title, URL: LatestURL(id), Current: true})
	return []templ.Component{
		outOfBand("afterbegin", ui.ThreadListDOMID, item),
		outOfBand("delete", ui.NoThreadsDOMID, nil),
		ui.OutOfBand(ui.TimelineLink(ThreadURL(id) + "/timeline")),
		ui.OutOfBand(ui.Composer(ThreadURL(id)+"/messages", s.csrfToken(c))),
	}
}

// outOfBand places c's elements how ("afterbegin", "beforeend", ...) the
// element with id target, out of band; "delete" with no c deletes it.
func outOfBand(how, target string, c templ.Component) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		var b strings.Builder
		if c == nil {
			c = templ.NopComponent
		}
		if err := oob(ctx, &b, how, target, c); err != nil {
			return err
		}
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// byHTMX reports a form posted by htmx, which shows the answer in place.
func byHTMX(c echo.Context) bool { return c.Request().Header.Get("HX-Request") == "true" }

// refusal answers a refused form as the forms do: with its notice for
// htmx (formFailed), else with the error, which pageErrors makes a page.
func (s *App) refusal(c echo.Context, err error) error {
	if byHTMX(c) {
		return s.formFailed(c, err)
	}
	return err
}

// formFailed answers a refused form with the notice of its error code;
// an internal error is logged, never shown.
func (s *App) formFailed(c echo.Context, err error) error {
	status, body, _ := httpx.Describe(err)
	if status >= http.StatusInternalServerError {
		httpx.Logger(c, s.log).Error("starting a run from the browser", "err", err)
	}
	return render(c, s.pageContext(c), status, ui.ErrorNotice(body.Error, refusedFields(body.Fields)))
}

// refusedFields are a refusal's fields as a page shows them: each with
// what was wrong, which the page says in the traveller's words when it
// is one of its own (a stay's fault), and never otherwise.
func refusedFields(fields []wire.FieldError) []ui.Field {
	out := make([]ui.Field, len(fields))
	for i, f := range fields {
		out[i] = ui.Field{Name: f.Field, Problem: f.Message}
	}
	return out
}

// sendMessage posts the person's message: on a new thread (POST
// /app/messages) or on the thread in the path. It shows the message at
// once. A new thread is made with its run in one round trip (Enqueue with
// no thread), not looked for, missed and then created.
func (s *App) sendMessage(c echo.Context) (started, error) {
	input, err := runner.Turn([]nodes.Message{{Content: c.FormValue("message")}}, nil)
	if err != nil {
		return started{}, err
	}
	newThread := c.Param("thread_id") == ""
	var threadID, head string
	if !newThread {
		if threadID, head, err = formThread(c); err != nil {
			return started{}, err
		}
	}
	run, err := s.start(c, runner.Request{ThreadID: threadID, Job: runner.Job{Input: &input}})
	if err != nil {
		return started{}, err
	}
	shown := input.Messages[0]
	return started{run: run, checkpoint: head, message: shown.ID, newThread: newThread,
		shown: []templ.Component{ui.Message(shown, nil)}, title: shortTitle(shown.Content)}, nil
}

// formThread is the thread a form posts to, checked to be the user's,
// and its newest checkpoint ("" when it has none); a new thread's id when
// the path names none.
func formThread(c echo.Context) (threadID, checkpointID string, err error) {
	threadID, t := c.Param("thread_id"), tenantOf(c)
	if threadID == "" {
		return uuid.Must(uuid.NewV7()).String(), "", nil
	}
	if _, err := t.Thread(httpx.Ctx(c), threadID); err != nil { // a 404 rather than a run on a new thread
		return "", "", err
	}
	head, err := runner.Head(httpx.Ctx(c), t, threadID)
	if err != nil || head == nil {
		return threadID, "", err
	}
	return threadID, head.ID, nil
}

// book asks for a booking from an accommodation's Book button: a run
// whose input is the booking request, which pauses for the traveller's
// confirmation.
func (s *App) book(c echo.Context) (started, error) {
	guests, err := strconv.Atoi(c.FormValue("guests"))
	if err != nil {
		return started{}, httpx.InvalidField("guests", "must be a whole number")
	}
	req := &wire.BookingRequest{ID: c.FormValue("id"), StartDate: c.FormValue("startDate"), EndDate: c.FormValue("endDate"), Guests: guests}
	if err := httpx.Check(req); err != nil {
		return started{}, err
	}
	input, err := runner.Turn(nil, wire.ToBookingRequest(req))
	if err != nil {
		return started{}, err
	}
	return s.startOnThread(c, runner.Job{Input: &input})
}

// answerBooking answers a pending booking: the run resumes with
// {confirmed, key}.
func (s *App) answerBooking(c echo.Context) (started, error) {
	confirmed, err := strconv.ParseBool(c.FormValue("confirmed"))
	if err != nil {
		return started{}, httpx.InvalidField("confirmed", "must be true or false")
	}
	key := c.FormValue("key")
	if key == "" || len(key) > 200 {
		return started{}, httpx.InvalidField("key", "must be the booking's key")
	}
	resume, err := json.Marshal(nodes.BookingAnswer{Confirmed: confirmed, Key: key})
	if err != nil {
		return started{}, fmt.Errorf("encoding a booking answer: %w", err)
	}
	return s.startOnThread(c, runner.Job{Command: &runner.Command{Resume: resume}})
}

// editTrip changes the trip details, as if the extraction had understood
// them so, and runs the planner's tools again: one run whose command
// updates the state (the trip, its component replaced in place, nothing
// assumed any more, and the traveller's message saying the change, which
// the tools are then chosen for) and goes to callTools.
func (s *App) editTrip(c echo.Context) (started, error) {
	guests, err := strconv.Atoi(c.FormValue("numberOfGuests"))
	if err != nil {
		return started{}, httpx.InvalidField("numberOfGuests", "must be a whole number")
	}
	td := nodes.TripDetails{Location: strings.TrimSpace(c.FormValue("location")), StartDate: c.FormValue("startDate"),
		EndDate: c.FormValue("endDate"), NumberOfGuests: guests}
	if err := httpx.Check(&td); err != nil {
		return started{}, err
	}
	if f := td.Fault(today()); f != "" {
		return started{}, httpx.InvalidField(f.Field(), string(f))
	}
	threadID, head, err := formThread(c)
	if err != nil {
		return started{}, err
	}
	state, err := stateAt(httpx.Ctx(c), tenantOf(c), threadID, head)
	if err != nil {
		return started{}, err
	}
	comp, err := editedTrip(state, td)
	if err != nil {
		return started{}, err
	}
	said := nodes.Message{ID: uuid.Must(uuid.NewV7()).String(), Type: nodes.Human, Content: ui.TripChange(s.pageContext(c), td)}
	update := nodes.Update{Messages: []nodes.Message{said}, TripDetails: &td, Intent: nodes.IntentTrip,
		UI: []nodes.UIUpsert{{UIComponent: comp}}, Timestamp: time.Now().UnixMilli()}
	run, err := s.start(c, runner.Request{ThreadID: threadID,
		Job: runner.Job{Command: &runner.Command{Update: &update, Goto: nodes.NodeCallTools}}})
	return started{run: run, checkpoint: head, message: said.ID, shown: []templ.Component{ui.Swap(comp), ui.Message(said, nil)}}, err
}

// editedTrip is the trip-details component showing td: the thread's
// newest one, changed, or a new one on the person's newest message.
func editedTrip(s nodes.State, td nodes.TripDetails) (nodes.UIComponent, error) {
	props, err := json.Marshal(nodes.TripDetailsProps{TripDetails: td, Nights: td.Nights()})
	if err != nil {
		return nodes.UIComponent{}, fmt.Errorf("encoding trip details: %w", err)
	}
	for i := len(s.UI) - 1; i >= 0; i-- {
		if s.UI[i].Name == card.TripDetails {
			return nodes.UIComponent{ID: s.UI[i].ID, Name: card.TripDetails, Props: props, MessageID: s.UI[i].MessageID}, nil
		}
	}
	for i := len(s.Messages) - 1; i >= 0; i-- {
		if m := s.Messages[i]; m.Type == nodes.Human {
			return nodes.UIComponent{ID: "trip-details-" + m.ID, Name: card.TripDetails, Props: props, MessageID: m.ID}, nil
		}
	}
	return nodes.UIComponent{}, errcode.New(errcode.BadRequest, "the conversation has no trip to change yet")
}

// startOnThread starts a run of j on the thread in the path, which must be
// the user's, for a page that shows its newest checkpoint.
func (s *App) startOnThread(c echo.Context, j runner.Job) (started, error) {
	threadID, head, err := formThread(c)
	if err != nil {
		return started{}, err
	}
	run, err := s.start(c, runner.Request{ThreadID: threadID, Job: j})
	return started{run: run, checkpoint: head}, err
}

// start queues a run for the request's tenant.
func (s *App) start(c echo.Context, req runner.Request) (store.Run, error) {
	return s.runner.Enqueue(httpx.Ctx(c), tenantOf(c), req)
}

// stateAt is a thread's state at a checkpoint as a page shows it; empty
// for "".
func stateAt(cx context.Context, t tenant.Tenant, threadID, checkpointID string) (nodes.State, error) {
	if checkpointID == "" {
		return nodes.State{}, nil
	}
	cp, err := t.Planner.Checkpoint(cx, threadID, checkpointID)
	if err != nil {
		return nodes.State{}, httpx.FromGraph(err)
	}
	return replay.Shown(cp)
}

// live streams a run as HTML fragments for the page's live region
// (ui.LiveRun): each stored event's fragment as a "fragment" event whose
// id is the event's, then "end". The page shows the thread at the
// checkpoint query parameter, plus the message parameter's message: the
// fragments add nothing it shows. Every event of the run is read from the
// first, so that the fragments know what the earlier ones added; those up
// to Last-Event-ID, which the page has, are not sent again.
func (s *App) live(c echo.Context) error {
	after, err := httpx.LastEventID(c)
	if err != nil {
		return err
	}
	t := tenantOf(c)
	st, err := readLiveStart(httpx.Ctx(c), t, c.Param("thread_id"), c.Param("run_id"), c.QueryParam("checkpoint"))
	if err != nil {
		return err
	}
	run := st.run
	view := newLiveView(s.liveContext(c, run.ThreadID), st.shown, c.QueryParam("message"))
	if st.untitled {
		view.thread = run.ThreadID
	}
	defer s.metrics.StreamOpened(metrics.HTML)()
	w := httpx.OpenSSE(c)
	send := func(e store.RunEvent) error {
		html, err := view.fragment(e)
		if err != nil {
			httpx.Logger(c, s.log).Error("rendering a run event", "run_id", run.ID, "seq", e.Seq, "err", err)
			return nil
		}
		if e.Seq <= after || html == "" {
			return nil
		}
		return w.Lines(e.Seq, ui.LiveEvent, html)
	}
	end := func(failed error) {
		if failed != nil {
			var b strings.Builder
			if view.failure(&b, httpx.StreamError(c, s.log, failed).Error) == nil {
				w.Lines(0, ui.LiveEvent, b.String())
			}
		}
		w.Lines(0, ui.LiveEndEvent, "")
	}
	s.closing.Relay(c, w, func(ctx context.Context) iter.Seq2[store.RunEvent, error] {
		return t.FollowRunEvents(ctx, run.ID, 0)
	}, send, end)
	return nil
}

// liveStart is what a live stream starts from: its run, the thread as the
// page shows it, and whether the thread has no title yet (the stream then
// retitles it in the thread list once the trip is known).
type liveStart struct {
	run      store.Run
	shown    nodes.State
	untitled bool
}

// readLiveStart reads a live stream's start: the run, which must be on
// threadID, the state at checkpointID and the thread's title, the three
// at once, since the stream's first fragment waits for all of them. The
// thread and the checkpoint are read by the path's thread id, the
// tenant's own only, and dropped when the run is not on that thread.
func readLiveStart(cx context.Context, t tenant.Tenant, threadID, runID, checkpointID string) (liveStart, error) {
	var (
		st               liveStart
		runErr, shownErr error
		thread           store.Thread
		threadErr        error
		wg               sync.WaitGroup
	)
	wg.Go(func() { st.run, runErr = t.Run(cx, runID) })
	wg.Go(func() { st.shown, shownErr = stateAt(cx, t, threadID, checkpointID) })
	wg.Go(func() { thread, threadErr = t.Thread(cx, threadID) })
	wg.Wait()
	switch {
	case runErr != nil:
		return liveStart{}, runErr
	case st.run.ThreadID != threadID:
		return liveStart{}, errcode.New(errcode.NotFound, "no run %s on thread %s", st.run.ID, threadID)
	case shownErr != nil:
		return liveStart{}, shownErr
	}
	st.untitled = threadErr == nil && metadataTitle(thread) == ""
	return st, nil
}
