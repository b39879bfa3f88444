package httpx

import (
	"crypto/sha256"
	"math"
	"sync"
	"time"

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
