package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// stored is what the database holds at the end of a campaign.
type stored struct {
	runs        map[string]storedRun
	events      map[string][]storedEvent // by run, in seq order
	checkpoints []storedCheckpoint
	bookings    []storedBooking
}

type storedRun struct {
	ID, Thread, Status, Error string
	Attempts                  int
}

type storedEvent struct {
	Seq      int64
	Event    string
	Data     []byte
	Position string
}

type storedCheckpoint struct {
	Thread, ID, Parent, Run, Node, Source string
	Step                                  int
}

type storedBooking struct {
	ID, User, Key string
}

// load reads what the invariants are checked against.
func load(ctx context.Context, dbURL string) (*stored, error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return nil, fmt.Errorf("connecting to check the invariants: %w", err)
	}
	defer conn.Close(ctx)
	s := &stored{runs: map[string]storedRun{}, events: map[string][]storedEvent{}}
	rows, _ := conn.Query(ctx, `SELECT id::text, thread_id::text, status, coalesce(error, ''), attempts FROM runs`)
	runs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (storedRun, error) {
		var x storedRun
		return x, r.Scan(&x.ID, &x.Thread, &x.Status, &x.Error, &x.Attempts)
	})
	if err != nil {
		return nil, fmt.Errorf("reading the runs: %w", err)
	}
	for _, r := range runs {
		s.runs[r.ID] = r
	}
	rows, _ = conn.Query(ctx, `SELECT run_id::text, seq, event, data, coalesce(position, '') FROM run_events ORDER BY run_id, seq`)
	var run string
	var e storedEvent
	_, err = pgx.ForEachRow(rows, []any{&run, &e.Seq, &e.Event, &e.Data, &e.Position}, func() error {
		e.Data = slices.Clone(e.Data)
		s.events[run] = append(s.events[run], e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the run events: %w", err)
	}
	rows, _ = conn.Query(ctx, `SELECT thread_id::text, id::text, coalesce(parent_id::text, ''), coalesce(run_id::text, ''),
		node, source, step FROM checkpoints ORDER BY thread_id, id`)
	s.checkpoints, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (storedCheckpoint, error) {
		var c storedCheckpoint
		return c, r.Scan(&c.Thread, &c.ID, &c.Parent, &c.Run, &c.Node, &c.Source, &c.Step)
	})
	if err != nil {
		return nil, fmt.Errorf("reading the checkpoints: %w", err)
	}
	rows, _ = conn.Query(ctx, `SELECT id::text, user_id::text, idempotency_key FROM bookings`)
	s.bookings, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (storedBooking, error) {
		var b storedBooking
		return b, r.Scan(&b.ID, &b.User, &b.Key)
	})
	if err != nil {
		return nil, fmt.Errorf("reading the bookings: %w", err)
	}
	return s, nil
}

// findings are the invariants' violations, each a line that names what
// broke it; and the counts the report shows.
type findings struct {
	Lost          []string // runs not final, or that clients saw and the database has not
	TwiceDone     []string // runs that executed a step, a card, a reply or a node twice
	StreamDup     []string // rejoined streams that carried an event twice
	StreamOrder   []string // rejoined streams out of order
	StreamMissing []string // streams that lacked stored events, or carried events not stored
	Unstreamed    []string // runs whose stream lacks the state of a step they checkpointed
	Forked        []string // checkpoints with two children, or whose parent is missing
	Bookings      []string // bookings not made exactly once for a confirmation
	Followed      []string // runs a client could not start or follow to their end
	InputTwice    []string // threads whose state holds a message twice
	PlainLog      []string // serve log lines that are not JSON records

	checked map[*[]string]int // how many things each invariant was checked on
}

// check counts one thing the invariant whose violations go in list was
// checked on.
func (f *findings) check(list *[]string) {
	if f.checked == nil {
		f.checked = map[*[]string]int{}
	}
	f.checked[list]++
}

// checks is how many checks the invariants made in all.
func (f *findings) checks() int {
	n := 0
	for _, c := range f.checked {
		n += c
	}
	return n
}

// failed reports whether any invariant broke.
func (f *findings) failed() bool {
	for _, l := range f.lists() {
		if len(*l.items) > 0 {
			return true
		}
	}
	return false
}

type findingList struct {
	name  string
	items *[]string
}

func (f *findings) lists() []findingList {
	return []findingList{
		{"lost (not final after the settle time)", &f.Lost},
		{"executed twice to completion", &f.TwiceDone},
		{"input applied twice", &f.InputTwice},
		{"duplicated events in a stream", &f.StreamDup},
		{"out-of-order events in a stream", &f.StreamOrder},
		{"missing or unknown events in a stream", &f.StreamMissing},
		{"checkpointed steps missing from the run's stream", &f.Unstreamed},
		{"non-linear checkpoint chains", &f.Forked},
		{"bookings not exactly once", &f.Bookings},
		{"runs clients could not start or follow", &f.Followed},
		{"serve log lines that are not JSON (checked per process)", &f.PlainLog},
	}
}

// checkRuns checks that every run is final and that every run a client
// saw is in the database.
func checkRuns(f *findings, s *stored, recs []*runRecord) {
	for _, r := range s.runs {
		f.check(&f.Lost)
		if !final(r.Status) {
			f.Lost = append(f.Lost, fmt.Sprintf("run %s on thread %s is %s after %d attempts", r.ID, r.Thread, r.Status, r.Attempts))
		}
	}
	for _, rec := range recs {
		f.check(&f.Followed)
		if rec.Run != "" {
			f.check(&f.Lost)
		}
		switch {
		case rec.Run == "" && rec.Refused == "":
			f.Followed = append(f.Followed, fmt.Sprintf("client %d, thread %s, %s: %s", rec.Client, rec.Thread, rec.Kind, rec.GaveUp))
		case rec.Run == "":
		case s.runs[rec.Run].ID == "":
			f.Lost = append(f.Lost, fmt.Sprintf("run %s that client %d started is not in the database", rec.Run, rec.Client))
		case rec.GaveUp != "":
			f.Followed = append(f.Followed, fmt.Sprintf("client %d, run %s: %s", rec.Client, rec.Run, rec.GaveUp))
		}
	}
}

// checkStream checks that what a client received of a run is the run's
// stored stream exactly: every event of the asked modes once, in order.
func checkStream(f *findings, rec *runRecord, events []storedEvent) {
	var want []int64
	for _, e := range events {
		if streamedEvents[e.Event] {
			want = append(want, e.Seq)
		}
	}
	got := make([]int64, 0, len(rec.Frames))
	for _, fr := range rec.Frames {
		got = append(got, fr.ID)
	}
	dup, order, missing, unknown := compareSeqs(got, want)
	f.check(&f.StreamDup)
	f.check(&f.StreamOrder)
	f.check(&f.StreamMissing)
	where := fmt.Sprintf("client %d, run %s (%d drops, %d rejoins; streams: %s)", rec.Client, rec.Run, rec.Drops, rec.Rejoins,
		strings.Join(rec.Streams, "; "))
	if rec.EarlyEnds > 0 {
		f.StreamMissing = append(f.StreamMissing, fmt.Sprintf("%s: %d streams ended without an error before the run did", where, rec.EarlyEnds))
	}
	if dup > 0 {
		f.StreamDup = append(f.StreamDup, fmt.Sprintf("%s: %d events twice", where, dup))
	}
	if order > 0 {
		f.StreamOrder = append(f.StreamOrder, fmt.Sprintf("%s: %d events before an earlier one", where, order))
	}
	if missing > 0 || unknown > 0 {
		f.StreamMissing = append(f.StreamMissing, fmt.Sprintf("%s: %d stored events not received, %d received not stored", where, missing, unknown))
	}
}

// compareSeqs compares the seqs a client got with the stored ones: how
// many it got again, how many came after a later one, how many stored it
// never got, and how many it got that are not stored.
func compareSeqs(got, want []int64) (dup, order, missing, unknown int) {
	seen := map[int64]bool{}
	stored := map[int64]bool{}
	for _, w := range want {
		stored[w] = true
	}
	var last int64
	for _, g := range got {
		switch {
		case seen[g]:
			dup++
			continue
		case g < last:
			order++
		}
		seen[g] = true
		last = max(last, g)
		if !stored[g] {
			unknown++
		}
	}
	for _, w := range want {
		if !seen[w] {
			missing++
		}
	}
	return dup, order, missing, unknown
}

// checkOnce checks that a run's stored output shows each thing it did
// once: no step checkpointed twice, no node's update twice, no card shown
// twice with the same content, no reply streamed twice.
func checkOnce(f *findings, run storedRun, events []storedEvent, cps []storedCheckpoint) {
	where := fmt.Sprintf("run %s (%d attempts)", run.ID, run.Attempts)
	f.check(&f.TwiceDone)
	steps := map[int]int{}
	for _, c := range cps {
		if c.Source == "loop" {
			steps[c.Step]++
		}
	}
	for step, n := range steps {
		if n > 1 {
			f.TwiceDone = append(f.TwiceDone, fmt.Sprintf("%s: step %d checkpointed %d times", where, step, n))
		}
	}
	for _, d := range twiceInStream(events) {
		f.TwiceDone = append(f.TwiceDone, where+": "+d)
	}
}

// checkStreamed checks that a run's stored stream holds the state of
// every step the run checkpointed: one values event per checkpoint (the
// clients ask for values), but for the input saved pending, which has no
// state of its own to show. A stream with fewer lost the output of a step
// the thread holds, which no client streaming the run will ever see.
func checkStreamed(f *findings, run storedRun, events []storedEvent, cps []storedCheckpoint) {
	f.check(&f.Unstreamed)
	values := 0
	for _, e := range events {
		if e.Event == "values" {
			values++
		}
	}
	shown := 0
	for _, c := range cps {
		if c.Source != "input" && c.Source != "fork" {
			shown++
		}
	}
	if values < shown {
		steps := make([]string, 0, len(cps))
		for _, c := range cps {
			steps = append(steps, fmt.Sprintf("%d %s", c.Step, cmp.Or(c.Node, c.Source)))
		}
		f.Unstreamed = append(f.Unstreamed, fmt.Sprintf("run %s (%s, %d attempts): %d checkpoints (%s), %d values events in its stream",
			run.ID, run.Status, run.Attempts, len(cps), strings.Join(steps, ", "), values))
	}
}

// twiceInStream lists what a run's stored events show more than once:
// a node's update, a card with the same id, name and content, a reply
// whose tokens add up to more than the message the run saved.
func twiceInStream(events []storedEvent) []string {
	var out []string
	updates := map[string]int{}
	cards := map[string]int{}
	tokens := map[string]*strings.Builder{}
	finalText := map[string]string{}
	for _, e := range events {
		switch e.Event {
		case "updates":
			var u map[string]json.RawMessage
			json.Unmarshal(e.Data, &u)
			for node := range u {
				updates[node]++
			}
		case "custom":
			var c struct {
				Type  string          `json:"type"`
				ID    string          `json:"id"`
				Name  string          `json:"name"`
				Props json.RawMessage `json:"props"`
			}
			if json.Unmarshal(e.Data, &c) == nil && c.Type == "ui" {
				cards[c.ID+" "+c.Name+" "+string(c.Props)]++
			}
		case "messages":
			var tuple []json.RawMessage
			var chunk struct {
				ID      string `json:"id"`
				Content string `json:"content"`
			}
			if json.Unmarshal(e.Data, &tuple) == nil && len(tuple) > 0 && json.Unmarshal(tuple[0], &chunk) == nil {
				if tokens[chunk.ID] == nil {
					tokens[chunk.ID] = &strings.Builder{}
				}
				tokens[chunk.ID].WriteString(chunk.Content)
			}
		case "values":
			var v struct {
				Messages []struct {
					ID      string `json:"id"`
					Type    string `json:"type"`
					Content string `json:"content"`
				} `json:"messages"`
			}
			if json.Unmarshal(e.Data, &v) == nil {
				for _, m := range v.Messages {
					finalText[m.ID] = m.Content
				}
			}
		}
	}
	for node, n := range updates {
		if n > 1 {
			out = append(out, fmt.Sprintf("node %s's update streamed %d times", node, n))
		}
	}
	for c, n := range cards {
		if n > 1 {
			id, _, _ := strings.Cut(c, " ")
			out = append(out, fmt.Sprintf("card %s streamed %d times", id, n))
		}
	}
	for id, b := range tokens {
		if text, ok := finalText[id]; ok && b.Len() > len(text) && strings.Count(b.String(), text) > 1 {
			out = append(out, fmt.Sprintf("reply %s streamed %d times", id, strings.Count(b.String(), text)))
		}
	}
	slices.Sort(out)
	return out
}

// checkChains checks that each thread's checkpoints form one line: no
// checkpoint has two children, and every parent is there.
func checkChains(f *findings, cps []storedCheckpoint) {
	ids := map[string]bool{}
	children := map[string]int{}
	for _, c := range cps {
		ids[c.Thread+"/"+c.ID] = true
		if c.Parent != "" {
			children[c.Thread+"/"+c.Parent]++
		}
	}
	for _, c := range cps {
		f.check(&f.Forked)
		if c.Parent != "" && !ids[c.Thread+"/"+c.Parent] {
			f.Forked = append(f.Forked, fmt.Sprintf("thread %s: checkpoint %s has no parent %s", c.Thread, c.ID, c.Parent))
		}
	}
	for p, n := range children {
		if n > 1 {
			thread, id, _ := strings.Cut(p, "/")
			f.Forked = append(f.Forked, fmt.Sprintf("thread %s: checkpoint %s has %d children", thread, id, n))
		}
	}
	slices.Sort(f.Forked)
}

// checkBookings checks that a confirmation booked exactly once when its
// run said so, and never otherwise: each key has at most one booking, a
// confirmation whose run showed "booked" has exactly one, with the id the
// card showed, and no booking exists that no confirmation asked for or
// whose confirmation ended in anything but booked.
func checkBookings(f *findings, s *stored, recs []*runRecord) (confirmed, booked int) {
	byKey := map[string][]storedBooking{}
	for _, b := range s.bookings {
		byKey[b.Key] = append(byKey[b.Key], b)
	}
	asked := map[string]bool{}
	for _, rec := range recs {
		if rec.Key == "" {
			continue
		}
		asked[rec.Key] = true
		f.check(&f.Bookings)
		rows := byKey[rec.Key]
		where := fmt.Sprintf("client %d, %s run %s (%s), key %s", rec.Client, rec.Kind, rec.Run, s.runs[rec.Run].Status, rec.Key)
		if len(rows) > 1 {
			f.Bookings = append(f.Bookings, fmt.Sprintf("%s: booked %d times", where, len(rows)))
			continue
		}
		if rec.Kind == "confirm" {
			confirmed++
		}
		switch {
		case rec.Kind == "decline" && len(rows) > 0:
			f.Bookings = append(f.Bookings, where+": declined, but booked")
		case rec.Booked.Status == "booked" && len(rows) == 0:
			f.Bookings = append(f.Bookings, where+": shown booked, but no booking is stored")
		case rec.Booked.Status == "booked" && rows[0].ID != rec.Booked.BookingID:
			f.Bookings = append(f.Bookings, fmt.Sprintf("%s: shown booked as %s, stored as %s", where, rec.Booked.BookingID, rows[0].ID))
		case rec.Booked.Status == "booked":
			booked++
		case s.runs[rec.Run].Status == "success" && len(rows) > 0:
			f.Bookings = append(f.Bookings, fmt.Sprintf("%s: shown %q, but a booking is stored", where, rec.Booked.Status))
		}
	}
	for key, rows := range byKey {
		f.check(&f.Bookings)
		if !asked[key] {
			f.Bookings = append(f.Bookings, fmt.Sprintf("key %s: %d bookings no confirmation of the campaign asked for", key, len(rows)))
		}
	}
	return confirmed, booked
}

// checkState checks a thread's final state for a message held twice, and
// for more of the person's messages than runs that carried one.
func checkState(f *findings, thread string, state threadState, messageRuns int) {
	f.check(&f.InputTwice)
	ids := map[string]int{}
	humans := 0
	for _, m := range state.Values.Messages {
		ids[m.ID]++
		if m.Type == "human" {
			humans++
		}
	}
	for id, n := range ids {
		if n > 1 {
			f.InputTwice = append(f.InputTwice, fmt.Sprintf("thread %s: message %s held %d times", thread, id, n))
		}
	}
	if humans > messageRuns {
		f.InputTwice = append(f.InputTwice, fmt.Sprintf("thread %s: %d messages of the person from %d runs that carried one", thread, humans, messageRuns))
	}
}

// threadState is the part of GET /threads/{id}/state the check reads.
type threadState struct {
	Values struct {
		Messages []struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		} `json:"messages"`
	} `json:"values"`
}

// broken is how many violations the invariants found in all.
func (f *findings) broken() int {
	n := 0
	for _, l := range f.lists() {
		n += len(*l.items)
	}
	return n
}
