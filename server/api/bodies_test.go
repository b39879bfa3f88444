package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/testing/apptest"
)

// A number PostgreSQL cannot keep in jsonb (1e200000, 140,000 digits),
// in any member of any body, stored or not, is a 422 naming the member,
// before either store sees it: PostgreSQL answered 500, and the in-memory
// twin kept it. (store/jsonb holds the rule to PostgreSQL's own.)
func TestNumbersPostgreSQLCannotKeep(t *testing.T) {
	h := apptest.New(t, apptest.Started()) // a run a body starts ends
	key := h.AliceKey
	tid := h.Thread(key, "")
	var mine wire.Assistant
	h.Must(http.StatusOK, http.MethodPost, "/assistants", key, `{"graph_id":"trip-planner"}`).Decode(t, &mine)
	var cron wire.Cron
	h.Must(http.StatusOK, http.MethodPost, "/runs/crons", key,
		`{"assistant_id":"trip-planner","schedule":"@daily","input":{"messages":[{"role":"user","content":"Porto"}]}}`).Decode(t, &cron)
	run := `"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"hi"}]}`
	for _, big := range []string{"1e200000", strings.Repeat("7", 140000), "1e-20000"} {
		for _, c := range []struct{ method, path, body, field string }{
			{http.MethodPost, "/threads", `{"metadata":{"n":BIG}}`, "metadata"},
			{http.MethodPatch, "/threads/" + tid, `{"metadata":{"n":[1,BIG]}}`, "metadata"},
			{http.MethodPost, "/threads/search", `{"metadata":{"n":BIG}}`, "metadata"},
			{http.MethodPost, "/threads/" + tid + "/runs", `{` + run + `,"metadata":{"n":BIG}}`, "metadata"},
			{http.MethodPost, "/threads/" + tid + "/runs", `{` + run + `,"config":{"configurable":{"n":BIG}}}`, "config"},
			{http.MethodPost, "/threads/" + tid + "/runs", `{` + run + `,"config":{"metadata":{"n":BIG}}}`, "config"},
			{http.MethodPost, "/threads/" + tid + "/runs", `{"assistant_id":"trip-planner","command":{"resume":{"n":BIG}}}`, "command"},
			{http.MethodPost, "/threads/" + tid + "/runs", `{"assistant_id":"trip-planner","command":{"update":{"n":BIG}}}`, "command"},
			{http.MethodPost, "/threads/" + tid + "/state", `{"values":{"n":BIG}}`, "values"},
			{http.MethodPost, "/assistants", `{"graph_id":"trip-planner","config":{"n":BIG}}`, "config"},
			{http.MethodPost, "/assistants", `{"graph_id":"trip-planner","metadata":{"n":BIG}}`, "metadata"},
			{http.MethodPatch, "/assistants/" + mine.AssistantID, `{"metadata":{"n":BIG}}`, "metadata"},
			{http.MethodPost, "/assistants/search", `{"metadata":{"n":BIG}}`, "metadata"},
			{http.MethodPut, "/store/items", `{"namespace":["a"],"key":"k","value":{"n":BIG}}`, "value"},
			{http.MethodPost, "/store/items/search", `{"filter":{"n":BIG}}`, "filter"},
			{http.MethodPost, "/runs/crons", `{` + run + `,"schedule":"@daily","metadata":{"n":BIG}}`, "metadata"},
			{http.MethodPatch, "/runs/crons/" + cron.CronID, `{"metadata":{"n":BIG}}`, "metadata"},
			{http.MethodPost, "/api/chat", `{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"hi"}]}],"metadata":{"n":BIG}}`, "metadata"},
		} {
			body := strings.ReplaceAll(c.body, "BIG", big)
			r := h.With(t).Do(c.method, c.path, key, body)
			var e wire.Error
			if r.Status == http.StatusUnprocessableEntity {
				r.Decode(t, &e)
			}
			if r.Status != http.StatusUnprocessableEntity || len(e.Fields) != 1 || e.Fields[0].Field != c.field ||
				!strings.Contains(e.Fields[0].Message, "PostgreSQL") {
				t.Errorf("%s %s with %.12s: %d %.300s, want 422 naming %s", c.method, c.path, big, r.Status, r.Body, c.field)
			}
		}
	}
	h.Must(http.StatusOK, http.MethodPost, "/threads", key, `{"metadata":{"n":1e131071,"m":1e-16383}}`)
}
