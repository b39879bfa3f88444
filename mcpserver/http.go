package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
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

// DefaultSessionTimeout closes MCP sessions idle for longer.
const DefaultSessionTimeout = 30 * time.Minute

// HTTPOptions configures NewHTTPHandler.
type HTTPOptions struct {
	// Authenticate returns the id of the user a bearer credential belongs
	// to. Nil turns authentication off: every call then acts as the
	// server's Config.User, which the caller allows only on loopback.
	Authenticate func(ctx context.Context, bearer string) (userID string, err error)
	// AllowedOrigins are the browser origins allowed besides loopback
	// ones ("http://localhost:5173"); "*" allows any.
	AllowedOrigins []string
	// SessionTimeout closes idle sessions; zero means DefaultSessionTimeout.
	SessionTimeout time.Duration
	Logger         *slog.Logger
}

// NewHTTPHandler serves srv over Streamable HTTP, to mount on /mcp. Around
// the SDK's handler, which keeps its DNS-rebinding protection, it checks
// the Origin header, answers CORS preflights and requires a bearer
// credential (401 with WWW-Authenticate without one).
func NewHTTPHandler(srv *mcp.Server, opts HTTPOptions) http.Handler {
	if opts.SessionTimeout == 0 {
		opts.SessionTimeout = DefaultSessionTimeout
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{SessionTimeout: opts.SessionTimeout, Logger: opts.Logger})
	if opts.Authenticate != nil {
		h = requireBearer(opts.Authenticate, h)
	}
	return cors(opts.AllowedOrigins, h)
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
// the others 401 with a WWW-Authenticate challenge.
func requireBearer(authenticate func(context.Context, string) (string, error), next http.Handler) http.Handler {
	verify := func(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		user, err := authenticate(ctx, token)
		switch {
		case err == nil:
			return &auth.TokenInfo{UserID: user}, nil
		case errcode.Of(err) == errcode.Internal:
			return nil, fmt.Errorf("checking a bearer credential: %w", err)
		}
		return nil, fmt.Errorf("%w: %s", auth.ErrInvalidToken, errcode.Message(err))
	}
	// The SDK's middleware adds WWW-Authenticate only with OAuth metadata,
	// so the challenge is set up front and dropped once the request passes.
	passed := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Del("WWW-Authenticate")
		next.ServeHTTP(w, r)
	})
	guarded := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(passed)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="tripgraph-mcp"`)
		guarded.ServeHTTP(w, r)
	})
}

func writeHTTPError(w http.ResponseWriter, status int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var body errorBody
	body.Error.Code, body.Error.Message = errcode.Of(err), errcode.Message(err)
	json.NewEncoder(w).Encode(body)
}
