package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The store announces what changed on its channels (RunEventsChannel,
// RunQueueChannel, RunCancelChannel) after the transactions that change
// it, not in them.
//
// A transaction that calls pg_notify takes, when it commits, a lock that
// PostgreSQL holds across the whole server until the commit is on disk, so
// that notifications queue in commit order. Every such transaction then
// commits after the one before it has reached the disk, one at a time,
// never together; under load most of a run's commits waited there. So a
// transaction gathers its notes instead and, once it has committed, hands
// them to the store's notifier. The notifier delivers them to this
// process's listeners at once and sends them to the other processes on a
// connection of its own, as many as have gathered in one statement, with
// synchronous_commit off: the notification itself is not kept across a
// crash in any case.
//
// A note is lost only when the process stops between a commit and the
// send. Those who listen do not depend on every note: workers also look
// for runs every poll, followers read again after a quiet while
// (followQuiet) and whenever another attempt of their run is claimed
// (resumed), and a worker that renews its lease sees a cancel request
// there.

// note is one notification: a channel and its payload.
type note struct{ channel, payload string }

// notes are the notifications a transaction calls for, in order.
type notes []note

// add adds a note.
func (n *notes) add(x note) { *n = append(*n, x) }

// runPending announces that a run became pending, for a worker to claim.
var runPending = note{RunQueueChannel, ""}

// everyone is the payload that tells every listener of a channel that
// notes may have been lost, as when its listener reconnects: each reads
// what it follows again.
const everyone = "*"

// notifySQL sends the notes $1 (channels) and $2 (payloads), in order.
const notifySQL = `SELECT count(pg_notify(c, p)) FROM unnest($1::text[], $2::text[]) AS n(c, p)`

// columns are the notes as notifySQL's arguments.
func (n notes) columns() (channels, payloads []string) {
	channels, payloads = make([]string, len(n)), make([]string, len(n))
	for i, x := range n {
		channels[i], payloads[i] = x.channel, x.payload
	}
	return channels, payloads
}

// sendIn sends the notes in a caller's transaction, where they go out when
// it commits; for a transaction the store does not own.
func (n notes) sendIn(ctx context.Context, tx pgx.Tx) error {
	if len(n) == 0 {
		return nil
	}
	channels, payloads := n.columns()
	if _, err := tx.Exec(ctx, notifySQL, channels, payloads); err != nil {
		return fmt.Errorf("announcing runs: %w", err)
	}
	return nil
}

// inTx runs change in a transaction on db (the store's Pool or its
// requests') and, once it has committed, announces the notes change
// gathered. The store's changes lock a thread before its runs, so they
// do not deadlock one another; a transaction PostgreSQL still rolls back
// to break a deadlock (with a statement from outside the store, say) is
// run again, up to deadlockTries times.
func (s *Store) inTx(ctx context.Context, db *pgxpool.Pool, change func(tx pgx.Tx, n *notes) error) error {
	for try := 1; ; try++ {
		var n notes
		err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
			n = n[:0]
			return change(tx, &n)
		})
		if err == nil {
			s.announce(n...)
			return nil
		}
		var pgErr *pgconn.PgError
		if try == deadlockTries || !errors.As(err, &pgErr) || pgErr.Code != "40P01" {
			return err
		}
	}
}

// deadlockTries is how many times inTx runs a transaction that keeps
// being chosen to break a deadlock.
const deadlockTries = 3

// announce tells every process's listeners of changes that have
// committed: this process's at once, the others' through the notifier.
func (s *Store) announce(n ...note) {
	if len(n) == 0 {
		return
	}
	s.hubMu.Lock()
	h, nf := s.hub, s.notifier
	if nf == nil && !s.closed {
		cfg := s.Pool.Config().ConnConfig.Copy()
		cfg.RuntimeParams["synchronous_commit"] = "off"
		cfg.RuntimeParams["application_name"] = "tripgraph notifier"
		nf = startNotifier(func(ctx context.Context) (*pgx.Conn, error) { return pgx.ConnectConfig(ctx, cfg) })
		s.notifier = nf
	}
	s.hubMu.Unlock()
	if h != nil {
		for _, x := range n {
			h.deliver(x.channel, x.payload)
		}
	}
	if nf != nil { // nil once the store is closed
		nf.queue(n)
	}
}

// ownNote reports whether a notification came from this process's
// notifier, whose notes were delivered here already.
func (s *Store) ownNote(pid uint32) bool {
	s.hubMu.Lock()
	nf := s.notifier
	s.hubMu.Unlock()
	return nf != nil && nf.pid.Load() == pid
}

// maxQueuedNotes is how many notes the notifier keeps while it cannot
// send them; past that it drops them and, once it can send again, tells
// every listener to read again (everyone).
const maxQueuedNotes = 10_000

// notifier sends notes to the other processes, on a connection of its
// own that it opens on first use and again after it fails.
type notifier struct {
	connect func(context.Context) (*pgx.Conn, error)
	pid     atomic.Uint32 // the backend of its connection, whose notifications this process has had
	wake    chan struct{}
	stop    context.CancelFunc
	done    chan struct{}
	// spacing is the least time between the starts of two sends
	// (noteSpacing).
	spacing time.Duration

	mu      sync.Mutex
	queued  notes
	dropped bool // notes were dropped: the next send starts with everyone
	closing bool // send what is queued, then stop
}

func startNotifier(connect func(context.Context) (*pgx.Conn, error)) *notifier {
	ctx, stop := context.WithCancel(context.Background())
	nf := &notifier{connect: connect, wake: make(chan struct{}, 1), stop: stop, done: make(chan struct{}), spacing: noteSpacing}
	go nf.run(ctx)
	return nf
}

// queue adds notes to send.
func (nf *notifier) queue(n notes) {
	nf.mu.Lock()
	if len(nf.queued)+len(n) > maxQueuedNotes {
		nf.queued, nf.dropped = nil, true
	} else {
		nf.queued = append(nf.queued, n...)
	}
	nf.mu.Unlock()
	select {
	case nf.wake <- struct{}{}:
	default:
	}
}

// take returns what to send next, and whether the notifier is to stop
// once it is sent.
func (nf *notifier) take() (n notes, closing bool) {
	nf.mu.Lock()
	defer nf.mu.Unlock()
	n, nf.queued = nf.queued, nil
	if nf.dropped {
		n = append(notes{{RunEventsChannel, everyone}, {RunQueueChannel, everyone}, {RunCancelChannel, everyone}}, n...)
		nf.dropped = false
	}
	return n, nf.closing
}

// putBack returns notes a send failed to send to the front of the queue.
func (nf *notifier) putBack(n notes) {
	nf.mu.Lock()
	defer nf.mu.Unlock()
	if len(n)+len(nf.queued) > maxQueuedNotes {
		nf.queued, nf.dropped = nil, true
		return
	}
	nf.queued = append(n, nf.queued...)
}

// noteSpacing is the least time between two sends of the notifier: a note
// queued soon after a send waits for the rest of it, and goes with the
// others queued meanwhile. A note queued after a quiet while goes at once.
// Under load the notes of many runs' commits then cost one statement, not
// one each; this process's listeners have had them already, and other
// processes' hear them this much later at most.
const noteSpacing = 20 * time.Millisecond

// run sends what is queued, all of it in one statement, whenever there
// is some, at most once per spacing, until it is stopped.
func (nf *notifier) run(ctx context.Context) {
	defer close(nf.done)
	var conn *pgx.Conn
	defer func() {
		if conn != nil {
			conn.Close(context.Background())
		}
	}()
	for {
		n, closing := nf.take()
		if len(n) > 0 {
			began := time.Now()
			if err := nf.send(ctx, &conn, n); err != nil {
				nf.putBack(n)
				if ctx.Err() != nil {
					return
				}
				slog.Warn("run notifications: sending failed, trying again", "err", err, "pause", reconnectDelay)
				if sleep(ctx, reconnectDelay) != nil {
					return
				}
				continue
			}
			if !closing {
				nf.space(ctx, began)
			}
			continue
		}
		if closing {
			return
		}
		select {
		case <-nf.wake:
		case <-ctx.Done():
			return
		}
	}
}

// space waits until the spacing has passed since a send began, or the
// notifier is closing or stopped.
func (nf *notifier) space(ctx context.Context, began time.Time) {
	t := time.NewTimer(nf.spacing - time.Since(began))
	defer t.Stop()
	for {
		select {
		case <-t.C:
			return
		case <-ctx.Done():
			return
		case <-nf.wake:
			nf.mu.Lock()
			closing := nf.closing
			nf.mu.Unlock()
			if closing {
				return
			}
		}
	}
}

// send sends notes on *conn, connecting first when it is nil; a
// connection that fails is closed and set to nil.
func (nf *notifier) send(ctx context.Context, conn **pgx.Conn, n notes) error {
	if *conn == nil {
		c, err := nf.connect(ctx)
		if err != nil {
			return fmt.Errorf("connecting: %w", err)
		}
		*conn = c
		nf.pid.Store(c.PgConn().PID())
	}
	channels, payloads := n.columns()
	if _, err := (*conn).Exec(ctx, notifySQL, channels, payloads); err != nil {
		(*conn).Close(context.Background())
		*conn = nil
		return err
	}
	return nil
}

// notifierGrace is how long closing the store waits for the notifier to
// send what is queued.
const notifierGrace = 2 * time.Second

// close sends what is queued, waiting up to notifierGrace, and stops.
func (nf *notifier) close() {
	nf.mu.Lock()
	nf.closing = true
	nf.mu.Unlock()
	select {
	case nf.wake <- struct{}{}:
	default:
	}
	select {
	case <-nf.done:
	case <-time.After(notifierGrace):
		nf.stop()
		<-nf.done
	}
	nf.stop()
}

// stopNotifier stops the notifier, if any, once it has sent what is
// queued.
func (s *Store) stopNotifier() {
	s.hubMu.Lock()
	nf := s.notifier
	s.notifier, s.closed = nil, true
	s.hubMu.Unlock()
	if nf != nil {
		nf.close()
	}
}
