package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgxlisten"
)

// hub is a process's one LISTEN connection for the store's channels
// (RunEventsChannel, RunCancelChannel, RunQueueChannel and
// MCPServersChannel), kept up by
// pgxlisten, which reconnects it when it fails. It fans run notifications
// out to the subscribers of each run, so a thousand followers cost one
// connection, not a thousand, and server changes to the watchers. A
// subscriber is only woken: it reads what changed from the tables, so a
// notification lost while the connection was down costs nothing, as
// everyone is woken when it comes back.
type hub struct {
	stop context.CancelFunc
	done chan struct{}
	own  func(pid uint32) bool // whether a notification's sender is this process's notifier

	mu        sync.Mutex
	subs      map[subKey]map[*subscription]struct{}
	listening map[string]chan struct{} // by channel: closed once its first LISTEN is in place
	watchers  []func(userID string)    // told of MCPServersChannel's notifications
	// kept are the subscriptions made as runs were created claimed by a
	// worker of this process, for their first follower and their worker's
	// cancel watch here, by channel and run (see keep); keptOrder the
	// same, oldest first, adopted ones included.
	kept      map[subKey]*keptSub
	keptOrder []*keptSub
}

// MCPServersChannel is where every change to a user's MCP servers is
// announced, with the user's id (a trigger on mcp_servers sends it).
const MCPServersChannel = "mcp_servers"

// RunQueueChannel is where a run that becomes pending is announced, with
// no payload, once the transaction that made it so has committed. Every
// announcement on it wakes a worker, whatever its payload: a later
// release may say more in it, and this one's workers still hear it.
const RunQueueChannel = "run_queue"

// hubChannels are the channels the hub listens on.
var hubChannels = []string{RunEventsChannel, RunCancelChannel, RunQueueChannel, MCPServersChannel}

// reconnectDelay is how long the hub waits before reconnecting a failed
// listener.
const reconnectDelay = 250 * time.Millisecond

type subKey struct{ channel, runID string }

// subscription is woken, through a channel of one slot, whenever something
// may have changed for its run. Wakes coalesce. A subscription to
// RunEventsChannel also keeps, until its follower takes them, the events
// this process appended to the run (publish) and the newest seq the
// notifications announced, so that its follower reads the table only for
// what it has not been handed.
type subscription struct {
	wake    chan struct{}
	stopped <-chan struct{} // closed when the hub stops for good

	mu        sync.Mutex
	local     []RunEvent // appended and committed by this process, in order
	announced int64      // the newest seq a notification announced
	ended     bool       // a notification announced the run's end
	mustRead  bool       // a notification only a read explains: some may have been missed, or the run ended without naming its last event
}

// news is what a subscription gathered since its follower last took it.
type news struct {
	local     []RunEvent
	announced int64 // with ended, the seq of the run's last event
	ended     bool
	mustRead  bool
}

// take returns what the subscription gathered, and clears it.
func (s *subscription) take() news {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := news{local: s.local, announced: s.announced, ended: s.ended, mustRead: s.mustRead}
	s.local, s.mustRead = nil, false
	return n
}

// noted records a notification's payload after the run's id: the seq of
// the newest event appended; the run's end with the seq of its last event;
// or else something only a read explains (such as resumed, another
// attempt of the run).
func (s *subscription) noted(rest string) {
	s.mu.Lock()
	if seq, err := strconv.ParseInt(rest, 10, 64); err == nil {
		s.announced = max(s.announced, seq)
	} else if _, last, ok := strings.Cut(rest, ":"); ok {
		seq, err := strconv.ParseInt(last, 10, 64)
		s.announced, s.ended = max(s.announced, seq), true
		s.mustRead = s.mustRead || err != nil
	} else {
		s.mustRead = true
	}
	s.mu.Unlock()
	s.poke()
}

// wait blocks until the subscription is woken (nil), or the hub stops or
// ctx ends (an error).
func (s *subscription) wait(ctx context.Context) error {
	_, err := s.waitUntil(ctx, nil)
	return err
}

// waitAtMost is wait for at most d: woken is false when d passed first.
func (s *subscription) waitAtMost(ctx context.Context, d time.Duration) (woken bool, err error) {
	t := time.NewTimer(d)
	defer t.Stop()
	return s.waitUntil(ctx, t.C)
}

// waitUntil is wait until timeout fires, if it does first (woken false).
func (s *subscription) waitUntil(ctx context.Context, timeout <-chan time.Time) (woken bool, err error) {
	select {
	case <-s.wake:
		return true, nil
	case <-timeout:
		return false, nil
	case <-s.stopped:
		return false, errors.New("waiting for run notifications: the store is closed")
	case <-ctx.Done():
		return false, context.Cause(ctx)
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
		}, s.ownNote)
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

func startHub(connect func(context.Context) (*pgx.Conn, error), own func(pid uint32) bool) *hub {
	ctx, stop := context.WithCancel(context.Background())
	h := &hub{stop: stop, done: make(chan struct{}), own: own, subs: map[subKey]map[*subscription]struct{}{},
		listening: map[string]chan struct{}{}, kept: map[subKey]*keptSub{}}
	l := &pgxlisten.Listener{Connect: connect, ReconnectDelay: reconnectDelay,
		LogError: func(ctx context.Context, err error) {
			if ctx.Err() == nil { // not the hub stopping
				slog.Warn("run notifications: listener failed, reconnecting", "err", err, "pause", reconnectDelay)
			}
		}}
	for _, ch := range hubChannels {
		h.listening[ch] = make(chan struct{})
		l.Handle(ch, h)
	}
	go func() {
		defer close(h.done)
		l.Listen(ctx)
	}()
	return h
}

// HandleNotification wakes the subscribers of the notification's run (its
// payload starts with the run's id), or tells the watchers whose servers
// changed. It skips what this process's notifier sent: the store
// delivered that here already.
func (h *hub) HandleNotification(_ context.Context, n *pgconn.Notification, _ *pgx.Conn) error {
	if h.own(n.PID) {
		return nil
	}
	h.deliver(n.Channel, n.Payload)
	return nil
}

// deliver hands a notification on a channel to those it concerns.
func (h *hub) deliver(channel, payload string) {
	if channel == MCPServersChannel {
		h.tellWatchers(payload)
		return
	}
	if payload == everyone {
		h.wakeAll(channel)
		return
	}
	runID, rest, _ := strings.Cut(payload, ":")
	if channel == RunQueueChannel {
		runID = "" // the queue's watchers hear every announcement on it, whatever it says
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for sub := range h.subs[subKey{channel, runID}] {
		if channel == RunEventsChannel {
			sub.noted(rest)
		} else {
			sub.poke()
		}
	}
	if channel == RunCancelChannel && rest != "" { // the run's thread: for the watches made before the run was
		for sub := range h.subs[subKey{channel, threadKey(rest)}] {
			sub.poke()
		}
	}
}

// threadKey is the key of the subscriptions to the cancel requests of any
// run of a thread (a run's key is its id).
func threadKey(threadID string) string { return "thread " + threadID }

// publish hands events this process appended to a run, in a transaction
// that has committed, to the run's followers in this process.
func (h *hub) publish(events []RunEvent) {
	if len(events) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for sub := range h.subs[subKey{RunEventsChannel, events[0].RunID}] {
		sub.mu.Lock()
		sub.local = append(sub.local, events...)
		sub.mu.Unlock()
		sub.poke()
	}
}

// HandleBacklog runs once the channel is listened on, after each
// (re)connection: it wakes every subscriber of the channel, who may have
// missed notifications, tells the watchers that any user's servers may
// have changed, and lets the first subscriptions return.
func (h *hub) HandleBacklog(_ context.Context, channel string, _ *pgx.Conn) error {
	if channel == MCPServersChannel {
		h.tellWatchers("")
	}
	h.mu.Lock()
	select {
	case <-h.listening[channel]:
	default:
		close(h.listening[channel])
	}
	h.mu.Unlock()
	h.wakeAll(channel)
	return nil
}

// wakeAll wakes every subscriber of a channel to read what it follows
// again, as notifications may have been missed.
func (h *hub) wakeAll(channel string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for key, set := range h.subs {
		if key.channel == channel {
			for sub := range set {
				sub.mu.Lock()
				sub.mustRead = true
				sub.mu.Unlock()
				sub.poke()
			}
		}
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
	case <-h.listening[channel]:
		return sub, unsubscribe, nil
	case <-h.done:
		unsubscribe()
		return nil, nil, errors.New("subscribing to run notifications: the store is closed")
	case <-ctx.Done():
		unsubscribe()
		return nil, nil, fmt.Errorf("subscribing to run notifications: %w", context.Cause(ctx))
	}
}

// keptSub is a subscription to a run's events kept for its first
// follower in this process, or to its cancel requests for its worker's
// watch.
type keptSub struct {
	key         subKey
	owner       string
	at          time.Time
	sub         *subscription // nil once adopted
	unsubscribe func()
}

// keptFor is how long a subscription kept for a run's first follower
// waits for it before it is dropped (the follower then reads the table,
// as any does): a request that streams its run follows it at once, and a
// browser's stream of the run it posted comes a page load later; a run
// nobody follows is not to hold its events in memory.
const keptFor = 2 * time.Second

// keep subscribes to the events of a run of owner's that this process
// has just created claimed by one of its own workers, before that worker
// is handed it, and keeps the subscription for the run's first follower
// here (adopt). Nothing of the run can be written before the subscription
// (no worker has it yet, and no other process can claim it while its
// lease holds), so the subscription is handed, or told of, everything the
// run's stream will hold, as a follower's first read and subscription
// together are: that follower need not read the table first. It drops
// the subscriptions kept longer than keptFor. When it cannot subscribe it
// keeps nothing, and the follower reads.
func (h *hub) keep(ctx context.Context, owner, runID string) {
	if sub, unsubscribe, err := h.subscribe(ctx, RunEventsChannel, runID); err == nil {
		h.keepSub(subKey{RunEventsChannel, runID}, owner, sub, unsubscribe)
	}
}

// keepSub keeps sub, under key, for adopt, and drops the subscriptions
// kept longer than keptFor.
func (h *hub) keepSub(key subKey, owner string, sub *subscription, unsubscribe func()) {
	now := time.Now()
	k := &keptSub{key: key, owner: owner, at: now, sub: sub, unsubscribe: unsubscribe}
	var stale []func()
	h.mu.Lock()
	h.kept[key] = k
	h.keptOrder = append(h.keptOrder, k)
	for len(h.keptOrder) > 0 && now.Sub(h.keptOrder[0].at) > keptFor {
		old := h.keptOrder[0]
		h.keptOrder[0], h.keptOrder = nil, h.keptOrder[1:]
		if old.sub != nil {
			delete(h.kept, old.key)
			stale = append(stale, old.unsubscribe)
		}
	}
	h.mu.Unlock()
	for _, unsubscribe := range stale {
		unsubscribe()
	}
}

// adopt hands over the subscription kept on a channel for owner's run
// runID, if any (see keep): ok is false when none is kept, for another
// owner, or no more.
func (h *hub) adopt(channel, owner, runID string) (sub *subscription, unsubscribe func(), ok bool) {
	key := subKey{channel, runID}
	h.mu.Lock()
	defer h.mu.Unlock()
	k := h.kept[key]
	if k == nil || k.owner != owner {
		return nil, nil, false
	}
	delete(h.kept, key)
	sub, unsubscribe = k.sub, k.unsubscribe
	k.sub, k.unsubscribe = nil, nil
	return sub, unsubscribe, true
}

// tellWatchers tells every watcher that userID's servers changed ("" for
// any user's).
func (h *hub) tellWatchers(userID string) {
	h.mu.Lock()
	watchers := slices.Clone(h.watchers)
	h.mu.Unlock()
	for _, w := range watchers {
		w(userID)
	}
}

// WatchMCPServers calls changed, from the store's listener, whenever a
// user's MCP servers change in any process sharing the database, with the
// user's id; "" when notifications may have been missed (the listener
// reconnected) and any user's may have changed. It returns once the
// listener is in place, so that every change committed after it is seen.
func (s *Store) WatchMCPServers(ctx context.Context, changed func(userID string)) error {
	h := s.runHub()
	h.mu.Lock()
	h.watchers = append(h.watchers, changed)
	h.mu.Unlock()
	select {
	case <-h.listening[MCPServersChannel]:
		return nil
	case <-h.done:
		return errors.New("watching MCP servers: the store is closed")
	case <-ctx.Done():
		return fmt.Errorf("watching MCP servers: %w", context.Cause(ctx))
	}
}

// WatchQueue returns a channel that receives, from the store's listener,
// when a run may have become pending in any process sharing the database:
// after each announcement, and after the listener reconnected, as some
// may have been missed. Wakes coalesce. It returns once the listener is
// in place. Call stop when done watching.
func (s *Store) WatchQueue(ctx context.Context) (pending <-chan struct{}, stop func(), err error) {
	sub, unsubscribe, err := s.runHub().subscribe(ctx, RunQueueChannel, "")
	if err != nil {
		return nil, nil, fmt.Errorf("watching the run queue: %w", err)
	}
	return sub.wake, unsubscribe, nil
}
