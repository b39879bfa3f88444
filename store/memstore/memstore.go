// Package memstore is the in-memory twin of the PostgreSQL store: users
// and their keys and sessions, threads, the run queue and its events,
// checkpoints, tool outputs, the long-term store's items, crons,
// assistants and users' MCP servers, with the same rules and the same
// errors as the store and its packages. It is for tests that need the
// whole server without a database, and for running one process without
// one; it keeps nothing when the process ends.
//
// Everything lives behind one lock, so that what PostgreSQL does in one
// transaction (a run created by a cron's due time, a thread deleted with
// its runs, checkpoints and crons) is one step here too. Waiters (a
// run's followers, a worker watching for a cancel, idle workers watching
// the queue) are woken by a signal each change replaces.
//
// The behaviour both stores share is held together by one suite,
// server/tenant/tenanttest, which runs against each.
package memstore

import (
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/secretbox"
	"github.com/tripgraph/tripgraph/store/quota"
)

// Options configure a Store.
type Options struct {
	// Guard vets the URLs of users' MCP servers; nil allows no exception
	// to its blocked ranges (as a netguard with no allow list).
	Guard *netguard.Guard
	// Box seals the credentials of users' MCP servers; nil refuses
	// servers with a credential, as the store does without a key.
	Box *secretbox.Box
	// Now is the store's clock, for the times it records and the expiry
	// of sessions, links, leases and items; nil is time.Now. Tests set it
	// to see what happens once something has expired.
	Now func() time.Time
	// Limits are what each user may keep and run (quota.Default's where
	// not set), held by the same rules as the store's.
	Limits quota.Limits
}

// Store is all of tripgraph's data in memory. It is safe for concurrent
// use.
type Store struct {
	s *state
	// Accounts are the users, their API keys and browser sessions.
	Accounts *Accounts
	// Items are the long-term store's items of every user; ForOwner's are
	// one user's.
	Items *Items
	// Crons are the scheduled runs of every user.
	Crons *Crons
	// Assistants are the users' assistants.
	Assistants *Assistants
	// Servers are the MCP servers users add, and their settings.
	Servers *Servers
}

// New returns an empty Store.
func New(o Options) *Store {
	s := &state{
		users: map[string]*user{}, threads: map[string]*thread{}, runs: map[string]*run{},
		outputs: map[string]*output{}, changed: make(chan struct{}), queueWatchers: map[int]chan struct{}{},
		clock: o.Now, limits: o.Limits.OrDefault(),
	}
	if s.clock == nil {
		s.clock = time.Now
	}
	s.initItems()
	s.initCrons()
	s.initAssistants()
	s.initServers(o)
	s.initAccounts()
	return &Store{s: s, Accounts: &Accounts{s}, Items: &Items{s}, Crons: &Crons{s}, Assistants: &Assistants{s}, Servers: &Servers{s}}
}

// state is everything the Store holds, behind mu.
type state struct {
	mu     sync.Mutex
	clock  func() time.Time
	limits quota.Limits

	users   map[string]*user
	threads map[string]*thread
	runs    map[string]*run
	outputs map[string]*output
	seq     int64 // the last run event's seq, over all runs

	accounts   accountsData
	items      itemsData
	crons      cronsData
	assistants assistantsData
	servers    serversData

	// changed is closed, and replaced, on every change a waiter may wait
	// for: a run's events or status, a cancel request.
	changed chan struct{}
	// queueWatchers are told when a run becomes pending (WatchQueue).
	queueWatchers map[int]chan struct{}
	nextWatcher   int
}

// notifyLocked wakes every waiter on changed.
func (s *state) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// signal is what a waiter waits on for the next change.
func (s *state) signal() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// pendingLocked tells the queue's watchers that a run became pending.
func (s *state) pendingLocked() {
	for _, ch := range s.queueWatchers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// now is the time a change is made at, to the microsecond, as PostgreSQL
// keeps it.
func (s *state) now() time.Time { return s.clock().UTC().Truncate(time.Microsecond) }

// newID is a new UUIDv7: ids sort in the order they were made.
func newID() string { return uuid.Must(uuid.NewV7()).String() }

// user is an account.
type user struct {
	id, name string
	created  time.Time
}

var _ graph.Checkpointer = (*checkpoints)(nil)
