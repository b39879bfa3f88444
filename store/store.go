// Package store is tripgraph's PostgreSQL data layer. This package holds
// the connection pool, the threads and the run queue: runs, their events
// and the notifications that let any process follow them, leases, the
// multitask strategies (decided in the same transaction that creates a
// run, so they cannot race), tool outputs and retention. Its sub-packages
// hold the other areas, each on the same pool: accounts (users, keys and
// browser sessions), catalog (what the MCP tools read), checkpoint (the
// graph's checkpointer), items (the long-term store), crons (scheduled runs),
// eventparts (the partitions of the run events table) and mcpservers (the
// servers users add).
//
// The reads a streaming replica may serve (an owner's history and state,
// thread, run and item searches, finished runs' replays) go through
// package replica, which picks the replica once it has caught up with the
// primary, else the primary; every other statement is the primary's.
//
// What a user may touch is reached through Owner (ForOwner), which sees
// that user's rows only; the queue's worker calls (ClaimRun and the lease
// calls) reach any owner's runs, by lease.
package store

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/store/catalog"
	"github.com/tripgraph/tripgraph/store/checkpoint"
	"github.com/tripgraph/tripgraph/store/crons"
	"github.com/tripgraph/tripgraph/store/eventparts"
	"github.com/tripgraph/tripgraph/store/items"
	"github.com/tripgraph/tripgraph/store/quota"
	"github.com/tripgraph/tripgraph/store/replica"
)

// Store is a handle on the database. It is safe for concurrent use.
type Store struct {
	Pool *pgxpool.Pool
	// requests holds the connections for what a request waits on before
	// it is answered (creating a run, checking a credential: see
	// RequestPool), apart from Pool, where under load the runs' own work
	// queues for a connection. It is Pool itself when the store was opened
	// without a size.
	requests *pgxpool.Pool
	// reads decides which database serves the reads that a replica may
	// serve (see Options.ReplicaURL); every other statement is the
	// primary's.
	reads *replica.Router
	// primary is a Router that sends every read to the primary.
	primary *replica.Router
	// Accounts are the users, their API keys and browser sessions.
	Accounts *accounts.Store
	// Catalog is what our MCP tools read and book.
	Catalog *catalog.Store
	// Checkpoints is the graph's checkpointer over every thread, for the
	// commands that are not acting for one user; ForOwner's is scoped.
	Checkpoints *checkpoint.Saver
	// Items are the long-term store's items of every user; ForOwner's are
	// one user's.
	Items *items.Store
	// Crons are the scheduled runs of every user.
	Crons *crons.Store
	// EventPartitions are the partitions of the run events table, which
	// the process adds ahead of need and retention drops.
	EventPartitions *eventparts.Partitions

	limits quota.Limits // what each user may keep and run

	creating creations // the creations of runs that wait for their owner's batch in flight

	hubMu    sync.Mutex
	hub      *hub      // the LISTEN connection, started on first use
	notifier *notifier // sends what the store announces, started on first use
	closed   bool      // Close was called: no notifier is started again
}

// Options tune a Store. The zero value is the default.
type Options struct {
	// MaxConns is the most connections the pool opens, over any
	// pool_max_conns in the URL; half as many again (at least 2) are
	// apart for requests (RequestPool). Connections are opened when a
	// statement finds none idle, so a pool grows only as far as the
	// statements at once need (each is a PostgreSQL backend holding
	// memory), and one idle for longer than IdleConnTimeout is closed
	// down to warmConns. 0 keeps the URL's size, or pgxpool's default
	// (the larger of 4 and the number of CPUs), and one pool for all.
	// The connections that listen for and send run notifications are not
	// among them.
	MaxConns int32
	// Checkpoints tune the checkpointer.
	Checkpoints checkpoint.Options
	// Limits are what each user may keep and run (quota.Default's where
	// not set).
	Limits quota.Limits
	// ReplicaURL, when set, is a streaming replica of the database that
	// serves the owners' history and state reads, thread, run and store
	// searches and the replay of finished runs' streams, once it has
	// replayed what the primary had committed when the read began; the
	// primary serves them while it has not, and while the replica is down
	// (see package replica). Its pool is sized as the main one.
	ReplicaURL string
	// Replica tunes how reads wait for the replica and how long a failed
	// one is left alone.
	Replica replica.Options
	// Tracer, when set, sees every statement of the pools (and of the
	// connections that listen for and send notifications): the command
	// sets OpenTelemetry's (otelpgx) when tracing is on.
	Tracer pgx.QueryTracer
}

// Open connects to the database at url with the default options and
// checks that it answers.
func Open(ctx context.Context, url string) (*Store, error) {
	return OpenWith(ctx, url, Options{})
}

// OpenWith connects to the database at url and checks that it answers.
func OpenWith(ctx context.Context, url string, o Options) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("reading the database URL: %w", err)
	}
	if o.MaxConns > 0 {
		cfg.MaxConns = o.MaxConns
		sizeOnDemand(cfg)
	}
	// A scan of a table larger than a quarter of the shared buffers would
	// otherwise start where another scan of it is, or where the last one
	// that stopped early (a LIMIT) left off: a photo search for a common
	// word, which reads the first 1001 matches in the table's order, would
	// find other photos each time.
	cfg.ConnConfig.RuntimeParams["synchronize_seqscans"] = "off"
	if o.Tracer != nil {
		cfg.ConnConfig.Tracer = o.Tracer
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("opening the database pool: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connecting to the database: %w", err)
	}
	requests := pool
	if o.MaxConns > 0 {
		rcfg := cfg.Copy()
		rcfg.MaxConns = requestConns(o.MaxConns)
		sizeOnDemand(rcfg)
		if requests, err = pgxpool.NewWithConfig(ctx, rcfg); err != nil {
			pool.Close()
			return nil, fmt.Errorf("opening the requests' database pool: %w", err)
		}
	}
	reads := replica.Primary(pool)
	if o.ReplicaURL != "" {
		if reads, err = replica.Open(ctx, pool, requests, o.ReplicaURL, o.MaxConns, o.Replica); err != nil {
			if requests != pool {
				requests.Close()
			}
			pool.Close()
			return nil, err
		}
	}
	o.Checkpoints.Reads = reads
	return &Store{Pool: pool, requests: requests, reads: reads, primary: replica.Primary(pool), Accounts: accounts.New(pool), Catalog: catalog.New(pool),
		Checkpoints: checkpoint.New(pool, o.Checkpoints), Items: items.New(pool, reads, o.Limits), Crons: crons.New(pool, o.Limits),
		EventPartitions: eventparts.New(pool), limits: o.Limits.OrDefault()}, nil
}

// requestConns is the size of the requests' pool beside a pool of
// maxConns for the runs' work: half as many, at least 2.
func requestConns(maxConns int32) int32 { return max(2, maxConns/2) }

// MostConnections is the most connections a Store opened with MaxConns
// maxConns (> 0) holds at once: its two pools and the connections that
// listen for and send run notifications. It is what a Store needs of the
// database's max_connections.
func MostConnections(maxConns int32) int32 { return maxConns + requestConns(maxConns) + 2 }

// IdleConnTimeout is how long a pooled connection may stay idle before it
// is closed (down to warmConns per pool), so that the backends a burst
// needed do not hold their memory after it.
const IdleConnTimeout = time.Minute

// warmConns is how many connections each sized pool keeps open however
// idle, so that the first statements after a quiet spell do not wait for
// PostgreSQL to start a backend.
const warmConns = 1

// sizeOnDemand makes cfg's pool open connections as statements need them,
// keep warmConns, and close the others once idle for IdleConnTimeout
// (checked every quarter of it).
func sizeOnDemand(cfg *pgxpool.Config) {
	cfg.MinConns = min(warmConns, cfg.MaxConns)
	cfg.MaxConnIdleTime = IdleConnTimeout
	cfg.HealthCheckPeriod = IdleConnTimeout / 4
}

// Reads is what decides which database serves the reads a replica may
// serve, and counts them.
func (s *Store) Reads() *replica.Router { return s.reads }

// RequestPool is the pool for what a request waits on before it is
// answered: a run's creation (CreateRun, CreateRunOnNewThread) and the
// check of its credential (give the API accounts.New(RequestPool())).
// Under load every connection of Pool is busy with the runs' work and a
// queue waits for the next; a request that joined that queue would wait
// behind it, tens of milliseconds on a busy machine, before its first
// byte. It is Pool itself when the store was opened without a size.
func (s *Store) RequestPool() *pgxpool.Pool { return s.requests }

// Close sends the announcements it has not sent yet, stops listening for
// run notifications and releases the pool's connections.
func (s *Store) Close() {
	s.stopNotifier()
	s.stopHub()
	s.reads.Close()
	if s.requests != s.Pool {
		s.requests.Close()
	}
	s.Pool.Close()
}

// Owner is one user's part of the store: their threads, the runs on them
// and those runs' events, their checkpoints and their large tool outputs.
// Every method reaches that user's rows only: another user's id is
// NOT_FOUND, as if it did not exist. Build it once where the user is known
// (a verified credential, or a run's thread) and pass it on, so that code
// past that point cannot reach another user's data even by mistake.
type Owner struct {
	s           *Store
	id          string
	checkpoints *checkpoint.Owned
}

// ForOwner returns userID's part of the store.
func (s *Store) ForOwner(userID string) Owner {
	return Owner{s: s, id: userID, checkpoints: s.Checkpoints.ForOwner(userID)}
}

// ID is the owner's user id.
func (o Owner) ID() string { return o.id }

// Checkpoints is the graph's checkpointer on the owner's threads only; it
// creates a missing thread, owned by them, with its first checkpoint.
func (o Owner) Checkpoints() *checkpoint.Owned { return o.checkpoints }

// nullable is s as a query argument: NULL when empty.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
