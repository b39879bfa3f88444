package server

import (
	"crypto/sha256"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"github.com/tripgraph/tripgraph/errcode"
)

// userKey holds the authenticated user's id in the echo context.
const userKey = "tripgraph.user"

// owner is the id of the user a request acts for.
func owner(c echo.Context) string {
	id, _ := c.Get(userKey).(string)
	return id
}

// apiKey is the key a request carries in x-api-key or as a bearer token.
func apiKey(r *http.Request) string {
	if k := r.Header.Get("X-Api-Key"); k != "" {
		return k
	}
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimSpace(token)
	}
	return ""
}

// authenticate lets a request through with the user its API key belongs
// to. The key's rate limit is checked first, so that a flood of guesses at
// one key costs no database work.
func (s *Server) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		key := apiKey(c.Request())
		if key == "" {
			return errcode.New(errcode.Unauthenticated, "send an API key in x-api-key or Authorization: Bearer")
		}
		if wait, ok := s.limiter.allow(key); !ok {
			return &statusError{status: http.StatusTooManyRequests, retryAfter: int(math.Ceil(wait.Seconds())),
				err: errcode.New(errcode.Unavailable, "too many requests with this API key; retry later")}
		}
		u, err := s.store.UserByAPIKey(c.Request().Context(), key)
		if errcode.Of(err) == errcode.Forbidden {
			return errcode.New(errcode.Unauthenticated, "the API key is not valid")
		}
		if err != nil {
			return err
		}
		c.Set(userKey, u.ID)
		return next(c)
	}
}

// limiter is a token bucket per API key, in memory: each process limits
// the keys it sees. Buckets that are full again are dropped when the map
// grows past maxKeys, so unknown keys cannot grow it for ever.
type limiter struct {
	rate  rate.Limit
	burst int
	mu    sync.Mutex
	keys  map[[32]byte]*rate.Limiter
}

const maxKeys = 10000

func newLimiter(perSecond float64, burst int) *limiter {
	return &limiter{rate: rate.Limit(perSecond), burst: burst, keys: map[[32]byte]*rate.Limiter{}}
}

// allow takes a token from key's bucket, or says how long until one is
// there.
func (l *limiter) allow(key string) (time.Duration, bool) {
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
func (l *limiter) dropFull(now time.Time) {
	for h, b := range l.keys {
		if b.TokensAt(now) >= float64(l.burst) {
			delete(l.keys, h)
		}
	}
}
