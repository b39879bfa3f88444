package tenanttest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/crons"
	"github.com/tripgraph/tripgraph/store/quota"
)

// testCrons is the scheduled runs: created with their defaults and first
// due time, refused when they cannot be read, each user's apart, searched,
// sorted and counted, changed, deleted with their thread, and fired: one
// run per due time, as the cron's owner, then on to the next due time.
func testCrons(t *testing.T, b Backend) {
	subtests(t, b, []subtest{
		{"schedules and next due times", cronsSchedules},
		{"refusals", cronsRefusals},
		{"owner rule", cronsOwnerRule},
		{"search and count", cronsSearch},
		{"update", cronsUpdate},
		{"a deleted thread takes its crons", cronsThreadDeleted},
		{"fire", cronsFire},
	})
}

// cronJob is what a cron's runs execute, as the runner stores it.
var cronJob = json.RawMessage(`{"input":{"messages":[]}}`)

// newCron creates a cron of the user's, for the trip planner and with a
// job unless nc says otherwise.
func newCron(t *testing.T, r tenant.Records, nc crons.NewCron) crons.Cron {
	t.Helper()
	if nc.AssistantID == "" {
		nc.AssistantID = "trip-planner"
	}
	if nc.Job == nil {
		nc.Job = cronJob
	}
	c, err := r.Crons.Create(context.Background(), nc)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newThreadOf creates a thread of the user's.
func newThreadOf(t *testing.T, r tenant.Records) string {
	t.Helper()
	th, err := r.CreateThread(context.Background(), store.NewThread{})
	if err != nil {
		t.Fatal(err)
	}
	return th.ID
}

func cronIDs(list []crons.Cron) []string {
	out := []string{}
	for _, c := range list {
		out = append(out, c.ID)
	}
	return out
}

// A cron is first due at its schedule's first time after it is created,
// read in its zone (UTC when it has none), never when that is past its
// end; it starts with its defaults.
func cronsSchedules(t *testing.T, b Backend) {
	mine := b.Records(b.NewUser(t))
	end := time.Now().Add(48 * time.Hour).Truncate(time.Second)
	past := time.Now().Add(-time.Hour)
	for _, c := range []struct {
		name, schedule, zone string
		end                  *time.Time
		wantZone             string
		never                bool
	}{
		{"nine in Lisbon", "0 9 * * *", "Europe/Lisbon", nil, "Europe/Lisbon", false},
		{"Mondays in São Paulo", "30 8 * * 1", "America/Sao_Paulo", nil, "America/Sao_Paulo", false},
		{"a descriptor", "@daily", "UTC", nil, "UTC", false},
		{"no zone is UTC", "@hourly", "", nil, "UTC", false},
		{"before its end", "0 12 * * *", "UTC", &end, "UTC", false},
		{"past its end", "0 12 * * *", "UTC", &past, "UTC", true},
	} {
		before := time.Now()
		cr := newCron(t, mine, crons.NewCron{Schedule: c.schedule, Timezone: c.zone, EndTime: c.end, Enabled: true})
		after := time.Now()
		if cr.Timezone != c.wantZone || cr.Schedule != c.schedule || cr.OnCompleted != crons.OnCompletedDelete ||
			!sameJSON(cr.Payload, []byte(`{}`)) || !sameJSON(cr.Metadata, []byte(`{}`)) || !sameJSON(cr.Job, cronJob) ||
			!cr.Enabled || cr.ThreadID != "" || cr.AssistantID != "trip-planner" {
			t.Errorf("%s: created %+v", c.name, cr)
		}
		if c.never {
			if cr.NextRunAt != nil {
				t.Errorf("%s: next due at %v, want never", c.name, cr.NextRunAt)
			}
			continue
		}
		first, _ := crons.Next(c.schedule, c.zone, before, c.end, quota.Default)
		last, _ := crons.Next(c.schedule, c.zone, after, c.end, quota.Default)
		if cr.NextRunAt == nil || !cr.NextRunAt.Equal(*first) && !cr.NextRunAt.Equal(*last) {
			t.Errorf("%s: next due at %v, want %v", c.name, cr.NextRunAt, first)
		}
	}
	lisbon, _ := time.LoadLocation("Europe/Lisbon")
	cr := newCron(t, mine, crons.NewCron{Schedule: "0 9 * * *", Timezone: "Europe/Lisbon"})
	if at := cr.NextRunAt.In(lisbon); at.Hour() != 9 || at.Minute() != 0 || !cr.NextRunAt.After(time.Now()) {
		t.Errorf("nine in Lisbon is due at %v", at)
	}
	if got, err := mine.Crons.Get(context.Background(), cr.ID); err != nil || !got.NextRunAt.Equal(*cr.NextRunAt) ||
		!got.CreatedAt.Equal(cr.CreatedAt) || got.Enabled {
		t.Errorf("read back %+v (%v), created %+v", got, err, cr)
	}
}

// A schedule or zone that cannot be read, an unknown on_run_completed, and
// a payload or metadata that is not an object are BAD_REQUESTs; a thread
// that is not the user's is NOT_FOUND. Nothing is stored.
func cronsRefusals(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, theirs, _, _ := two(t, b)
	valid := func(edit func(*crons.NewCron)) crons.NewCron {
		nc := crons.NewCron{AssistantID: "trip-planner", Schedule: "@daily", Job: cronJob, Enabled: true}
		edit(&nc)
		return nc
	}
	for _, c := range []struct {
		name string
		nc   crons.NewCron
		code errcode.Code
	}{
		{"a minute out of range", valid(func(nc *crons.NewCron) { nc.Schedule = "61 * * * *" }), errcode.BadRequest},
		{"words", valid(func(nc *crons.NewCron) { nc.Schedule = "every day" }), errcode.BadRequest},
		{"seconds", valid(func(nc *crons.NewCron) { nc.Schedule = "* * * * * *" }), errcode.BadRequest},
		{"no schedule", valid(func(nc *crons.NewCron) { nc.Schedule = "" }), errcode.BadRequest},
		{"an unknown zone", valid(func(nc *crons.NewCron) { nc.Timezone = "Mars/Olympus" }), errcode.BadRequest},
		{"the server's zone", valid(func(nc *crons.NewCron) { nc.Timezone = "Local" }), errcode.BadRequest},
		{"an unknown on_run_completed", valid(func(nc *crons.NewCron) { nc.OnCompleted = "archive" }), errcode.BadRequest},
		{"a payload not an object", valid(func(nc *crons.NewCron) { nc.Payload = json.RawMessage(`[1]`) }), errcode.BadRequest},
		{"metadata not an object", valid(func(nc *crons.NewCron) { nc.Metadata = json.RawMessage(`"x"`) }), errcode.BadRequest},
		{"another user's thread", valid(func(nc *crons.NewCron) { nc.ThreadID = newThreadOf(t, theirs) }), errcode.NotFound},
		{"a thread that does not exist", valid(func(nc *crons.NewCron) { nc.ThreadID = "00000000-0000-0000-0000-000000000001" }), errcode.NotFound},
		{"a thread id that is not one", valid(func(nc *crons.NewCron) { nc.ThreadID = "not-a-thread" }), errcode.NotFound},
	} {
		_, err := mine.Crons.Create(ctx, c.nc)
		wantCode(t, c.name, err, c.code)
	}
	if n, _ := mine.Crons.Count(ctx, "", ""); n != 0 {
		t.Errorf("refused crons were stored: %d", n)
	}
	if n, _ := theirs.Crons.Count(ctx, "", ""); n != 0 {
		t.Errorf("a cron was stored for the thread's owner: %d", n)
	}
}

// Another user reaches none of my crons: reading, changing and deleting
// one is NOT_FOUND and leaves it as it was; their searches and counts
// find none.
func cronsOwnerRule(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, theirs, _, _ := two(t, b)
	th := newThreadOf(t, mine)
	c := newCron(t, mine, crons.NewCron{ThreadID: th, Schedule: "0 9 * * *", Timezone: "Europe/Lisbon", Enabled: true,
		Metadata: json.RawMessage(`{"watch":"lisbon"}`)})
	for name, err := range map[string]error{
		"get":    second(theirs.Crons.Get(ctx, c.ID)),
		"update": second(theirs.Crons.Update(ctx, c.ID, crons.Change{Enabled: ptr(false), Metadata: json.RawMessage(`{"x":1}`)})),
		"delete": theirs.Crons.Delete(ctx, c.ID),
	} {
		wantCode(t, "another user's "+name+" of my cron", err, errcode.NotFound)
	}
	for _, q := range []crons.Query{{}, {ThreadID: th}, {AssistantID: "trip-planner"}} {
		if list, err := theirs.Crons.Search(ctx, q); err != nil || len(list) != 0 {
			t.Errorf("another user's search %+v finds %d crons (%v)", q, len(list), err)
		}
	}
	if n, _ := theirs.Crons.Count(ctx, "", ""); n != 0 {
		t.Errorf("another user counts %d crons", n)
	}
	if n, _ := theirs.Crons.Count(ctx, "", th); n != 0 {
		t.Errorf("another user counts %d crons on my thread", n)
	}
	got, err := mine.Crons.Get(ctx, c.ID)
	if err != nil || !got.Enabled || !sameJSON(got.Metadata, []byte(`{"watch":"lisbon"}`)) {
		t.Errorf("my cron after another user's attempts: %+v (%v)", got, err)
	}
	for _, id := range []string{"not-a-uuid", "00000000-0000-0000-0000-000000000001"} {
		_, err := mine.Crons.Get(ctx, id)
		wantCode(t, "a cron that is not there", err, errcode.NotFound)
	}
}

// A search filters by assistant, thread and enabled, sorts by any of its
// columns in either direction (a cron without a value last, ties by id)
// and pages; a count filters by assistant and thread.
func cronsSearch(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t))
	th := newThreadOf(t, mine)
	past, future := time.Now().Add(-time.Hour), time.Now().Add(30*24*time.Hour)
	created := func(nc crons.NewCron) crons.Cron {
		c := newCron(t, mine, nc)
		time.Sleep(time.Millisecond) // created one after the other
		return c
	}
	// Due in an hour, in two hours, and never (ended).
	c1 := created(crons.NewCron{AssistantID: "alpha", ThreadID: th, Schedule: "@every 1h", Enabled: true})
	c2 := created(crons.NewCron{AssistantID: "beta", Schedule: "@every 2h", EndTime: &future})
	c3 := created(crons.NewCron{AssistantID: "alpha", Schedule: "@daily", EndTime: &past, Enabled: true})
	ids := func(cs ...crons.Cron) []string { return cronIDs(cs) }
	for _, c := range []struct {
		name string
		q    crons.Query
		want []string
	}{
		{"all, newest first", crons.Query{}, ids(c3, c2, c1)},
		{"created, oldest first", crons.Query{SortBy: "created_at", Ascending: true}, ids(c1, c2, c3)},
		{"an assistant's", crons.Query{AssistantID: "alpha"}, ids(c3, c1)},
		{"a thread's", crons.Query{ThreadID: th}, ids(c1)},
		{"enabled", crons.Query{Enabled: ptr(true)}, ids(c3, c1)},
		{"disabled", crons.Query{Enabled: ptr(false)}, ids(c2)},
		{"an assistant with none", crons.Query{AssistantID: "gamma"}, ids()},
		{"next due, soonest first", crons.Query{SortBy: "next_run_date", Ascending: true}, ids(c1, c2, c3)},
		{"next due, latest first", crons.Query{SortBy: "next_run_date"}, ids(c2, c1, c3)},
		{"end time, ascending", crons.Query{SortBy: "end_time", Ascending: true}, ids(c3, c2, c1)},
		{"end time, descending", crons.Query{SortBy: "end_time"}, ids(c2, c3, c1)},
		{"thread, ascending", crons.Query{SortBy: "thread_id", Ascending: true}, ids(c1, c2, c3)},
		{"thread, descending", crons.Query{SortBy: "thread_id"}, ids(c1, c3, c2)},
		{"assistant, ascending", crons.Query{SortBy: "assistant_id", Ascending: true}, ids(c1, c3, c2)},
		{"assistant, descending", crons.Query{SortBy: "assistant_id"}, ids(c2, c3, c1)},
		{"id, ascending", crons.Query{SortBy: "cron_id", Ascending: true}, ids(c1, c2, c3)},
		{"a page", crons.Query{Limit: 1, Offset: 1}, ids(c2)},
		{"a page past the end", crons.Query{Offset: 3}, ids()},
	} {
		got, err := mine.Crons.Search(ctx, c.q)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.Equal(cronIDs(got), c.want) {
			t.Errorf("%s: %q, want %q", c.name, cronIDs(got), c.want)
		}
	}
	for _, c := range []struct {
		assistant, thread string
		want              int
	}{{"", "", 3}, {"alpha", "", 2}, {"", th, 1}, {"beta", th, 0}} {
		if n, err := mine.Crons.Count(ctx, c.assistant, c.thread); err != nil || n != c.want {
			t.Errorf("count of %q on %q: %d (%v), want %d", c.assistant, c.thread, n, err, c.want)
		}
	}
	for _, q := range []crons.Query{{SortBy: "schedule"}, {Limit: -1}, {Offset: -1}} {
		_, err := mine.Crons.Search(ctx, q)
		wantCode(t, fmt.Sprintf("search %+v", q), err, errcode.BadRequest)
	}
}

// An update changes the members it sets, merges its metadata into the
// cron's, replaces the payload with its job, and works out the next due
// time again; one it refuses changes nothing.
func cronsUpdate(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t))
	c := newCron(t, mine, crons.NewCron{Schedule: "0 9 * * *", Timezone: "Europe/Lisbon", Enabled: true,
		Metadata: json.RawMessage(`{"watch":"lisbon","n":1}`), Payload: json.RawMessage(`{"input":{"a":1}}`)})
	time.Sleep(time.Millisecond)
	sched, zone := "0 10 * * *", "America/Sao_Paulo"
	up, err := mine.Crons.Update(ctx, c.ID, crons.Change{Schedule: &sched, Timezone: &zone, Enabled: ptr(false),
		OnCompleted: ptr(crons.OnCompletedKeep), Metadata: json.RawMessage(`{"n":2,"more":true}`)})
	if err != nil {
		t.Fatal(err)
	}
	saoPaulo, _ := time.LoadLocation(zone)
	if up.Schedule != sched || up.Timezone != zone || up.Enabled || up.OnCompleted != crons.OnCompletedKeep ||
		!sameJSON(up.Metadata, []byte(`{"watch":"lisbon","n":2,"more":true}`)) || !sameJSON(up.Payload, []byte(`{"input":{"a":1}}`)) {
		t.Errorf("updated %+v (metadata %s)", up, up.Metadata)
	}
	if up.NextRunAt == nil || up.NextRunAt.In(saoPaulo).Hour() != 10 || !up.UpdatedAt.After(c.UpdatedAt) || !up.CreatedAt.Equal(c.CreatedAt) {
		t.Errorf("updated: next %v, updated at %v, created at %v (was %v, %v)", up.NextRunAt, up.UpdatedAt, up.CreatedAt, c.UpdatedAt, c.CreatedAt)
	}
	job := json.RawMessage(`{"input":{"messages":[{"role":"user","content":"hi"}]}}`)
	up, err = mine.Crons.Update(ctx, c.ID, crons.Change{Payload: json.RawMessage(`{"input":{"b":2}}`), Job: job})
	if err != nil || !sameJSON(up.Payload, []byte(`{"input":{"b":2}}`)) || !sameJSON(up.Job, job) {
		t.Errorf("a new payload: %+v (%v)", up, err)
	}
	end := time.Now().Add(-time.Minute)
	if up, err = mine.Crons.Update(ctx, c.ID, crons.Change{EndTime: &end}); err != nil || up.NextRunAt != nil || up.EndTime == nil {
		t.Errorf("an end in the past: next %v, end %v (%v)", up.NextRunAt, up.EndTime, err)
	}
	for _, bad := range []struct {
		name string
		ch   crons.Change
	}{
		{"a schedule", crons.Change{Schedule: ptr("not a schedule")}},
		{"a zone", crons.Change{Timezone: ptr("Mars/Olympus")}},
		{"on_run_completed", crons.Change{OnCompleted: ptr("archive")}},
		{"metadata", crons.Change{Metadata: json.RawMessage(`[1]`)}},
		{"a payload", crons.Change{Payload: json.RawMessage(`[1]`), Job: cronJob}},
	} {
		_, err := mine.Crons.Update(ctx, c.ID, bad.ch)
		wantCode(t, "an update with a bad "+bad.name, err, errcode.BadRequest)
	}
	if got, _ := mine.Crons.Get(ctx, c.ID); got.Schedule != sched || got.Timezone != zone ||
		!sameJSON(got.Metadata, []byte(`{"watch":"lisbon","n":2,"more":true}`)) || !sameJSON(got.Payload, []byte(`{"input":{"b":2}}`)) {
		t.Errorf("refused updates changed the cron: %+v", got)
	}
	if err := mine.Crons.Delete(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	_, err = mine.Crons.Get(ctx, c.ID)
	wantCode(t, "a deleted cron", err, errcode.NotFound)
	wantCode(t, "deleting it again", mine.Crons.Delete(ctx, c.ID), errcode.NotFound)
	_, err = mine.Crons.Update(ctx, c.ID, crons.Change{Enabled: ptr(true)})
	wantCode(t, "updating a deleted cron", err, errcode.NotFound)
}

// A thread's deletion takes its crons with it; the user's other crons
// stay.
func cronsThreadDeleted(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t))
	th, kept := newThreadOf(t, mine), newThreadOf(t, mine)
	onThread := newCron(t, mine, crons.NewCron{ThreadID: th, Schedule: "@daily", Enabled: true})
	onKept := newCron(t, mine, crons.NewCron{ThreadID: kept, Schedule: "@daily", Enabled: true})
	stateless := newCron(t, mine, crons.NewCron{Schedule: "@daily", Enabled: true})
	if err := mine.DeleteThread(ctx, th); err != nil {
		t.Fatal(err)
	}
	_, err := mine.Crons.Get(ctx, onThread.ID)
	wantCode(t, "the cron of a deleted thread", err, errcode.NotFound)
	if n, _ := mine.Crons.Count(ctx, "", th); n != 0 {
		t.Errorf("the deleted thread still counts %d crons", n)
	}
	list, err := mine.Crons.Search(ctx, crons.Query{SortBy: "created_at", Ascending: true})
	if want := cronIDs([]crons.Cron{onKept, stateless}); err != nil || !slices.Equal(cronIDs(list), want) {
		t.Errorf("left %q (%v), want %q", cronIDs(list), err, want)
	}
}

// Firing, even from many callers at once, starts exactly one run for each
// enabled cron that is due, as the cron's owner, with the run the plan
// makes: on the cron's thread, or on a new thread. A plan or a start that
// fails skips that due time alone and is reported. Disabled and ended
// crons never fire; each fired cron moves to its next due time after now,
// or to none past its end; firing again at once starts nothing.
func cronsFire(t *testing.T, b Backend) {
	ctx := context.Background()
	// Due every two seconds, so that the test need not wait minutes: a
	// store takes an interval that short when its limits say so.
	b = b.WithLimits(t, quota.Limits{CronInterval: time.Second})
	mine, theirs, mineID, theirsID := two(t, b)
	onThread, busy := newThreadOf(t, mine), newThreadOf(t, mine)
	if _, err := mine.CreateRun(ctx, busy, store.NewRun{}); err != nil { // a new run there is refused
		t.Fatal(err)
	}
	// Due within two seconds of now, then every two seconds.
	const every = "@every 2s"
	ending := time.Now().Add(2500 * time.Millisecond) // after the first due time, before the second
	past := time.Now().Add(-time.Minute)
	c := map[string]crons.Cron{
		"thread":    newCron(t, mine, crons.NewCron{ThreadID: onThread, Schedule: every, Enabled: true}),
		"stateless": newCron(t, mine, crons.NewCron{Schedule: every, Enabled: true, OnCompleted: crons.OnCompletedKeep}),
		"busy":      newCron(t, mine, crons.NewCron{ThreadID: busy, Schedule: every, Enabled: true}),
		"failing":   newCron(t, mine, crons.NewCron{Schedule: every, Enabled: true}),
		"ending":    newCron(t, mine, crons.NewCron{Schedule: every, Enabled: true, EndTime: &ending}),
		"disabled":  newCron(t, mine, crons.NewCron{Schedule: every}),
		"ended":     newCron(t, mine, crons.NewCron{Schedule: every, Enabled: true, EndTime: &past}),
		"theirs":    newCron(t, theirs, crons.NewCron{Schedule: every, Enabled: true}),
	}
	name := map[string]string{}
	var due time.Time
	for n, cr := range c {
		name[cr.ID] = n
		if cr.NextRunAt != nil && cr.NextRunAt.After(due) {
			due = *cr.NextRunAt
		}
	}
	if c["ended"].NextRunAt != nil {
		t.Fatalf("an ended cron is due at %v", c["ended"].NextRunAt)
	}
	plan := func(cr crons.Cron, due time.Time) (store.CronRun, error) {
		switch name[cr.ID] {
		case "":
			return store.CronRun{}, errors.New("not this test's cron")
		case "failing":
			return store.CronRun{}, errors.New("the plan fails")
		}
		meta := fmt.Sprintf(`{"cron_id":%q,"due":%q}`, cr.ID, due.UTC().Format(time.RFC3339Nano))
		run := store.CronRun{ThreadID: cr.ThreadID, Run: store.NewRun{Input: json.RawMessage(`{"from":"cron"}`), Metadata: json.RawMessage(meta)}}
		if cr.ThreadID == "" {
			run.NewThread = store.NewThread{Metadata: json.RawMessage(fmt.Sprintf(`{"cron_id":%q}`, cr.ID))}
		}
		return run, nil
	}
	if fired, err := b.Queue.FireCrons(ctx, 100, plan); err != nil || slices.ContainsFunc(fired, func(f crons.Fired) bool { return name[f.Cron.ID] != "" }) {
		t.Fatalf("firing before any is due: %+v (%v)", fired, err)
	}
	time.Sleep(time.Until(due) + 50*time.Millisecond)

	started := time.Now()
	var mu sync.Mutex
	fired := map[string][]crons.Fired{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			// Each batch moves the crons it fired on: the due ones run out.
			for range len(c) {
				batch, err := b.Queue.FireCrons(ctx, 2, plan)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for _, f := range batch {
					if n := name[f.Cron.ID]; n != "" {
						fired[n] = append(fired[n], f)
					}
				}
				mu.Unlock()
				if len(batch) == 0 {
					return
				}
			}
			t.Error("firing never ran out of due crons")
		})
	}
	wg.Wait()
	again, err := b.Queue.FireCrons(ctx, 100, plan)
	if err != nil || slices.ContainsFunc(again, func(f crons.Fired) bool { return name[f.Cron.ID] != "" }) {
		t.Errorf("firing again at once: %+v (%v)", again, err)
	}

	for n, cr := range c {
		want := 1
		if n == "disabled" || n == "ended" {
			want = 0
		}
		if len(fired[n]) != want {
			t.Errorf("the %s cron fired %d times, want %d", n, len(fired[n]), want)
			continue
		}
		if want == 0 {
			continue
		}
		f := fired[n][0]
		if !f.Due.Equal(*cr.NextRunAt) || f.Cron.ID != cr.ID || f.Cron.UserID != cr.UserID {
			t.Errorf("the %s cron fired for %v as %+v, want its due time %v", n, f.Due, f.Cron, cr.NextRunAt)
		}
		switch n {
		case "failing":
			if f.Err == nil {
				t.Error("a failing plan is not reported")
			}
		case "busy":
			wantCode(t, "a run refused on a busy thread", f.Err, errcode.Conflict)
		default:
			if f.Err != nil {
				t.Errorf("the %s cron: %v", n, f.Err)
			}
		}
	}

	// The runs: on the cron's thread, or on a new thread of the cron's owner.
	runsOn := func(r tenant.Records, thread string) []store.Run {
		t.Helper()
		list, err := r.ListRuns(ctx, thread, 100, 0)
		if err != nil {
			t.Fatal(err)
		}
		return list
	}
	if runs := runsOn(mine, onThread); len(runs) != 1 || !sameJSON(runs[0].Input, []byte(`{"from":"cron"}`)) ||
		!sameJSON(runs[0].Metadata, []byte(fmt.Sprintf(`{"cron_id":%q,"due":%q}`, c["thread"].ID, c["thread"].NextRunAt.UTC().Format(time.RFC3339Nano)))) {
		t.Errorf("the runs on the cron's thread: %+v", runs)
	}
	if runs := runsOn(mine, busy); len(runs) != 1 {
		t.Errorf("the busy thread has %d runs, want its own one", len(runs))
	}
	threadsOf := func(r tenant.Records, cronID string) []store.Thread {
		t.Helper()
		list, err := r.SearchThreads(ctx, store.ThreadQuery{Metadata: json.RawMessage(fmt.Sprintf(`{"cron_id":%q}`, cronID))})
		if err != nil {
			t.Fatal(err)
		}
		return list
	}
	for _, who := range []struct {
		cron    string
		r       tenant.Records
		ownerID string
	}{{"stateless", mine, mineID}, {"ending", mine, mineID}, {"theirs", theirs, theirsID}} {
		list := threadsOf(who.r, c[who.cron].ID)
		if len(list) != 1 || list[0].OwnerID != who.ownerID {
			t.Errorf("the %s cron's new threads: %+v", who.cron, list)
			continue
		}
		if runs := runsOn(who.r, list[0].ID); len(runs) != 1 || runs[0].Status != store.RunPending {
			t.Errorf("the runs on the %s cron's new thread: %+v", who.cron, runs)
		}
	}
	if list := threadsOf(mine, c["theirs"].ID); len(list) != 0 {
		t.Errorf("another user's cron started a run on my threads: %+v", list)
	}
	if list := threadsOf(mine, c["failing"].ID); len(list) != 0 {
		t.Errorf("a failing plan made threads: %+v", list)
	}

	// Where each cron moved.
	for n, cr := range c {
		r := mine
		if n == "theirs" {
			r = theirs
		}
		got, err := r.Crons.Get(ctx, cr.ID)
		if err != nil {
			t.Fatal(err)
		}
		switch n {
		case "ending", "ended":
			if got.NextRunAt != nil {
				t.Errorf("the %s cron is due again at %v, past its end", n, got.NextRunAt)
			}
		case "disabled":
			if !got.NextRunAt.Equal(*cr.NextRunAt) {
				t.Errorf("the disabled cron moved from %v to %v", cr.NextRunAt, got.NextRunAt)
			}
		default:
			if got.NextRunAt == nil || !got.NextRunAt.After(started) {
				t.Errorf("the %s cron is due next at %v, want after %v", n, got.NextRunAt, started)
			}
		}
	}
}
