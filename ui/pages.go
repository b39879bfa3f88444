package ui

import (
	"context"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/replay"
)

// ThreadLink is one conversation in the thread list.
type ThreadLink struct {
	ID      string // the thread's id, for its element id
	Title   string // "" shows as untitled
	URL     string
	Current bool
}

// Page is what the chat page shows.
type Page struct {
	Title     string
	AssetsURL string // where Assets() is served, e.g. "/static"
	Threads   []ThreadLink
	NewURL    string // where "new conversation" leads
	State     nodes.State
	SendURL   string // the message form's action
	CSRFToken string // sent back with the form as csrf_token
	Timeline  *Timeline
	// TimelineURL is the thread's timeline, linked from its page.
	TimelineURL string
	Language    LanguageSwitch // the language switch; none without an Action
	LogoutURL   string         // the sign-out form's action
	ProfileURL  string         // the page of what the planner remembers of the traveller
	// LiveURL, when set, is a run's live stream (see LiveRun): the page
	// connects to it on load, so that a reload rejoins a run still going.
	LiveURL string
	// Scripts loads the page's scripts (htmx, its SSE extension and the
	// live script): set it when they are there (ScriptsEmbedded). Without
	// them the page reads, without live updates.
	Scripts bool
}

// Timeline is a thread's saved steps, newest first, with one selected.
type Timeline struct {
	Steps    []replay.Step
	Selected string                           // checkpoint id; the newest when ""
	StepURL  func(checkpointID string) string // the link that selects a step
	// Head is the thread's newest checkpoint: the steps it does not
	// descend from are marked as on another branch. None marks nothing.
	Head string
	// ForkURL receives csrf_token, checkpoint_id (the selected step) and
	// message: the thread continues from that step on a new branch. No
	// URL, no form.
	ForkURL   string
	CSRFToken string
	ThreadURL string // the thread's newest state
	// Traces are the trace ids of the runs that wrote the steps, by
	// checkpoint id: what an operator looks a step up by in the trace
	// back end. Steps without one show none.
	Traces map[string]string
}

// selected is the selected step, or the newest.
func (t Timeline) selected() (replay.Step, bool) {
	if t.Selected != "" {
		return replay.At(t.Steps, t.Selected)
	}
	if len(t.Steps) == 0 {
		return replay.Step{}, false
	}
	return t.Steps[0], true
}

// messageComponents returns the components attached to a message.
func messageComponents(s nodes.State, messageID string) []nodes.UIComponent {
	var out []nodes.UIComponent
	for _, c := range s.UI {
		if c.MessageID == messageID {
			out = append(out, c)
		}
	}
	return out
}

// latestHuman is the index of the traveller's newest message; -1 when
// there is none.
func latestHuman(s nodes.State) int {
	for i := len(s.Messages) - 1; i >= 0; i-- {
		if s.Messages[i].Type == nodes.Human {
			return i
		}
	}
	return -1
}

// unattached returns the components whose message is not in the state, so
// that none is lost from view.
func unattached(s nodes.State) []nodes.UIComponent {
	ids := make(map[string]bool, len(s.Messages))
	for _, m := range s.Messages {
		ids[m.ID] = true
	}
	var out []nodes.UIComponent
	for _, c := range s.UI {
		if !ids[c.MessageID] {
			out = append(out, c)
		}
	}
	return out
}

func speaker(ctx context.Context, m nodes.Message) string {
	if m.Type == nodes.Human {
		return text(ctx, "you")
	}
	return text(ctx, "assistant")
}

func threadTitle(ctx context.Context, t ThreadLink) string {
	if t.Title == "" {
		return text(ctx, "thread.untitled")
	}
	return t.Title
}

// StepSummary says in words, in the context's language, what a replay step
// changed and what it waits for: the timeline shows it, and so does the
// replay command.
func StepSummary(ctx context.Context, s replay.Step) []string {
	out := changeSummary(ctx, s.Change)
	for _, c := range s.Pending {
		out = append(out, text(ctx, "change.waiting", partName(ctx, c.Name)))
	}
	return out
}

func changeSummary(ctx context.Context, c replay.Change) []string {
	if !c.Known {
		return []string{text(ctx, "change.unknown")}
	}
	if c.Empty() {
		return []string{text(ctx, "change.nothing")}
	}
	var out []string
	for _, m := range c.MessagesAdded {
		if m.Type == nodes.Human {
			out = append(out, text(ctx, "change.you"))
		} else {
			out = append(out, text(ctx, "change.replied", quoted(m.Content)))
		}
	}
	for _, u := range c.ComponentsAdded {
		out = append(out, text(ctx, "change.added", partName(ctx, u.Name)))
	}
	for _, u := range c.ComponentsUpdated {
		out = append(out, text(ctx, "change.updated", partName(ctx, u.Name)))
	}
	if c.TripDetails != nil {
		if c.TripDetails.After == nil {
			out = append(out, text(ctx, "change.trip.cleared"))
		} else {
			out = append(out, text(ctx, "change.trip")+": "+localPlace(ctx, c.TripDetails.After.Location, c.TripDetails.After.Country))
		}
	}
	return out
}

// quoteRunes is the longest a message is quoted in the timeline.
const quoteRunes = 70

// quoted is a message's first line, cut to quoteRunes with an ellipsis.
func quoted(message string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(message), "\n")
	r := []rune(strings.TrimSpace(line))
	if len(r) <= quoteRunes {
		return string(r)
	}
	return strings.TrimSpace(string(r[:quoteRunes-1])) + "…"
}

// answered is the traveller's message a step answered: the newest in its
// state, quoted; "" before any.
func answered(s replay.Step) string {
	if i := latestHuman(s.State); i >= 0 {
		return quoted(s.State.Messages[i].Content)
	}
	return ""
}

// StepNode says in words, in the context's language, what the node that
// produced a step did or, when none did, how the step came to be: the
// run's input, a state update or a fork. Node names are not shown.
func StepNode(ctx context.Context, s replay.Step) string {
	switch {
	case s.Node != "":
		if _, ok := catalog["node."+s.Node]; ok {
			return text(ctx, "node."+s.Node)
		}
		return text(ctx, "node.other")
	case s.Source == graph.SourceUpdate:
		return text(ctx, "timeline.update")
	case s.Source == graph.SourceFork:
		return text(ctx, "timeline.fork")
	}
	return text(ctx, "timeline.input")
}

// partName names a component in words, in the context's language, with
// its article ("the booking confirmation"): never its internal name.
func partName(ctx context.Context, component string) string {
	if _, ok := catalog["part."+component]; ok {
		return text(ctx, "part."+component)
	}
	return text(ctx, "part.other")
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

func isoStamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func isSelected(t Timeline, checkpointID string) bool {
	sel, ok := t.selected()
	return ok && sel.CheckpointID == checkpointID
}
