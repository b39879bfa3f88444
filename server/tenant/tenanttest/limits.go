package tenanttest

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/crons"
	"github.com/tripgraph/tripgraph/store/items"
	"github.com/tripgraph/tripgraph/store/quota"
)

// What each user may keep and run, held alike by every store: each limit
// lets the last one allowed in and refuses the next, with its code and a
// message that names it; other users have their own.
var limitsCases = []suiteCase{
	{"crons a user keeps", limitCrons},
	{"how often a cron may be due", limitCronInterval},
	{"items a user's store holds", limitItems},
	{"bytes a user's store holds", limitItemBytes},
	{"runs a user has queued and running", limitActiveRuns},
	{"runs a user creates at once", limitActiveRunsAtOnce},
}

// wantLimit reports an error unless err has code and its message says
// words.
func wantLimit(t *testing.T, what string, err error, code errcode.Code, words string) {
	t.Helper()
	if errcode.Of(err) != code || !strings.Contains(errcode.Message(err), words) {
		t.Errorf("%s: %v, want %s saying %q", what, err, code, words)
	}
}

// A user keeps at most the limit's crons: the last is made, the next is
// refused, and stores nothing; deleting one makes room again. Another
// user's crons do not count.
func limitCrons(t *testing.T, b Backend) {
	ctx := context.Background()
	b = b.WithLimits(t, quota.Limits{Crons: 3})
	mine, theirs, _, _ := two(t, b)
	var last crons.Cron
	for range 3 {
		last = newCron(t, mine, crons.NewCron{Schedule: "@daily"})
	}
	one := crons.NewCron{AssistantID: "trip-planner", Schedule: "@daily", Job: cronJob}
	_, err := mine.Crons.Create(ctx, one)
	wantLimit(t, "a cron past the limit", err, errcode.LimitExceeded, "cron limit")
	if n, err := mine.Crons.Count(ctx, "", ""); n != 3 || err != nil {
		t.Errorf("after a refused cron the user has %d (%v), want 3", n, err)
	}
	newCron(t, theirs, one)
	if err := mine.Crons.Delete(ctx, last.ID); err != nil {
		t.Fatal(err)
	}
	newCron(t, mine, one)
}

// A schedule that may be due again sooner than the shortest interval (a
// minute by default, LangGraph's) is refused when a cron is created or
// changed; one due exactly that often is taken. Cron expressions have no
// seconds field to be due sooner with; with a longer interval, their due
// times are held to it too.
func limitCronInterval(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t))
	for _, ok := range []string{"@every 1m", "@every 90s", "* * * * *"} {
		newCron(t, mine, crons.NewCron{Schedule: ok})
	}
	for _, often := range []string{"@every 59s", "@every 1s", "@every 1ms"} {
		_, err := mine.Crons.Create(ctx, crons.NewCron{AssistantID: "trip-planner", Schedule: often, Job: cronJob})
		wantLimit(t, often, err, errcode.LimitExceeded, "at most once every 1m")
	}
	_, err := mine.Crons.Create(ctx, crons.NewCron{AssistantID: "trip-planner", Schedule: "*/30 * * * * *", Job: cronJob})
	wantCode(t, "a schedule with seconds", err, errcode.BadRequest)
	daily := newCron(t, mine, crons.NewCron{Schedule: "@daily"})
	_, err = mine.Crons.Update(ctx, daily.ID, crons.Change{Schedule: ptr("@every 30s")})
	wantLimit(t, "changing a schedule to every 30s", err, errcode.LimitExceeded, "cron interval limit")
	if got, _ := mine.Crons.Get(ctx, daily.ID); got.Schedule != "@daily" {
		t.Errorf("a refused change stored the schedule %q", got.Schedule)
	}

	five := b.WithLimits(t, quota.Limits{CronInterval: 5 * time.Minute})
	slow := five.Records(five.NewUser(t))
	for _, ok := range []string{"*/5 * * * *", "@hourly", "@every 5m"} {
		newCron(t, slow, crons.NewCron{Schedule: ok})
	}
	for _, often := range []string{"*/4 * * * *", "0,3 * * * *", "@every 299s", "* * * * *"} {
		_, err := slow.Crons.Create(ctx, crons.NewCron{AssistantID: "trip-planner", Schedule: often, Job: cronJob})
		wantLimit(t, often+" under a 5m interval", err, errcode.LimitExceeded, "at most once every 5m")
	}
}

// A user's store holds at most the limit's live items: the last is put,
// the next refused; replacing one still goes, deleting one makes room, an
// item whose time ran out counts no more. Another user's do not count.
func limitItems(t *testing.T, b Backend) {
	ctx := context.Background()
	b = b.WithLimits(t, quota.Limits{Items: 3})
	mine, theirs, _, _ := two(t, b)
	ns := []string{"limits"}
	for _, k := range []string{"a", "b", "c"} {
		putItem(t, mine.Items, ns, k, `{"n":1}`)
	}
	err := mine.Items.Put(ctx, items.PutItem{Namespace: ns, Key: "d", Value: json.RawMessage(`{"n":1}`)})
	wantLimit(t, "an item past the limit", err, errcode.LimitExceeded, "store item limit")
	if _, ok, _ := mine.Items.Get(ctx, ns, "d", false); ok {
		t.Error("a refused item was stored")
	}
	putItem(t, mine.Items, ns, "c", `{"n":2}`)
	putItem(t, theirs.Items, ns, "d", `{"n":1}`)
	if err := mine.Items.Delete(ctx, ns, "c"); err != nil {
		t.Fatal(err)
	}
	if err := mine.Items.Put(ctx, items.PutItem{Namespace: ns, Key: "brief", Value: json.RawMessage(`{"n":1}`), TTL: time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond) // its time runs out
	putItem(t, mine.Items, ns, "d", `{"n":1}`)
}

// A user's store holds at most the limit's bytes: an item counts its
// value as compact JSON, its key and its labels; a put that would pass the
// limit is refused, one that reaches it goes; replacing an item counts
// the difference, and deleting one frees its bytes.
func limitItemBytes(t *testing.T, b Backend) {
	ctx := context.Background()
	b = b.WithLimits(t, quota.Limits{ItemBytes: 100})
	mine := b.Records(b.NewUser(t))
	put := func(key string, size int) error {
		t.Helper()
		return mine.Items.Put(ctx, sized(t, key, size))
	}
	for _, p := range []struct {
		key  string
		size int
	}{{"a", 60}, {"b", 40}} { // 100: the limit, reached
		if err := put(p.key, p.size); err != nil {
			t.Fatalf("putting %s (%d bytes): %v", p.key, p.size, err)
		}
	}
	wantLimit(t, "a byte past the limit", put("c", 14), errcode.LimitExceeded, "store size limit")
	wantLimit(t, "a replacement one byte larger", put("a", 61), errcode.LimitExceeded, "store size limit")
	if err := put("a", 46); err != nil { // 86
		t.Fatalf("a smaller replacement: %v", err)
	}
	if err := put("c", 14); err != nil { // 100 again
		t.Fatalf("an item the replacement made room for: %v", err)
	}
	if err := mine.Items.Delete(ctx, []string{"sized"}, "b"); err != nil {
		t.Fatal(err)
	}
	if err := put("d", 40); err != nil {
		t.Fatalf("an item a deletion made room for: %v", err)
	}
}

// sized is an item under the namespace "sized" that counts size bytes
// (at least 14, with a key of one byte) against its owner's limit.
func sized(t *testing.T, key string, size int) items.PutItem {
	t.Helper()
	in := items.PutItem{Namespace: []string{"sized"}, Key: key}
	in.Value = json.RawMessage(`{"v": "` + strings.Repeat("x", size-len(`{"v":""}`)-len(key)-len("sized")) + `"}`)
	if got := in.Size(); got != int64(size) {
		t.Fatalf("the item counts %d bytes, want %d", got, size)
	}
	return in
}

// A user has at most the limit's runs queued, pending and running, over
// all their threads: the last is created, the next refused with
// TOO_MANY_REQUESTS, on a thread or on a new one (which is then not
// made). A strategy that ends runs counts what it ends; a run that ends
// makes room; another user's runs do not count.
func limitActiveRuns(t *testing.T, b Backend) {
	ctx := context.Background()
	b = b.WithLimits(t, quota.Limits{ActiveRuns: 3})
	mine, theirs, _, _ := two(t, b)
	first, second, third := newThreadOf(t, mine), newThreadOf(t, mine), newThreadOf(t, mine)
	mustCreate(t, mine, first, "")
	mustCreate(t, mine, first, store.MultitaskEnqueue)
	mustCreate(t, mine, second, "") // the third: the limit
	_, err := mine.CreateRun(ctx, third, store.NewRun{})
	wantLimit(t, "a run past the limit", err, errcode.TooManyRequests, "run limit")
	_, err = mine.CreateRun(ctx, first, store.NewRun{MultitaskStrategy: store.MultitaskEnqueue})
	wantLimit(t, "a run queued past the limit", err, errcode.TooManyRequests, "run limit")
	fresh := uuid.NewString()
	_, err = mine.CreateRunOnNewThread(ctx, store.NewThread{ID: fresh}, store.NewRun{})
	wantLimit(t, "a run on a new thread past the limit", err, errcode.TooManyRequests, "run limit")
	if _, err := mine.Thread(ctx, fresh); errcode.Of(err) != errcode.NotFound {
		t.Errorf("a refused run made its thread: %v", err)
	}
	mustCreate(t, theirs, newThreadOf(t, theirs), "")

	// Interrupting ends the first thread's queued run and its pending one.
	mustCreate(t, mine, first, store.MultitaskInterrupt)
	last := mustCreate(t, mine, third, "")
	_, err = mine.CreateRunOnNewThread(ctx, store.NewThread{}, store.NewRun{})
	wantLimit(t, "a run past the limit again", err, errcode.TooManyRequests, "run limit")
	if _, err := mine.CancelRun(ctx, last.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := mine.CreateRunOnNewThread(ctx, store.NewThread{ID: fresh}, store.NewRun{}); err != nil {
		t.Errorf("a run once another ended: %v", err)
	}
}

// Runs a user creates at once, on threads of theirs and on new ones, are
// held to the limit exactly: as many are created as it allows, the rest
// refused; one that fails (a thread id in use) fails alone.
func limitActiveRunsAtOnce(t *testing.T, b Backend) {
	ctx := context.Background()
	b = b.WithLimits(t, quota.Limits{ActiveRuns: 5})
	mine := b.Records(b.NewUser(t))
	taken := newThreadOf(t, mine)
	var threads []string
	for range 8 {
		threads = append(threads, newThreadOf(t, mine))
	}
	const onNew, inUse = 8, 2
	errs := make(chan error, len(threads)+onNew+inUse)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range len(threads) + onNew + inUse {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			var err error
			switch {
			case i < len(threads):
				_, err = mine.CreateRun(ctx, threads[i], store.NewRun{})
			case i < len(threads)+onNew:
				_, err = mine.CreateRunOnNewThread(ctx, store.NewThread{}, store.NewRun{})
			default:
				_, err = mine.CreateRunOnNewThread(ctx, store.NewThread{ID: taken}, store.NewRun{})
			}
			errs <- err
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	created, codes := 0, map[errcode.Code]int{}
	for err := range errs {
		if err == nil {
			created++
		} else {
			codes[errcode.Of(err)]++
		}
	}
	// A run on a thread whose id is in use is refused, as past the limit
	// when the limit is reached first.
	if created != 5 || codes[errcode.Conflict] > inUse || codes[errcode.Conflict]+codes[errcode.TooManyRequests] != len(threads)+onNew+inUse-5 {
		t.Errorf("created %d, refused %v; want 5 created, the rest past the limit or (at most %d) in conflict", created, codes, inUse)
	}
}
