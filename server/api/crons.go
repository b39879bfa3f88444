package api

import (
	"encoding/json"
	"net/http"
	"reflect"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/server/runner"
	"github.com/tripgraph/tripgraph/store/crons"
)

// Crons (/runs/crons), as LangGraph's clients call them: one user's
// scheduled runs, through the key's tenant. The runner fires them.

// createCron creates a cron that starts each run on a new thread.
func (s *API) createCron(c echo.Context) error { return s.newCron(c, "") }

// createThreadCron creates a cron that starts each run on the thread.
func (s *API) createThreadCron(c echo.Context) error { return s.newCron(c, c.Param("thread_id")) }

func (s *API) newCron(c echo.Context, threadID string) error {
	var cc wire.CronCreate
	rest, err := bindSplit(c, &cc)
	if err != nil {
		return err
	}
	var rc wire.RunCreate
	if err := decodeRun(rest, &rc); err != nil {
		return err
	}
	payload, _ := json.Marshal(rest)
	if threadID != "" {
		if _, err := tenantOf(c).Thread(httpx.Ctx(c), threadID); err != nil {
			return err
		}
	}
	job, err := s.cronJob(c, threadID, rc)
	if err != nil {
		return err
	}
	nc := crons.NewCron{ThreadID: threadID, AssistantID: rc.AssistantID, Schedule: cc.Schedule, Timezone: cc.Timezone,
		Payload: payload, Job: job, Metadata: httpx.Object(rc.Metadata), Enabled: cc.Enabled == nil || *cc.Enabled,
		OnCompleted: cc.OnRunCompleted, EndTime: cc.EndTime}
	cron, err := tenantOf(c).Crons.Create(httpx.Ctx(c), nc)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromCron(cron))
}

// cronJob checks a cron's run members as a run body and returns the job
// each of its runs executes. A cron's runs need an input, and its messages
// are checked as a run's are, with the conversation of the cron's thread
// (threadID, "" for a new thread each run).
func (s *API) cronJob(c echo.Context, threadID string, rc wire.RunCreate) (json.RawMessage, error) {
	if rc.AssistantID == "" {
		return nil, httpx.InvalidField("assistant_id", "is required")
	}
	if _, err := runAssistant(httpx.Ctx(c), tenantOf(c), rc.AssistantID); err != nil {
		return nil, err
	}
	if rc.Input == nil {
		return nil, httpx.InvalidField("input", "is required: each run of a cron starts with it")
	}
	j, err := s.jobOf(rc)
	if err != nil {
		return nil, err
	}
	if j.Input != nil {
		if err := runner.CheckAdded(httpx.Ctx(c), tenantOf(c), threadID, "", j.Input.Messages); err != nil {
			return nil, err
		}
	}
	return json.Marshal(j)
}

// bindSplit reads a body whose members are a cron's (those of first) and
// a run's: it binds the cron's into first and returns the others, which
// must be a run body's.
func bindSplit(c echo.Context, first any) (map[string]json.RawMessage, error) {
	fields, err := httpx.BindMembers(c)
	if err != nil {
		return nil, err
	}
	mine, rest := map[string]json.RawMessage{}, map[string]json.RawMessage{}
	names := jsonNames(first)
	for k, v := range fields {
		if names[k] {
			mine[k] = v
		} else {
			rest[k] = v
		}
	}
	var probe wire.RunCreate
	problems := append(httpx.DecodeFields(mine, first), httpx.DecodeFields(rest, &probe)...)
	if len(problems) > 0 {
		return nil, httpx.Invalid(problems...)
	}
	return rest, httpx.Check(first)
}

// decodeRun reads a cron's run members as a run body, checked.
func decodeRun(members map[string]json.RawMessage, rc *wire.RunCreate) error {
	if problems := httpx.DecodeFields(members, rc); len(problems) > 0 {
		return httpx.Invalid(problems...)
	}
	return httpx.Check(rc)
}

// jsonNames are the JSON member names of the struct v points to.
func jsonNames(v any) map[string]bool {
	t := reflect.TypeOf(v).Elem()
	out := map[string]bool{}
	for i := range t.NumField() {
		if n := httpx.JSONName(t.Field(i)); n != "" {
			out[n] = true
		}
	}
	return out
}

// patchCron changes a cron: its own members, and the run it starts when
// run members are sent.
func (s *API) patchCron(c echo.Context) error {
	var p wire.CronPatch
	sent, err := bindSplit(c, &p)
	if err != nil {
		return err
	}
	var rc wire.RunCreate
	if problems := httpx.DecodeFields(sent, &rc); len(problems) > 0 {
		return httpx.Invalid(problems...)
	}
	t := tenantOf(c)
	cur, err := t.Crons.Get(httpx.Ctx(c), c.Param("cron_id"))
	if err != nil {
		return err
	}
	ch := crons.Change{Schedule: p.Schedule, Timezone: p.Timezone, EndTime: p.EndTime, Enabled: p.Enabled,
		OnCompleted: p.OnRunCompleted, Metadata: httpx.Object(rc.Metadata)}
	delete(sent, "metadata") // merged into the cron's, not part of its runs
	if len(sent) > 0 {       // run members: the new payload over the stored one
		merged := map[string]json.RawMessage{}
		json.Unmarshal(cur.Payload, &merged)
		for k, v := range sent {
			merged[k] = v
		}
		var run wire.RunCreate
		if err := decodeRun(merged, &run); err != nil {
			return err
		}
		if ch.Job, err = s.cronJob(c, cur.ThreadID, run); err != nil {
			return err
		}
		raw, _ := json.Marshal(merged)
		ch.Payload = raw
	}
	cron, err := t.Crons.Update(httpx.Ctx(c), cur.ID, ch)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromCron(cron))
}

// deleteCron removes a cron.
func (s *API) deleteCron(c echo.Context) error {
	if err := tenantOf(c).Crons.Delete(httpx.Ctx(c), c.Param("cron_id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// searchCrons lists the user's crons.
func (s *API) searchCrons(c echo.Context) error {
	var in wire.CronSearch
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	list, err := tenantOf(c).Crons.Search(httpx.Ctx(c), crons.Query{AssistantID: in.AssistantID, ThreadID: in.ThreadID,
		Enabled: in.Enabled, SortBy: in.SortBy, Ascending: in.SortOrder == "asc", Limit: in.Limit, Offset: in.Offset})
	if err != nil {
		return err
	}
	out := make([]wire.Cron, 0, len(list))
	for _, cr := range list {
		out = append(out, wire.FromCron(cr))
	}
	return c.JSON(http.StatusOK, out)
}

// countCrons counts the user's crons.
func (s *API) countCrons(c echo.Context) error {
	var in wire.CronCount
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	n, err := tenantOf(c).Crons.Count(httpx.Ctx(c), in.AssistantID, in.ThreadID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, n)
}
