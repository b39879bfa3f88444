package web_test

import (
	"context"
	"net/http"
	"regexp"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/tripgraph/tripgraph/telemetry"
	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
)

var traceOnPage = regexp.MustCompile(`data-trace-id="([0-9a-f]{32})"`)

// A step's timeline names the trace of the run that wrote it, the one its
// run's metadata names, so that a traveller's report leads to the trace.
func TestTimelineNamesTheStepsTrace(t *testing.T) {
	tp := sdktrace.NewTracerProvider()
	defer tp.Shutdown(context.Background())
	defer telemetry.Install(tp, telemetry.Contents{})()
	h := apptest.New(t, apptest.Started())
	tid := h.Thread(h.AliceKey, "")
	var run struct {
		ID       string         `json:"run_id"`
		Metadata map[string]any `json:"metadata"`
	}
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.AliceKey,
		`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"`+plannertest.Lisbon+`"}]}}`).Decode(t, &run)
	traceID, _ := run.Metadata["trace_id"].(string)
	if traceID == "" {
		t.Fatalf("the run's metadata names no trace: %v", run.Metadata)
	}
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+run.ID+"/join", h.AliceKey, "")
	page := newBrowser(h).login(h.AliceKey).get("/app/threads/" + tid + "/timeline")
	mustStatus(t, page, http.StatusOK)
	m := traceOnPage.FindSubmatch(page.Body)
	if m == nil || string(m[1]) != traceID {
		t.Errorf("the timeline names trace %q, the run's metadata %s:\n%s", m, traceID, page.Body)
	}
}
