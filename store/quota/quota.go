// Package quota is the one rule of each limit a user is held to in the
// store: how many crons they keep and how often one may be due, how many
// items and bytes their long-term store holds, and how many runs they have
// queued and running at once. The PostgreSQL store and its in-memory twin
// both call these rules, in the step (on PostgreSQL, the transaction) that
// makes the change, with what the user holds then; so both refuse alike.
//
// A limit on what a user keeps, or on a value, is refused with
// LIMIT_EXCEEDED (422); a limit on what they do at once with
// TOO_MANY_REQUESTS (429). Each message names its limit.
package quota

import (
	"fmt"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
)

// Limits are what one user may keep and run. A limit of 0 is Default's.
type Limits struct {
	Crons        int           // crons a user keeps
	CronInterval time.Duration // the shortest time a cron's schedule may leave between two due times
	Items        int           // live items in a user's long-term store
	ItemBytes    int64         // their bytes, as items.PutItem.Size counts them
	ActiveRuns   int           // a user's runs queued, pending and running, over all their threads
}

// Default are the limits when none are set. The shortest cron interval is
// LangGraph's, a minute.
var Default = Limits{Crons: 100, CronInterval: time.Minute, Items: 10_000, ItemBytes: 50 << 20, ActiveRuns: 20}

// LockUser is the SQL, on PostgreSQL, that a change a rule of this
// package weighs for user $1 runs first in its transaction, before it
// counts what the user holds: it locks the user's row, so that the
// changes of one user that a limit weighs wait for one another, and two
// processes never both pass a check that only one of them may. (FOR NO
// KEY UPDATE: inserting rows that refer to the user does not wait for it.)
const LockUser = `SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE`

// LockUserItems is LockUser for the limits of a user's long-term store
// (Items, ItemBytes) alone: a transaction-scoped advisory lock keyed by
// the user, in a class of its own, so that a store put waits only for the
// same user's other puts, not for their run creations, which hold the
// user's row until they commit (the planner remembers what a traveller
// says as it runs, and an app whose travellers all act through one key
// would otherwise queue each put behind every run being created). Two
// users whose ids hash alike only wait for each other.
const LockUserItems = `SELECT pg_advisory_xact_lock(` + itemsLockClass + `, hashtext($1::text))`

// itemsLockClass is the first key of LockUserItems's advisory locks,
// the second being the user's.
const itemsLockClass = "7406"

// OrDefault is l with each limit that is not set (0) taken from Default.
func (l Limits) OrDefault() Limits {
	l.Crons = or(l.Crons, Default.Crons)
	l.CronInterval = or(l.CronInterval, Default.CronInterval)
	l.Items = or(l.Items, Default.Items)
	l.ItemBytes = or(l.ItemBytes, Default.ItemBytes)
	l.ActiveRuns = or(l.ActiveRuns, Default.ActiveRuns)
	return l
}

func or[T int | int64 | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// CheckCrons refuses one more cron to a user who keeps have already.
func (l Limits) CheckCrons(have int) error {
	if have < l.Crons {
		return nil
	}
	return errcode.New(errcode.LimitExceeded,
		"cron limit reached: a user may keep %d crons, and you have %d; delete one to create another", l.Crons, have)
}

// CheckCronInterval refuses a schedule that may be due again sooner than
// CronInterval after it was due; every is the shortest time it leaves
// between two due times.
func (l Limits) CheckCronInterval(schedule string, every time.Duration) error {
	if every >= l.CronInterval {
		return nil
	}
	return errcode.New(errcode.LimitExceeded,
		"cron interval limit: %q may be due every %s, and a cron may be due at most once every %s",
		schedule, short(every), short(l.CronInterval))
}

// Usage is what a user's long-term store holds: its live items and their
// bytes.
type Usage struct {
	Items int
	Bytes int64
}

// AfterPut is what a store that holds u holds once an item of size bytes
// is put in it, replacing a live item of replaced bytes (nil when there is
// none: the put adds an item). Replacing counts the difference.
func (u Usage) AfterPut(size int64, replaced *int64) Usage {
	if replaced == nil {
		return Usage{Items: u.Items + 1, Bytes: u.Bytes + size}
	}
	return Usage{Items: u.Items, Bytes: u.Bytes - *replaced + size}
}

// CheckItems refuses a put that would take a user's long-term store past
// Items items or ItemBytes bytes: before is what the store holds, after
// what it would hold once the put replaced any item with the same
// namespace and key. A put that does not grow the store past a limit is
// not refused, so that a user over a limit lowered since can still
// replace an item with a smaller one.
func (l Limits) CheckItems(before, after Usage) error {
	switch {
	case after.Items > l.Items && after.Items > before.Items:
		return errcode.New(errcode.LimitExceeded,
			"store item limit reached: a user's store may hold %d items; delete one to put another", l.Items)
	case after.Bytes > l.ItemBytes && after.Bytes > before.Bytes:
		return errcode.New(errcode.LimitExceeded,
			"store size limit reached: a user's store may hold %s, and this put would make it %s; delete or shrink items first",
			size(l.ItemBytes), size(after.Bytes))
	}
	return nil
}

// CheckActiveRuns refuses one more run to a user who has active runs
// queued, pending and running already, over all their threads (once the
// new run's multitask strategy has ended those it replaces).
func (l Limits) CheckActiveRuns(active int) error {
	if active < l.ActiveRuns {
		return nil
	}
	return errcode.New(errcode.TooManyRequests,
		"run limit reached: a user may have %d runs queued or running at once; wait for one to end, or cancel one", l.ActiveRuns)
}

// short writes a duration without its zero minutes and seconds: 1m, not
// 1m0s.
func short(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// size writes a number of bytes as a person reads it: in MiB or KiB when
// it is a whole number of them.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
