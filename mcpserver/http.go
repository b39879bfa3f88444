package mcpserver

import (
	"cmp"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
)

// Defaults of HTTPOptions.
const (
	DefaultSessionTimeout      = 30 * time.Minute
	DefaultMaxSessions         = 1000
	DefaultMaxBatch            = 20
	DefaultMaxBatchResultBytes = 4 << 20
	DefaultMaxBodyBytes        = 4 << 20
	DefaultBodyTimeout         = 10 * time.Second
)

// HTTPOptions configures NewHTTPHandler. Zero limits take their defaults.
type HTTPOptions struct {
	// Authenticate returns the id of the user a bearer credential belongs
	// to. Nil turns authentication off: every call then acts as the
	// server's Config.User, which the caller allows only on loopback.
	Authenticate func(ctx context.Context, bearer string) (userID string, err error)
	// AllowedOrigins are the browser origins allowed besides loopback
	// ones ("http://localhost:5173"); "*" allows any.
	AllowedOrigins []string
	// SessionTimeout closes sessions idle for longer.
	SessionTimeout time.Duration
	// MaxSessions caps the live sessions. A new session past the cap
	// closes the one idle for longest; when every session is busy, it is
	// refused with 503.
	MaxSessions int
	// MaxBatch caps the messages of one JSON-RPC batch.
	MaxBatch int
	// MaxBatchResultBytes caps the work of one batch: once its results
	// add up to this many bytes, its remaining calls are refused.
	MaxBatchResultBytes int64
	// MaxBodyBytes caps a request body.
	MaxBodyBytes int64
	// BodyTimeout is how long a request body may take to arrive. It
	// bounds reading the body only, never a streamed response.
	BodyTimeout time.Duration
	Logger      *slog.Logger
}

func (o *HTTPOptions) defaults() {
	o.SessionTimeout = cmp.Or(o.SessionTimeout, DefaultSessionTimeout)
	o.MaxSessions = cmp.Or(o.MaxSessions, DefaultMaxSessions)
	o.MaxBatch = cmp.Or(o.MaxBatch, DefaultMaxBatch)
	o.MaxBatchResultBytes = cmp.Or(o.MaxBatchResultBytes, DefaultMaxBatchResultBytes)
	o.MaxBodyBytes = cmp.Or(o.MaxBodyBytes, DefaultMaxBodyBytes)
	o.BodyTimeout = cmp.Or(o.BodyTimeout, DefaultBodyTimeout)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// NewHTTPHandler serves srv over Streamable HTTP, to mount on /mcp. Around
// the SDK's handler, which keeps its DNS-rebinding protection, it gives
// every request an id (X-Request-Id), checks the Origin header, answers
// CORS preflights, requires a bearer credential (401 with
// WWW-Authenticate without one), reads the body within BodyTimeout,
// checks it (size, batch size, methods, session), caps the live sessions,
// and answers every protocol error as JSON-RPC.
func NewHTTPHandler(srv *mcp.Server, opts HTTPOptions) http.Handler {
	opts.defaults()
	budgets := &batchBudgets{}
	srv.AddReceivingMiddleware(budgets.middleware)
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{SessionTimeout: opts.SessionTimeout, Logger: opts.Logger, MaxRequestBodyBytes: opts.MaxBodyBytes})
	h = &sessionCap{srv: srv, max: opts.MaxSessions, live: map[string]*sessionUse{}, next: h}
	h = checkBody(opts, budgets, h)
	if opts.Authenticate != nil {
		h = requireBearer(opts.Authenticate, opts.Logger, h)
	}
	return assignRequestID(jsonRPCErrors(cors(opts.AllowedOrigins, h)))
}

// assignRequestID gives every request a fresh id, in the X-Request-Id
// headers of the request (where the tools read it) and of the response. A
// client's own X-Request-Id is replaced.
func assignRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := newRequestID()
		r.Header.Set(requestIDHeader, id)
		w.Header().Set(requestIDHeader, id)
		next.ServeHTTP(w, r)
	})
}

// cors refuses requests from origins that are not allowed, answers
// preflights with 200 and adds the CORS headers of allowed origins.
func cors(allowed []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" {
			if !originAllowed(origin, allowed) {
				writeHTTPError(w, http.StatusForbidden, errcode.New(errcode.Forbidden, "origin %q is not allowed", origin))
				return
			}
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
			h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "Content-Type, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID")
			h.Set("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate")
		}
		if r.Method == http.MethodOptions {
			w.WriteHeader(http.StatusOK)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// originAllowed reports whether a browser origin may call: a loopback
// origin always, others when listed.
func originAllowed(origin string, allowed []string) bool {
	if slices.Contains(allowed, "*") || slices.Contains(allowed, origin) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return IsLoopbackHost(u.Hostname())
}

// IsLoopbackHost reports whether host (no port) is a loopback name or
// address.
func IsLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// IsLoopbackAddr reports whether a listening address (host:port) accepts
// connections only from this machine. ":8080" listens everywhere.
func IsLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	return err == nil && host != "" && IsLoopbackHost(host)
}

// requireBearer lets through requests whose bearer credential
// authenticate accepts, with the user in the SDK's TokenInfo, and answers
// the others 401 with a WWW-Authenticate challenge. When the check itself
// fails (the database is down), the client gets a generic 503 and the
// cause is logged with the request id.
func requireBearer(authenticate func(context.Context, string) (string, error), log *slog.Logger, next http.Handler) http.Handler {
	// The SDK's middleware puts the TokenInfo where its handler reads it;
	// the user was found already.
	verify := func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{UserID: ctx.Value(userKey{}).(string)}, nil
	}
	pass := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := bearerToken(r)
		if !ok {
			unauthorized(w, errcode.New(errcode.Unauthenticated, "a bearer credential is required: an API key or a token"))
			return
		}
		user, err := authenticate(r.Context(), token)
		switch code := errcode.Of(err); {
		case err == nil:
			pass.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), userKey{}, user)))
		case code == errcode.Internal || code == errcode.Unavailable:
			id := r.Header.Get(requestIDHeader)
			log.Error("checking a bearer credential failed", "request_id", id, "err", err)
			writeHTTPError(w, http.StatusServiceUnavailable,
				errcode.New(errcode.Unavailable, "credentials cannot be checked right now; try again later (request id %s)", id))
		default: // refused: the answer is 401, and its code says so
			unauthorized(w, errcode.New(errcode.Unauthenticated, "%s", errcode.Message(err)))
		}
	})
}

type userKey struct{}

func bearerToken(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	return token, ok && strings.EqualFold(scheme, "bearer") && token != ""
}

func unauthorized(w http.ResponseWriter, err error) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="tripgraph-mcp"`)
	writeHTTPError(w, http.StatusUnauthorized, err)
}

func writeHTTPError(w http.ResponseWriter, status int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var body errorBody
	body.Error.Code, body.Error.Message = errcode.Of(err), errcode.Message(err)
	json.NewEncoder(w).Encode(body)
}
