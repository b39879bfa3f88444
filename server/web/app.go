// Package web is tripgraph's browser app: sign-in and sessions, CSRF
// protection, the chat pages and the timeline, the forms that start runs,
// and each run's live stream as HTML fragments rendered by ui. A signed-in
// browser acts through its session's tenant, as an API key does.
package web

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/metrics"
	"github.com/tripgraph/tripgraph/server/runner"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/ui"
)

// Sessions is what the app needs of the accounts: browser sessions and
// login links, and the users and keys of sign-in and sign-up.
type Sessions interface {
	CreateSession(ctx context.Context, userID, keyID string, ttl time.Duration) (accounts.Session, error)
	SessionByToken(ctx context.Context, token string) (accounts.Session, error)
	DeleteSession(ctx context.Context, token string) error
	CreateLoginLink(ctx context.Context, userID string, ttl time.Duration) (string, error)
	UseLoginLink(ctx context.Context, token string) (string, error)
	UserByAPIKey(ctx context.Context, key string) (accounts.User, accounts.Key, error)
	CreateUser(ctx context.Context, name string) (accounts.User, error)
	CreateAPIKey(ctx context.Context, n accounts.NewKey) (string, accounts.Key, error)
}

// Config is what the app needs.
type Config struct {
	Sessions Sessions
	Tenants  tenant.Factory
	Runner   *runner.Runner
	Closing  *httpx.Closing // ends live streams when the server shuts down
	Metrics  *metrics.Metrics
	Limits   httpx.Limits
	// Streams bound each user's open live streams, shared with the API's
	// streams and waits.
	Streams *httpx.StreamCap
	Logger  *slog.Logger
	// SessionTTL is how long a browser session lasts; DefaultSessionTTL
	// when 0.
	SessionTTL time.Duration
}

// App is the browser app's handlers.
type App struct {
	sessions   Sessions
	tenants    tenant.Factory
	runner     *runner.Runner
	closing    *httpx.Closing
	metrics    *metrics.Metrics
	limits     httpx.Limits
	streams    *httpx.StreamCap // each user's open streams, the API's with the app's
	attempts   *httpx.Limiter   // sign-ins and sign-ups, per client address and per key
	log        *slog.Logger
	sessionTTL time.Duration
}

// New builds the app.
func New(cfg Config) *App {
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = DefaultSessionTTL
	}
	return &App{sessions: cfg.Sessions, tenants: cfg.Tenants, runner: cfg.Runner, closing: cfg.Closing,
		metrics: cfg.Metrics, limits: cfg.Limits, streams: cfg.Streams, log: cfg.Logger, sessionTTL: cfg.SessionTTL,
		attempts: httpx.NewLimiter(AttemptsPerSecond, AttemptsBurst)}
}

// Routes are the app's routes: HTML pages, rendered by ui, the forms they
// post, the live streams and the static assets. Each is bounded like the
// API's routes and refuses unsafe requests from another origin; a public
// one takes a session when there is one, any other needs one (without it
// a GET goes to the login page and anything else is a 401) and its unsafe
// requests must carry the session's CSRF token. Every form's fields must
// be text PostgreSQL can keep (checkForm).
func (s *App) Routes() []httpx.Route {
	routes := []httpx.Route{
		{Method: http.MethodGet, Path: "/", Handler: s.home, Public: true},
		{Method: http.MethodGet, Path: "/login", Handler: s.loginPage, Public: true},
		{Method: http.MethodPost, Path: "/login", Handler: s.login, Public: true},
		{Method: http.MethodPost, Path: "/signup", Handler: s.signup, Public: true},
		{Method: http.MethodGet, Path: "/login/link/:token", Handler: s.loginLink, Public: true},
		{Method: http.MethodPost, Path: "/app/lang", Handler: s.switchLanguage, Public: true},
		{Method: http.MethodPost, Path: "/logout", Handler: s.logout},
		{Method: http.MethodGet, Path: "/app", Handler: s.chatPage},
		{Method: http.MethodGet, Path: "/app/threads/:thread_id", Handler: s.threadPage},
		{Method: http.MethodGet, Path: "/app/threads/:thread_id/timeline", Handler: s.timelinePage},
		{Method: http.MethodPost, Path: "/app/threads/:thread_id/fork", Handler: s.fork},
		{Method: http.MethodPost, Path: "/app/messages", Handler: s.pageForm(s.sendMessage)},
		{Method: http.MethodPost, Path: "/app/threads/:thread_id/messages", Handler: s.pageForm(s.sendMessage)},
		{Method: http.MethodPost, Path: "/app/threads/:thread_id/book", Handler: s.pageForm(s.book)},
		{Method: http.MethodPost, Path: "/app/threads/:thread_id/booking", Handler: s.pageForm(s.answerBooking)},
		{Method: http.MethodPost, Path: "/app/threads/:thread_id/trip", Handler: s.pageForm(s.editTrip)},
		{Method: http.MethodGet, Path: "/app/threads/:thread_id/runs/:run_id/live", Handler: s.live, Long: true},
		{Method: http.MethodGet, Path: profileURL, Handler: s.profilePage},
		{Method: http.MethodPost, Path: profileURL, Handler: s.saveProfile},
		{Method: http.MethodPost, Path: profileURL + "/forget", Handler: s.forgetProfile},
		{Method: http.MethodGet, Path: assetsURL + "/*", Handler: echo.WrapHandler(http.StripPrefix(assetsURL, http.FileServerFS(ui.Assets()))), Public: true},
	}
	sameOrigin := crossOrigin()
	for i, r := range routes {
		mw := []echo.MiddlewareFunc{httpx.Bounded(s.limits, r.Long), s.pageErrors, httpx.Text, sameOrigin}
		if r.Public {
			mw = append(mw, s.optionalSession)
		} else {
			mw = append(mw, s.requireSession, s.checkCSRF)
		}
		if r.Long && !r.Public {
			mw = append(mw, s.streams.Capped)
		}
		routes[i].Middleware = append(mw, s.checkForm)
	}
	return routes
}

// tenantOf is the request's tenant: the session middleware has put it
// there.
func tenantOf(c echo.Context) tenant.Tenant {
	t, _ := httpx.TenantOf(c)
	return t
}

// signedIn reports whether a request has a session, whose tenant it acts
// as.
func signedIn(c echo.Context) bool {
	_, ok := httpx.TenantOf(c)
	return ok
}
