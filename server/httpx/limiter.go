package httpx

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"
)

// Limiter is a token bucket per key (an API key, or a client address), in
// memory: each process limits the keys it sees. Buckets that are full again
// are dropped when the map grows past maxKeys, so unknown keys cannot grow
// it for ever.
type Limiter struct {
	rate  rate.Limit
	burst int
	mu    sync.Mutex
	keys  map[[32]byte]*rate.Limiter
}

const maxKeys = 10000

// NewLimiter allows each key perSecond requests on average and burst at
// once.
func NewLimiter(perSecond float64, burst int) *Limiter {
	return &Limiter{rate: rate.Limit(perSecond), burst: burst, keys: map[[32]byte]*rate.Limiter{}}
}

// Allow takes a token from key's bucket, or refuses with a 429 that says
// when to retry; message says what was refused.
func (l *Limiter) Allow(key, message string) error {
	if wait, ok := l.take(key); !ok {
		return TooMany(int(math.Ceil(wait.Seconds())), message)
	}
	return nil
}

// take takes a token from key's bucket, or says how long until one is
// there.
func (l *Limiter) take(key string) (time.Duration, bool) {
	h := sha256.Sum256([]byte(key))
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.keys[h]
	if b == nil {
		if len(l.keys) >= maxKeys {
			l.dropFull(now)
		}
		b = rate.NewLimiter(l.rate, l.burst)
		l.keys[h] = b
	}
	r := b.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d, false
	}
	return 0, true
}

// dropFull forgets the buckets that have refilled: forgetting them changes
// nothing.
func (l *Limiter) dropFull(now time.Time) {
	for h, b := range l.keys {
		if b.TokensAt(now) >= float64(l.burst) {
			delete(l.keys, h)
		}
	}
}

// StreamCap bounds the requests each user holds open at once (run
// streams, waits for a run's end, the browser's live streams), in this
// process's memory. One cap is shared by the API and the browser app, so
// that a user's streams of both count together.
type StreamCap struct {
	max  int
	mu   sync.Mutex
	open map[string]int
}

// NewStreamCap allows each user max open requests.
func NewStreamCap(max int) *StreamCap {
	return &StreamCap{max: max, open: map[string]int{}}
}

// Hold counts one more open request of the user, or refuses with a 429
// when they have max open already. Call release when the request ends.
func (s *StreamCap) Hold(userID string) (release func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open[userID] >= s.max {
		return nil, TooMany(1, fmt.Sprintf(
			"stream limit reached: a user may hold %d streams open at once, over all their API keys and browser sessions; close one, or retry later", s.max))
	}
	s.open[userID]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.open[userID]--; s.open[userID] == 0 {
			delete(s.open, userID)
		}
	}, nil
}

// Capped holds one of the request's user's open requests while next
// runs, or refuses it with a 429 when the user has the most open already.
// The request's tenant must be set: the route's authentication runs first.
func (s *StreamCap) Capped(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		t, ok := TenantOf(c)
		if !ok {
			return errors.New("capping a stream: the request has no user")
		}
		release, err := s.Hold(t.ID)
		if err != nil {
			return err
		}
		defer release()
		return next(c)
	}
}
