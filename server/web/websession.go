package web

import (
	"context"
	"crypto/subtle"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/locale"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/store/jsonb"
	"github.com/tripgraph/tripgraph/ui"
)

// Browser sessions. A session is a row in the database (so every serve
// process on it knows it) named by a random token that only the cookie
// carries; the row holds the token's hash, the user, the CSRF token forms
// send back and the expiry.
const (
	// SessionCookie carries a browser session's token.
	SessionCookie = "tripgraph_session"
	langCookie    = "lang"
	csrfField     = "csrf_token"
	csrfHeader    = "X-CSRF-Token"
	sessionKey    = "tripgraph.session"
)

// DefaultSessionTTL is how long a browser session lasts when
// TRIPGRAPH_SESSION_TTL is not set.
const DefaultSessionTTL = 7 * 24 * time.Hour

// loginLinkTTL is how long a one-time login link works.
const loginLinkTTL = 15 * time.Minute

// session reads the request's session, if its cookie names a live one.
func (s *App) session(c echo.Context) (accounts.Session, bool, error) {
	ck, err := c.Cookie(SessionCookie)
	if err != nil || ck.Value == "" {
		return accounts.Session{}, false, nil
	}
	sess, err := s.sessions.SessionByToken(httpx.Ctx(c), ck.Value)
	if errcode.Of(err) == errcode.Unauthenticated {
		return accounts.Session{}, false, nil
	}
	if err != nil {
		return accounts.Session{}, false, err
	}
	return sess, true, nil
}

// optionalSession puts the session's user in the context when there is
// one, and lets the request through either way.
func (s *App) optionalSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		sess, ok, err := s.session(c)
		if err != nil {
			return err
		}
		if ok {
			s.setSession(c, sess)
		}
		return next(c)
	}
}

// requireSession lets a request through with its session's user, as the
// API key middleware does with a key's.
func (s *App) requireSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		sess, ok, err := s.session(c)
		if err != nil {
			return err
		}
		if !ok {
			if c.Request().Method == http.MethodGet || c.Request().Method == http.MethodHead {
				return c.Redirect(http.StatusSeeOther, "/login?next="+url.QueryEscape(c.Request().URL.RequestURI()))
			}
			return errcode.New(errcode.Unauthenticated, "sign in first")
		}
		s.setSession(c, sess)
		return next(c)
	}
}

func (s *App) setSession(c echo.Context, sess accounts.Session) {
	httpx.SetTenant(c, s.tenants.For(sess.UserID))
	c.Set(sessionKey, sess)
}

// unsafe reports whether a method changes something.
func unsafe(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// checkCSRF refuses an unsafe request whose csrf_token field in the body
// (or X-CSRF-Token header) is not its session's token. A token in the URL
// is not read: it would leak into logs and Referer headers.
func (s *App) checkCSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !unsafe(c.Request().Method) {
			return next(c)
		}
		sent := c.Request().Header.Get(csrfHeader)
		if sent == "" {
			sent = c.Request().PostFormValue(csrfField) // the body only: a token in a URL leaks into logs and Referer
		}
		want := s.csrfToken(c)
		if want == "" || subtle.ConstantTimeCompare([]byte(sent), []byte(want)) != 1 {
			return errcode.New(errcode.Forbidden, "the form is out of date; reload the page and send it again")
		}
		return next(c)
	}
}

// checkForm refuses a form with a field PostgreSQL could not keep as text
// (jsonb.TextProblem: a NUL, bytes that are not UTF-8) as a 422 naming
// the field, answered as the form answers its own refusals, before any
// handler reads it: the one check of every form's fields, as
// httpx.DecodeFields is of every body's members.
func (s *App) checkForm(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !unsafe(c.Request().Method) {
			return next(c)
		}
		form, err := c.FormParams()
		if err != nil {
			return errcode.Wrap(errcode.BadRequest, err, "the form could not be read")
		}
		for _, name := range httpx.SortedKeys(form) {
			for _, v := range form[name] {
				if msg := jsonb.TextProblem(v); msg != "" {
					return s.refusal(c, httpx.InvalidField(name, msg))
				}
			}
		}
		return next(c)
	}
}

// crossOrigin refuses an unsafe request that a browser says comes from
// another origin (its Sec-Fetch-Site, else its Origin, against the Host),
// with Go's cross-origin protection: every page route has it, and it is
// all the public forms (login, signup, the language of a stranger) have,
// as they have no session to hold a CSRF token yet. An Origin of "null"
// (a sandboxed or privacy-sensitive context) is not this origin.
func crossOrigin() echo.MiddlewareFunc {
	protect := http.NewCrossOriginProtection()
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if err := protect.Check(c.Request()); err != nil {
				return errcode.New(errcode.Forbidden, "the form was sent from another site")
			}
			return next(c)
		}
	}
}

// csrfToken is the session's CSRF token, for the forms a page renders; ""
// without a session.
func (s *App) csrfToken(c echo.Context) string {
	sess, _ := c.Get(sessionKey).(accounts.Session)
	return sess.CSRFToken
}

// pageContext is the request's context for rendering: the interface
// language (the lang cookie the switch sets, else the browser's
// Accept-Language) and, on a thread's routes, the actions its forms post
// to, with the CSRF token.
func (s *App) pageContext(c echo.Context) context.Context {
	cx := ui.WithMediaLinks(ui.WithLanguage(httpx.Ctx(c), pageLanguage(c.Request())), sessionMediaLink)
	if id := c.Param("thread_id"); id != "" && signedIn(c) {
		cx = ui.WithActions(cx, threadActions(id, s.csrfToken(c)))
	}
	return cx
}

// sessionMediaLink makes a photo or picture link that the tools gave (an
// absolute URL on the public address; a photo's signed, until it expires)
// a path on this site, which the browser's session opens: the media
// routes let a session see its own user's photos. Other links are kept.
func sessionMediaLink(link string) string {
	u, err := url.Parse(link)
	if err != nil {
		return link
	}
	switch {
	case strings.HasPrefix(u.Path, "/media/photos/"):
		if u.Query().Get("size") == "thumb" {
			return u.EscapedPath() + "?size=thumb"
		}
		return u.EscapedPath()
	case strings.HasPrefix(u.Path, "/media/pictures/"):
		return u.EscapedPath()
	}
	return link
}

// pageErrors answers a page's error with an HTML page that has the
// error's status and says what to do next. An internal error is logged
// once and shows nothing of itself.
func (s *App) pageErrors(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		if err == nil || c.Response().Committed {
			return err
		}
		status, body, retryAfter := httpx.Describe(err)
		if status == http.StatusInternalServerError {
			httpx.Logger(c, s.log).ErrorContext(httpx.Ctx(c), "internal error", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
		}
		if retryAfter > 0 {
			c.Response().Header().Set("Retry-After", strconv.Itoa(retryAfter))
		}
		return render(c, s.pageContext(c), status, ui.Problem(ui.ErrorPage{AssetsURL: assetsURL, Code: body.Error, Fields: refusedFields(body.Fields), HomeURL: "/app"}))
	}
}

// pageLanguage is the language a request's pages are in.
func pageLanguage(r *http.Request) string {
	if ck, err := r.Cookie(langCookie); err == nil && locale.Known(ck.Value) {
		return ck.Value
	}
	return locale.FromAcceptLanguage(r.Header.Get("Accept-Language"))
}

// ThreadURL is a thread's page; threadActions the URLs its forms post to.
func ThreadURL(id string) string { return "/app/threads/" + url.PathEscape(id) }

func threadActions(id, csrf string) ui.Actions {
	base := ThreadURL(id)
	return ui.Actions{BookURL: base + "/book", BookingURL: base + "/booking", TripURL: base + "/trip", CSRFToken: csrf,
		Today: today()}
}

// today is the UTC midnight the planner counts a stay's days from (see
// nodes.TripDetails.Fault).
func today() time.Time { return time.Now().UTC().Truncate(24 * time.Hour) }

// secure reports whether the browser reached us over TLS, directly or
// through a proxy that says so.
func secure(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// startSession opens a session for a user and sets its cookie; keyID is
// the API key it was opened with, whose revocation ends it ("" for none).
func (s *App) startSession(c echo.Context, userID, keyID string) error {
	sess, err := s.sessions.CreateSession(httpx.Ctx(c), userID, keyID, s.sessionTTL)
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: SessionCookie, Value: sess.Token, Path: "/", Expires: sess.ExpiresAt,
		MaxAge: int(time.Until(sess.ExpiresAt).Seconds()), HttpOnly: true, Secure: secure(c.Request()),
		SameSite: http.SameSiteLaxMode})
	s.setSession(c, sess)
	return nil
}

// clearSession deletes the request's session and its cookie.
func (s *App) clearSession(c echo.Context) error {
	if ck, err := c.Cookie(SessionCookie); err == nil && ck.Value != "" {
		if err := s.sessions.DeleteSession(httpx.Ctx(c), ck.Value); err != nil {
			return err
		}
	}
	c.SetCookie(&http.Cookie{Name: SessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		Secure: secure(c.Request()), SameSite: http.SameSiteLaxMode})
	return nil
}

// localPath is next when it is a path on this site, else fallback: a
// login must never send the browser elsewhere.
func localPath(next, fallback string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") {
		return fallback
	}
	u, err := url.Parse(next)
	if err != nil || u.Host != "" || u.Scheme != "" {
		return fallback
	}
	return next
}

// SessionUser is the user of the browser session a request's cookie
// names, or "" without one: the media routes let a session see its
// user's photos with it.
func (s *App) SessionUser(r *http.Request) (string, error) {
	ck, err := r.Cookie(SessionCookie)
	if err != nil || ck.Value == "" {
		return "", nil
	}
	sess, err := s.sessions.SessionByToken(r.Context(), ck.Value)
	if errcode.Of(err) == errcode.Unauthenticated {
		return "", nil
	}
	return sess.UserID, err
}

// LoginLink makes a one-time link that opens a browser session for the
// user, for `serve --welcome` to print; base is the server's public URL.
func (s *App) LoginLink(ctx context.Context, base, userID string) (string, error) {
	token, err := s.sessions.CreateLoginLink(ctx, userID, loginLinkTTL)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(base, "/") + "/login/link/" + url.PathEscape(token), nil
}
