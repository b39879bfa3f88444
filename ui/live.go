package ui

import "github.com/a-h/templ"

// The live stream of a run, as the page receives it (see LiveRun).
const (
	// LiveDOMID is the element id of the region a run's live stream lands
	// in: the stream's messages are inserted before it.
	LiveDOMID = "live"
	// LiveEvent is the SSE event name of the stream's HTML fragments.
	LiveEvent = "fragment"
	// LiveEndEvent is the SSE event that ends the stream: the page closes
	// its connection and frees the message box.
	LiveEndEvent = "end"
	// LiveReply is the ToolStatus.MessageID of the reply being streamed:
	// its status line is the one LiveRun holds, since the reply's own
	// message id is not known while its first tools run.
	LiveReply = "live"
)

// postAttrs make a form post through htmx when scripts run and answer
// with a fragment appended to the conversation; without scripts the form
// posts as it is and the server answers with a redirect. The answer holds
// the run's live region, whose stream htmx opens only once the swap has
// settled: it settles at once (settle:0ms, not htmx's 20 ms), so the
// stream is asked for as soon as the answer is in.
func postAttrs(url string) templ.Attributes {
	return templ.Attributes{"hx-post": url, "hx-target": "#conversation", "hx-swap": "beforeend settle:0ms"}
}
