package replica

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// positions asks the primary for its WAL flush position on behalf of
// every read that needs it: one question at a time, each answering every
// read that began before it was asked.
type positions struct {
	pool   *pgxpool.Pool
	mu     sync.Mutex
	next   *question // the question the reads arriving now wait for; nil when none waits
	asking bool      // a goroutine asks the questions
}

// question is one position query and, once done is closed, its answer.
type question struct {
	done chan struct{}
	lsn  uint64
	err  error
}

// askTimeout bounds one position query.
const askTimeout = 5 * time.Second

// now returns the primary's flush position as of a moment after the call
// began.
func (p *positions) now(ctx context.Context) (uint64, error) {
	p.mu.Lock()
	if p.next == nil {
		p.next = &question{done: make(chan struct{})}
	}
	q := p.next
	if !p.asking {
		p.asking = true
		go p.ask()
	}
	p.mu.Unlock()
	select {
	case <-q.done:
		return q.lsn, q.err
	case <-ctx.Done():
		return 0, context.Cause(ctx)
	}
}

// ask asks the waiting questions one after another, and ends when none
// waits. A question is taken from next just before it is asked, so every
// read waiting for it arrived before it was asked.
func (p *positions) ask() {
	for {
		p.mu.Lock()
		q := p.next
		p.next = nil
		if q == nil {
			p.asking = false
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		q.lsn, q.err = p.query()
		close(q.done)
	}
}

// query reads the primary's flush position.
func (p *positions) query() (uint64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), askTimeout)
	defer cancel()
	var text string
	if err := p.pool.QueryRow(ctx, `SELECT pg_current_wal_flush_lsn()::text`).Scan(&text); err != nil {
		return 0, fmt.Errorf("reading the primary's WAL position: %w", err)
	}
	return parseLSN(text)
}
