package crons

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/store/quota"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

var testURL string

// The behaviour the in-memory twin shares (crons created, refused,
// searched, changed, deleted with their thread, fired once per due time)
// is tested by the tenants' suite (server/tenant/tenanttest), on
// PostgreSQL too. Here is what is this store's own: schedules read, many
// processes firing at once, a deleted user's crons.

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "crons", &testURL)) }

func TestNext(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	end := at("2027-03-01T12:00:00Z")
	for _, c := range []struct {
		name, schedule, zone, after string
		end                         *time.Time
		want                        string // "" for never
	}{
		{"every minute", "* * * * *", "", "2027-01-10T08:00:30Z", nil, "2027-01-10T08:01:00Z"},
		{"nine in Lisbon, winter", "0 9 * * *", "Europe/Lisbon", "2027-01-10T10:00:00Z", nil, "2027-01-11T09:00:00Z"},
		{"nine in Lisbon, summer", "0 9 * * *", "Europe/Lisbon", "2027-07-10T10:00:00Z", nil, "2027-07-11T08:00:00Z"},
		{"nine in São Paulo", "0 9 * * *", "America/Sao_Paulo", "2027-07-10T10:00:00Z", nil, "2027-07-10T12:00:00Z"},
		{"descriptor", "@daily", "UTC", "2027-07-10T10:00:00Z", nil, "2027-07-11T00:00:00Z"},
		{"before the end", "0 12 1 * *", "UTC", "2027-02-10T00:00:00Z", &end, "2027-03-01T12:00:00Z"},
		{"past the end", "0 13 1 * *", "UTC", "2027-02-10T00:00:00Z", &end, ""},
	} {
		got, err := Next(c.schedule, c.zone, at(c.after), c.end, quota.Default)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		switch {
		case c.want == "" && got != nil:
			t.Errorf("%s: next %v, want never", c.name, got)
		case c.want != "" && (got == nil || !got.Equal(at(c.want))):
			t.Errorf("%s: next %v, want %s", c.name, got, c.want)
		}
	}
	for _, bad := range [][2]string{{"61 * * * *", "UTC"}, {"every day", "UTC"}, {"* * * * * *", "UTC"}, {"* * * * *", "Mars/Olympus"}, {"* * * * *", "Local"}} {
		if _, err := Next(bad[0], bad[1], time.Now(), nil, quota.Default); errcode.Of(err) != errcode.BadRequest {
			t.Errorf("%q in %q: %v, want BAD_REQUEST", bad[0], bad[1], err)
		}
	}
}

type fixture struct {
	s    *Store
	pool *pgxpool.Pool
	acc  *accounts.Store
}

func open(t *testing.T) fixture {
	t.Helper()
	pool := pgtest.MigratedPool(t, testURL, migrations.Up)
	return fixture{s: New(pool, quota.Limits{}), pool: pool, acc: accounts.New(pool)}
}

func (f fixture) user(t *testing.T, name string) (string, Owned) {
	t.Helper()
	u, err := f.acc.EnsureUser(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID, f.s.ForOwner(u.ID)
}

func (f fixture) thread(t *testing.T, owner string) string {
	t.Helper()
	var id string
	if err := f.pool.QueryRow(context.Background(), `INSERT INTO threads (owner_id) VALUES ($1) RETURNING id::text`, owner).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

var job = json.RawMessage(`{"input":{"messages":[]}}`)

// Deleting a user deletes their crons, with their threads or without.
func TestDeletedUserTakesCrons(t *testing.T) {
	ctx := context.Background()
	f := open(t)
	anaID, ana := f.user(t, "crons-deleted")
	onThread, err := ana.Create(ctx, NewCron{ThreadID: f.thread(t, anaID), AssistantID: "trip-planner", Schedule: "@daily", Job: job})
	if err != nil {
		t.Fatal(err)
	}
	stateless, err := ana.Create(ctx, NewCron{AssistantID: "trip-planner", Schedule: "@hourly", Job: job})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.pool.Exec(ctx, `DELETE FROM users WHERE id = $1`, anaID); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{onThread.ID, stateless.ID} {
		if _, err := ana.Get(ctx, id); errcode.Of(err) != errcode.NotFound {
			t.Errorf("a deleted user's cron: %v", err)
		}
	}
}

// Many callers firing at once start exactly one run per due cron; a start
// that fails skips its due time alone; disabled and ended crons never
// fire; a fired cron moves to its next time.
func TestFireExactlyOnce(t *testing.T) {
	ctx := context.Background()
	f := open(t)
	_, ana := f.user(t, "crons-fire")
	if _, err := f.pool.Exec(ctx, `CREATE TABLE fired (cron_id uuid, due timestamptz)`); err != nil {
		t.Fatal(err)
	}
	const n = 50
	ids := map[string]bool{}
	var failing string
	for i := range n + 2 {
		// Due once a year: made due now below, each must fire once, even
		// when the test runs across a minute's turn (an every-minute cron
		// would rightly be due again then).
		c, err := ana.Create(ctx, NewCron{AssistantID: "trip-planner", Schedule: "0 0 1 1 *", Job: job, Enabled: i != n})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case i == n+1:
			failing = c.ID
		case i < n:
			ids[c.ID] = true
		}
	}
	// Every cron due now, at the same instant.
	if _, err := f.pool.Exec(ctx, `UPDATE crons SET next_run_at = date_trunc('minute', now())`); err != nil {
		t.Fatal(err)
	}
	start := func(ctx context.Context, tx pgx.Tx, c Cron, due time.Time) error {
		if c.ID == failing {
			tx.Exec(ctx, `INSERT INTO fired VALUES ($1, $2)`, c.ID, due) // rolled back with the savepoint
			return errors.New("the thread is busy")
		}
		_, err := tx.Exec(ctx, `INSERT INTO fired VALUES ($1, $2)`, c.ID, due)
		return err
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var skipped []Fired
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				fired, err := f.s.Fire(ctx, 7, start)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for _, x := range fired {
					if x.Err != nil {
						skipped = append(skipped, x)
					}
				}
				mu.Unlock()
				if len(fired) == 0 {
					return
				}
			}
		}()
	}
	wg.Wait()
	var total, distinct int
	if err := f.pool.QueryRow(ctx, `SELECT count(*), count(DISTINCT cron_id) FROM fired`).Scan(&total, &distinct); err != nil {
		t.Fatal(err)
	}
	if total != n || distinct != n {
		t.Errorf("%d runs for %d crons, want %d for %d", total, distinct, n, n)
	}
	if len(skipped) != 1 || skipped[0].Cron.ID != failing {
		t.Errorf("skipped %+v, want the failing cron alone", skipped)
	}
	var late int
	if err := f.pool.QueryRow(ctx, `SELECT count(*) FROM crons WHERE enabled AND next_run_at <= now()`).Scan(&late); err != nil || late != 0 {
		t.Errorf("%d crons still due (%v)", late, err)
	}
}
