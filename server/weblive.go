package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/chatinput"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/replay"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/ui"
)

// registerLive registers the browser's live routes: the forms that start
// runs (a message, Book, a booking's answer, a trip edit) and the live
// stream of a run as HTML fragments. Each form answers an htmx request
// with a fragment for the conversation (what was sent and the run's live
// region), and a plain post with a redirect to the thread's page.
func (s *Server) registerLive() {
	for _, r := range []route{
		{method: http.MethodPost, path: "/app/messages", handler: s.pageForm(s.sendMessage)},
		{method: http.MethodPost, path: "/app/threads/:thread_id/messages", handler: s.pageForm(s.sendMessage)},
		{method: http.MethodPost, path: "/app/threads/:thread_id/book", handler: s.pageForm(s.book)},
		{method: http.MethodPost, path: "/app/threads/:thread_id/booking", handler: s.pageForm(s.answerBooking)},
		{method: http.MethodPost, path: "/app/threads/:thread_id/trip", handler: s.pageForm(s.editTrip)},
		{method: http.MethodGet, path: "/app/threads/:thread_id/runs/:run_id/live", handler: s.live, long: true},
	} {
		s.addPage(r)
	}
}

// liveContext is the rendering context of a thread's fragments: the
// page's language and the thread's actions, also for a thread the request
// has just made (whose id is not in the path).
func (s *Server) liveContext(c echo.Context, threadID string) context.Context {
	return ui.WithActions(s.pageContext(c), threadActions(threadID, s.csrfToken(c)))
}

// liveURL is the live stream of a run for a page that shows the thread at
// checkpointID ("" for none) and, beyond it, the message messageID.
func liveURL(threadID, runID, checkpointID, messageID string) string {
	q := url.Values{}
	if checkpointID != "" {
		q.Set("checkpoint", checkpointID)
	}
	if messageID != "" {
		q.Set("message", messageID)
	}
	u := threadURL(threadID) + "/runs/" + url.PathEscape(runID) + "/live"
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
func (s *Server) threadView(cx context.Context, ownerID, threadID string) (nodes.State, string, error) {
	run, err := s.store.ActiveRun(cx, ownerID, threadID)
	active := err == nil
	if err != nil && errcode.Of(err) != errcode.NotFound {
		return nodes.State{}, "", err
	}
	shown, err := s.head(cx, threadID)
	if err != nil {
		return nodes.State{}, "", err
	}
	if active {
		if shown, err = s.runBase(cx, run, shown); err != nil {
			return nodes.State{}, "", err
		}
	}
	var state nodes.State
	checkpointID := ""
	if shown != nil {
		if state, err = shownState(*shown); err != nil {
			return nodes.State{}, "", err
		}
		checkpointID = shown.ID
	}
	if !active {
		return state, "", nil
	}
	return state, liveURL(threadID, run.ID, checkpointID, ""), nil
}

// runBase is the checkpoint a page shows under an active run's live
// stream: the thread's head, unless the run forks from an earlier
// checkpoint and has written nothing yet; then that checkpoint, so that a
// fork's page does not show the other branch until its first step.
func (s *Server) runBase(cx context.Context, run store.Run, head *graph.Checkpoint) (*graph.Checkpoint, error) {
	j, err := decodeJob(run.Input)
	if err != nil || j.CheckpointID == "" || head != nil && head.Metadata.RunID == run.ID {
		return head, err
	}
	_, base, err := s.planner.GetState(cx, run.ThreadID, j.CheckpointID)
	if err != nil {
		return nil, fmt.Errorf("reading the checkpoint run %s forks from: %w", run.ID, fromGraph(err))
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
}

// pageForm runs a form that starts a run, and answers: an htmx request
// with the fragment for the conversation, a plain post with a redirect to
// the thread's page. A failure is answered with its status and what to do
// next: for htmx the notice, in place; for a plain post the error page.
func (s *Server) pageForm(start func(echo.Context) (started, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		st, err := start(c)
		plain := c.Request().Header.Get("HX-Request") != "true"
		switch {
		case err != nil && plain:
			return err // pageErrors makes it a page
		case err != nil:
			return s.formFailed(c, err)
		case plain:
			return c.Redirect(http.StatusSeeOther, threadURL(st.run.ThreadID))
		}
		cx := s.liveContext(c, st.run.ThreadID)
		parts := append(st.shown, ui.LiveRun(liveURL(st.run.ThreadID, st.run.ID, st.checkpoint, st.message)))
		if st.newThread {
			c.Response().Header().Set("HX-Push-Url", threadURL(st.run.ThreadID))
			parts = append(parts, ui.OutOfBand(ui.Composer(threadURL(st.run.ThreadID)+"/messages", s.csrfToken(c))))
		}
		return render(c, cx, http.StatusOK, templ.Join(parts...))
	}
}

// formFailed answers a refused form with the notice of its error code;
// an internal error is logged, never shown.
func (s *Server) formFailed(c echo.Context, err error) error {
	status, body, _ := describe(err)
	if status >= http.StatusInternalServerError {
		s.logger(c).Error("starting a run from the browser", "err", err)
	}
	return render(c, s.pageContext(c), status, ui.ErrorNotice(body.Error, fieldNames(body.Fields)))
}

// sendMessage posts the person's message: on a new thread (POST
// /app/messages) or on the thread in the path. It shows the message at
// once.
func (s *Server) sendMessage(c echo.Context) (started, error) {
	text := c.FormValue("message")
	msgID := uuid.Must(uuid.NewV7()).String()
	threadID, head, err := s.formThread(c)
	if err != nil {
		return started{}, err
	}
	in := wire.RunCreate{AssistantID: PlannerAssistantID, IfNotExists: "create",
		Input: &wire.RunInput{Messages: []wire.RunMessage{{Role: chatinput.RoleUser, Content: text, ID: msgID}}}}
	run, err := s.startRunOn(c, in, threadID)
	if err != nil {
		return started{}, err
	}
	clean, _ := chatinput.Clean([]chatinput.Message{{Role: chatinput.RoleUser, Content: text}})
	shown := nodes.Message{ID: msgID, Type: nodes.Human, Content: clean[0].Content}
	return started{run: run, checkpoint: head, message: msgID, newThread: c.Param("thread_id") == "",
		shown: []templ.Component{ui.Message(shown, nil)}}, nil
}

// formThread is the thread a form posts to, checked to be the user's,
// and its newest checkpoint ("" when it has none); a new thread's id when
// the path names none.
func (s *Server) formThread(c echo.Context) (threadID, checkpointID string, err error) {
	threadID = c.Param("thread_id")
	if threadID == "" {
		return uuid.Must(uuid.NewV7()).String(), "", nil
	}
	if _, err := s.store.ThreadByID(ctx(c), owner(c), threadID); err != nil {
		return "", "", err
	}
	head, err := s.head(ctx(c), threadID)
	if err != nil || head == nil {
		return threadID, "", err
	}
	return threadID, head.ID, nil
}

// book asks for a booking from an accommodation's Book button: a run
// whose input is the booking request, which pauses for the traveller's
// confirmation.
func (s *Server) book(c echo.Context) (started, error) {
	guests, err := strconv.Atoi(c.FormValue("guests"))
	if err != nil {
		return started{}, invalid([]wire.FieldError{{Field: "guests", Message: "must be a whole number"}})
	}
	req := &wire.BookingRequest{ID: c.FormValue("id"), StartDate: c.FormValue("startDate"), EndDate: c.FormValue("endDate"), Guests: guests}
	if err := check(req); err != nil {
		return started{}, err
	}
	return s.startOnThread(c, wire.RunCreate{AssistantID: PlannerAssistantID, Input: &wire.RunInput{BookingRequest: req}})
}

// answerBooking answers a pending booking: the run resumes with
// {confirmed, key}.
func (s *Server) answerBooking(c echo.Context) (started, error) {
	confirmed, err := strconv.ParseBool(c.FormValue("confirmed"))
	if err != nil {
		return started{}, invalid([]wire.FieldError{{Field: "confirmed", Message: "must be true or false"}})
	}
	key := c.FormValue("key")
	if key == "" || len(key) > 200 {
		return started{}, invalid([]wire.FieldError{{Field: "key", Message: "must be the booking's key"}})
	}
	resume, err := json.Marshal(nodes.BookingAnswer{Confirmed: confirmed, Key: key})
	if err != nil {
		return started{}, fmt.Errorf("encoding a booking answer: %w", err)
	}
	return s.startOnThread(c, wire.RunCreate{AssistantID: PlannerAssistantID, Command: &wire.RunCommand{Resume: resume}})
}

// editTrip changes the trip details, as if the extraction had understood
// them so, and runs the planner's tools again: one run whose command
// updates the state (the trip, its component replaced in place, nothing
// assumed any more, and the traveller's message saying the change, which
// the tools are then chosen for) and goes to callTools.
func (s *Server) editTrip(c echo.Context) (started, error) {
	guests, err := strconv.Atoi(c.FormValue("numberOfGuests"))
	if err != nil {
		return started{}, invalid([]wire.FieldError{{Field: "numberOfGuests", Message: "must be a whole number"}})
	}
	td := nodes.TripDetails{Location: strings.TrimSpace(c.FormValue("location")), StartDate: c.FormValue("startDate"),
		EndDate: c.FormValue("endDate"), NumberOfGuests: guests}
	if err := check(&td); err != nil {
		return started{}, err
	}
	if err := stayFits(td, time.Now()); err != nil {
		return started{}, err
	}
	threadID, head, err := s.formThread(c)
	if err != nil {
		return started{}, err
	}
	state, err := s.stateAt(ctx(c), threadID, head)
	if err != nil {
		return started{}, err
	}
	comp, err := editedTrip(state, td)
	if err != nil {
		return started{}, err
	}
	said := nodes.Message{ID: uuid.Must(uuid.NewV7()).String(), Type: nodes.Human, Content: ui.TripChange(s.pageContext(c), td)}
	update, err := json.Marshal(nodes.Update{Messages: []nodes.Message{said}, TripDetails: &td, Intent: nodes.IntentTrip,
		UI: []nodes.UIUpsert{{UIComponent: comp}}, Timestamp: time.Now().UnixMilli()})
	if err != nil {
		return started{}, fmt.Errorf("encoding a trip edit: %w", err)
	}
	run, err := s.startRunOn(c, wire.RunCreate{AssistantID: PlannerAssistantID,
		Command: &wire.RunCommand{Update: update, Goto: nodes.NodeCallTools}}, threadID)
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
		if s.UI[i].Name == nodes.ComponentTripDetails {
			return nodes.UIComponent{ID: s.UI[i].ID, Name: nodes.ComponentTripDetails, Props: props, MessageID: s.UI[i].MessageID}, nil
		}
	}
	for i := len(s.Messages) - 1; i >= 0; i-- {
		if m := s.Messages[i]; m.Type == nodes.Human {
			return nodes.UIComponent{ID: "trip-details-" + m.ID, Name: nodes.ComponentTripDetails, Props: props, MessageID: m.ID}, nil
		}
	}
	return nodes.UIComponent{}, errcode.New(errcode.BadRequest, "the conversation has no trip to change yet")
}

// startOnThread starts a run on the thread in the path, which must be the
// user's, for a page that shows its newest checkpoint.
func (s *Server) startOnThread(c echo.Context, in wire.RunCreate) (started, error) {
	threadID, head, err := s.formThread(c)
	if err != nil {
		return started{}, err
	}
	run, err := s.startRunOn(c, in, threadID)
	return started{run: run, checkpoint: head}, err
}

// stateAt is a thread's state at a checkpoint as a page shows it; empty
// for "".
func (s *Server) stateAt(cx context.Context, threadID, checkpointID string) (nodes.State, error) {
	if checkpointID == "" {
		return nodes.State{}, nil
	}
	_, cp, err := s.planner.GetState(cx, threadID, checkpointID)
	if err != nil {
		return nodes.State{}, fromGraph(err)
	}
	return shownState(cp)
}

// shownState is a checkpoint's state with its pending components shown,
// as a page shows it.
func shownState(cp graph.Checkpoint) (nodes.State, error) {
	steps, err := replay.Steps([]graph.Checkpoint{cp})
	if err != nil {
		return nodes.State{}, err
	}
	return steps[0].WithPending(), nil
}

// live streams a run as HTML fragments for the page's live region
// (ui.LiveRun): each stored event's fragment as a "fragment" event whose
// id is the event's, then "end". The page shows the thread at the
// checkpoint query parameter, plus the message parameter's message: the
// fragments add nothing it shows. Every event of the run is read from the
// first, so that the fragments know what the earlier ones added; those up
// to Last-Event-ID, which the page has, are not sent again.
func (s *Server) live(c echo.Context) error {
	var after int64
	if last := c.Request().Header.Get("Last-Event-ID"); last != "" {
		var err error
		if after, err = strconv.ParseInt(last, 10, 64); err != nil || after < 0 {
			return invalid([]wire.FieldError{{Field: "Last-Event-ID", Message: "must be an event id this stream sent"}})
		}
	}
	run, err := s.threadRun(c)
	if err != nil {
		return err
	}
	shown, err := s.stateAt(ctx(c), run.ThreadID, c.QueryParam("checkpoint"))
	if err != nil {
		return err
	}
	view := newLiveView(s.liveContext(c, run.ThreadID), shown, c.QueryParam("message"))
	defer s.metrics.streamOpened(protoHTML)()
	w := openSSE(c)
	send := func(e store.RunEvent) error {
		html, err := view.fragment(e)
		if err != nil {
			s.logger(c).Error("rendering a run event", "run_id", run.ID, "seq", e.Seq, "err", err)
			return nil
		}
		if e.Seq <= after || html == "" {
			return nil
		}
		return htmlEvent(w, e.Seq, ui.LiveEvent, html)
	}
	end := func(failed error) {
		if failed != nil {
			var b strings.Builder
			if view.failure(&b, s.streamError(c, failed).Error) == nil {
				htmlEvent(w, 0, ui.LiveEvent, b.String())
			}
		}
		htmlEvent(w, 0, ui.LiveEndEvent, "")
	}
	s.follow(c, run, 0, false, w, send, end)
	return nil
}

// htmlEvent writes an event whose data is HTML, a data line for each of
// its lines.
func htmlEvent(w sseWriter, id int64, name, html string) error {
	var b strings.Builder
	if id > 0 {
		fmt.Fprintf(&b, "id: %d\n", id)
	}
	fmt.Fprintf(&b, "event: %s\n", name)
	for _, line := range strings.Split(html, "\n") {
		b.WriteString("data: " + strings.TrimSuffix(line, "\r") + "\n")
	}
	b.WriteString("\n")
	return w.write(b.String())
}
