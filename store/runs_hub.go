package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// hub is a process's one LISTEN connection for RunEventsChannel and
// RunCancelChannel. It fans notifications out to the subscribers of each
// run, so a thousand followers cost one connection, not a thousand.
// A subscriber is only woken: it reads what changed from the tables, so a
// notification lost while the connection was down costs nothing as long as
// everyone is woken when it comes back.
type hub struct {
	connect func(context.Context) (*pgx.Conn, error)
	stop    context.CancelFunc
	done    chan struct{}

	mu        sync.Mutex
	subs      map[subKey]map[*subscription]struct{}
	listening chan struct{} // closed once the first LISTEN is in place
}

type subKey struct{ channel, runID string }

// subscription is woken, through a channel of one slot, whenever something
// may have changed for its run. Wakes coalesce.
type subscription struct {
	wake    chan struct{}
	stopped <-chan struct{} // closed when the hub stops for good
}

// wait blocks until the subscription is woken (nil), or the hub stops or
// ctx ends (an error).
func (s *subscription) wait(ctx context.Context) error {
	select {
	case <-s.wake:
		return nil
	case <-s.stopped:
		return errors.New("waiting for run notifications: the store is closed")
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

func (s *subscription) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// runHub returns the store's hub, starting it on first use.
func (s *Store) runHub() *hub {
	s.hubMu.Lock()
	defer s.hubMu.Unlock()
	if s.hub == nil {
		cfg := s.Pool.Config().ConnConfig
		s.hub = startHub(func(ctx context.Context) (*pgx.Conn, error) {
			return pgx.ConnectConfig(ctx, cfg.Copy())
		})
	}
	return s.hub
}

// stopHub stops the hub, if any, and waits for it.
func (s *Store) stopHub() {
	s.hubMu.Lock()
	h := s.hub
	s.hub = nil
	s.hubMu.Unlock()
	if h != nil {
		h.stop()
		<-h.done
	}
}

func startHub(connect func(context.Context) (*pgx.Conn, error)) *hub {
	ctx, stop := context.WithCancel(context.Background())
	h := &hub{connect: connect, stop: stop, done: make(chan struct{}),
		subs: map[subKey]map[*subscription]struct{}{}, listening: make(chan struct{})}
	go h.run(ctx)
	return h
}

// run keeps a LISTEN connection up until the hub stops, reconnecting with
// a growing pause when it fails.
func (h *hub) run(ctx context.Context) {
	defer close(h.done)
	pause := 50 * time.Millisecond
	for {
		err := h.listen(ctx)
		if ctx.Err() != nil {
			return
		}
		slog.Warn("run notifications: listener failed, reconnecting", "err", err, "pause", pause)
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Second)
	}
}

// listen connects, listens on both channels, wakes every subscriber (they
// may have missed notifications) and dispatches until the connection fails.
func (h *hub) listen(ctx context.Context) error {
	conn, err := h.connect(ctx)
	if err != nil {
		return fmt.Errorf("connecting the run listener: %w", err)
	}
	defer conn.Close(context.Background())
	for _, ch := range []string{RunEventsChannel, RunCancelChannel} {
		if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{ch}.Sanitize()); err != nil {
			return fmt.Errorf("listening on %s: %w", ch, err)
		}
	}
	h.mu.Lock()
	select {
	case <-h.listening:
	default:
		close(h.listening)
	}
	for _, set := range h.subs {
		for sub := range set {
			sub.poke()
		}
	}
	h.mu.Unlock()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return fmt.Errorf("waiting for run notifications: %w", err)
		}
		runID, _, _ := strings.Cut(n.Payload, ":")
		h.mu.Lock()
		for sub := range h.subs[subKey{n.Channel, runID}] {
			sub.poke()
		}
		h.mu.Unlock()
	}
}

// subscribe registers for the notifications of one run on one channel and
// returns once the hub is listening, so that anything committed after it
// returns wakes the subscription. Call the returned func to unsubscribe.
func (h *hub) subscribe(ctx context.Context, channel, runID string) (*subscription, func(), error) {
	sub := &subscription{wake: make(chan struct{}, 1), stopped: h.done}
	key := subKey{channel, runID}
	h.mu.Lock()
	if h.subs[key] == nil {
		h.subs[key] = map[*subscription]struct{}{}
	}
	h.subs[key][sub] = struct{}{}
	h.mu.Unlock()
	unsubscribe := func() {
		h.mu.Lock()
		delete(h.subs[key], sub)
		if len(h.subs[key]) == 0 {
			delete(h.subs, key)
		}
		h.mu.Unlock()
	}
	select {
	case <-h.listening:
		return sub, unsubscribe, nil
	case <-h.done:
		unsubscribe()
		return nil, nil, errors.New("subscribing to run notifications: the store is closed")
	case <-ctx.Done():
		unsubscribe()
		return nil, nil, fmt.Errorf("subscribing to run notifications: %w", context.Cause(ctx))
	}
}
