package web

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/locale"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/replay"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/runner"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/ui"
)

// assetsURL is where ui.Assets() is served.
const assetsURL = "/static"

// PagePolicy is the Content-Security-Policy of every page: scripts,
// styles, images, streams and form posts from this origin only, nothing
// inline, no plugins, no framing. htmx runs under it (its indicator
// styles are turned off in the page's htmx-config, as they are inline).
const PagePolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// render writes a page with status. Pages are never cached (they hold a
// CSRF token), never framed by another site, run only this site's scripts
// (PagePolicy), and send no address beyond this one in Referer.
func render(c echo.Context, cx context.Context, status int, page templ.Component) error {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", PagePolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	c.Response().WriteHeader(status)
	return page.Render(cx, c.Response())
}

// home sends a signed-in browser to its conversations, any other to the
// login page.
func (s *App) home(c echo.Context) error {
	if signedIn(c) {
		return c.Redirect(http.StatusSeeOther, "/app")
	}
	return c.Redirect(http.StatusSeeOther, "/login")
}

// loginForm is the login page, with the problem of the last attempt.
func (s *App) loginForm(c echo.Context, status int, problem string) error {
	next := localPath(c.FormValue("next"), "/app")
	return render(c, s.pageContext(c), status, ui.Login(ui.LoginPage{AssetsURL: assetsURL, LoginURL: "/login",
		SignupURL: "/signup", Next: next, Problem: problem, Language: s.languageSwitch(c, "/login?next="+url.QueryEscape(next))}))
}

func (s *App) loginPage(c echo.Context) error {
	if signedIn(c) {
		return c.Redirect(http.StatusSeeOther, localPath(c.QueryParam("next"), "/app"))
	}
	return s.loginForm(c, http.StatusOK, "")
}

// login opens a session for the owner of the API key in the form. The
// key's rate limit is checked first, as on the API.
func (s *App) login(c echo.Context) error {
	key := c.FormValue("api_key")
	if err := s.allowAttempt(c, key); err != nil {
		return err
	}
	if key == "" {
		return s.loginForm(c, http.StatusUnauthorized, "login.bad")
	}
	u, k, err := s.sessions.UserByAPIKey(httpx.Ctx(c), key)
	if errcode.Of(err) == errcode.Forbidden {
		return s.loginForm(c, http.StatusUnauthorized, "login.bad")
	}
	if err != nil {
		return err
	}
	if err := s.startSession(c, u.ID, k.ID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, localPath(c.FormValue("next"), "/app"))
}

// Sign-ins and sign-ups from one client address (and with one key) may
// come AttemptsBurst at once, then AttemptsPerSecond on average: enough for
// people, too few to guess keys or to make accounts in bulk.
const (
	AttemptsPerSecond = 0.5
	AttemptsBurst     = 20
)

// allowAttempt takes a token from the attempts bucket of the client's
// address and, when key is set, from the key's own.
func (s *App) allowAttempt(c echo.Context, key string) error {
	host, _, err := net.SplitHostPort(c.Request().RemoteAddr)
	if err != nil {
		host = c.Request().RemoteAddr
	}
	for _, bucket := range []string{"addr:" + host, key} {
		if bucket == "" {
			continue
		}
		if err := s.attempts.Allow(bucket, "too many attempts; retry later"); err != nil {
			return err
		}
	}
	return nil
}

// signup creates a user with the name in the form and an API key, opens a
// session and shows the key, once.
func (s *App) signup(c echo.Context) error {
	if err := s.allowAttempt(c, ""); err != nil {
		return err
	}
	u, err := s.sessions.CreateUser(httpx.Ctx(c), c.FormValue("name"))
	switch errcode.Of(err) {
	case errcode.Conflict:
		return s.loginForm(c, http.StatusConflict, "signup.taken")
	case errcode.BadRequest:
		return s.loginForm(c, http.StatusBadRequest, "signup.bad")
	}
	if err != nil {
		return err
	}
	key, k, err := s.sessions.CreateAPIKey(httpx.Ctx(c), accounts.NewKey{UserID: u.ID, Label: "signup"})
	if err != nil {
		return err
	}
	if err := s.startSession(c, u.ID, k.ID); err != nil {
		return err
	}
	return render(c, s.pageContext(c), http.StatusCreated, ui.NewKey(ui.KeyPage{AssetsURL: assetsURL,
		Name: u.Name, Key: key, ContinueURL: localPath(c.FormValue("next"), "/app")}))
}

// loginLink spends a one-time login link and opens a session with it.
func (s *App) loginLink(c echo.Context) error {
	userID, err := s.sessions.UseLoginLink(httpx.Ctx(c), c.Param("token"))
	if errcode.Of(err) == errcode.Unauthenticated {
		return s.loginForm(c, http.StatusUnauthorized, "login.link.bad")
	}
	if err != nil {
		return err
	}
	if err := s.startSession(c, userID, ""); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/app")
}

// logout ends the session.
func (s *App) logout(c echo.Context) error {
	if err := s.clearSession(c); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/login")
}

// switchLanguage keeps the chosen language in the lang cookie and goes
// back to the page it was chosen on. A signed-in browser must send its
// CSRF token.
func (s *App) switchLanguage(c echo.Context) error {
	if signedIn(c) {
		if err := s.checkCSRF(func(echo.Context) error { return nil })(c); err != nil {
			return err
		}
	}
	l := c.FormValue("lang")
	if !locale.Known(l) {
		return errcode.New(errcode.BadRequest, "lang must be one of %s", strings.Join(locale.All, ", "))
	}
	c.SetCookie(&http.Cookie{Name: langCookie, Value: l, Path: "/", MaxAge: 365 * 24 * 3600,
		Secure: secure(c.Request()), SameSite: http.SameSiteLaxMode})
	return c.Redirect(http.StatusSeeOther, localPath(c.FormValue("next"), "/app"))
}

// languageSwitch is the language form of a page at here.
func (s *App) languageSwitch(c echo.Context, here string) ui.LanguageSwitch {
	return ui.LanguageSwitch{Action: "/app/lang", Next: here, CSRFToken: s.csrfToken(c)}
}

// chatPage is a new conversation: the thread list and an empty one.
func (s *App) chatPage(c echo.Context) error {
	p, err := s.page(c, "")
	if err != nil {
		return err
	}
	p.SendURL = "/app/messages"
	return render(c, s.pageContext(c), http.StatusOK, ui.ChatPage(p))
}

// threadListSize is how many of the newest threads the side list shows.
const threadListSize = 50

// page is the frame every chat page shares: the thread list (current
// marked), the new-conversation link and the language switch. A thread's
// link opens it at its newest message (LatestURL).
func (s *App) page(c echo.Context, current string) (ui.Page, error) {
	t, cx := tenantOf(c), s.pageContext(c)
	threads, err := t.SearchThreads(httpx.Ctx(c), store.ThreadQuery{Limit: threadListSize})
	if err != nil {
		return ui.Page{}, err
	}
	links := make([]ui.ThreadLink, len(threads))
	for i, th := range threads {
		links[i] = ui.ThreadLink{ID: th.ID, Title: threadTitle(cx, t, th), URL: LatestURL(th.ID), Current: th.ID == current}
	}
	return ui.Page{Title: "tripgraph", AssetsURL: assetsURL, Scripts: ui.ScriptsEmbedded(), Threads: links, NewURL: "/app",
		CSRFToken: s.csrfToken(c), Language: s.languageSwitch(c, c.Request().URL.RequestURI()),
		LogoutURL: "/logout", ProfileURL: profileURL}, nil
}

// LatestURL is a thread's page at the traveller's newest message.
func LatestURL(threadID string) string { return ThreadURL(threadID) + "#" + ui.LatestDOMID }

// threadTitle is a thread's metadata title or, without one, its trip as
// its newest checkpoint saved it ("Lisbon · 1–5 May · 3 guests", in the
// page's language), else its first message; "" when it has none of them.
func threadTitle(cx context.Context, t tenant.Tenant, th store.Thread) string {
	if title := metadataTitle(th); title != "" {
		return title
	}
	head, err := runner.Head(cx, t, th.ID)
	if err != nil || head == nil {
		return ""
	}
	var st nodes.State
	if json.Unmarshal(head.State, &st) != nil {
		return ""
	}
	return stateTitle(cx, st)
}

// metadataTitle is the title a client gave the thread in its metadata.
func metadataTitle(th store.Thread) string {
	var meta struct {
		Title string `json:"title"`
	}
	if json.Unmarshal(th.Metadata, &meta) == nil {
		return meta.Title
	}
	return ""
}

// stateTitle names a conversation by its trip, else by its first message.
func stateTitle(cx context.Context, st nodes.State) string {
	if st.TripDetails != nil {
		return ui.TripTitle(cx, *st.TripDetails)
	}
	for _, m := range st.Messages {
		if m.Type == nodes.Human {
			return shortTitle(m.Content)
		}
	}
	return ""
}

// titleRunes is the longest title a message makes.
const titleRunes = 80

// shortTitle is a message's first line, cut to titleRunes with an ellipsis.
func shortTitle(message string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(message), "\n")
	r := []rune(strings.TrimSpace(line))
	if len(r) <= titleRunes {
		return string(r)
	}
	return strings.TrimSpace(string(r[:titleRunes-1])) + "…"
}

// threadPage shows a thread as its newest checkpoint saved it, with the
// booking it waits on, if any: nothing is run to show it. While a run is
// active on the thread, the page joins its live stream, so that a reload
// rejoins the run.
func (s *App) threadPage(c echo.Context) error {
	id, t := c.Param("thread_id"), tenantOf(c)
	th, err := t.Thread(httpx.Ctx(c), id)
	if err != nil {
		return err
	}
	state, live, err := threadView(httpx.Ctx(c), t, id)
	if err != nil {
		return err
	}
	p, err := s.page(c, id)
	if err != nil {
		return err
	}
	p.State, p.LiveURL = state, live
	if title := threadTitle(s.pageContext(c), t, th); title != "" {
		p.Title = title + " · tripgraph"
	}
	p.SendURL, p.TimelineURL = ThreadURL(id)+"/messages", ThreadURL(id)+"/timeline"
	return render(c, s.pageContext(c), http.StatusOK, ui.ChatPage(p))
}

// timelinePage lists every checkpoint of a thread, on every branch, and
// shows the one the checkpoint query selects (the newest when none) as it
// was, with no forms but the one that continues from it.
func (s *App) timelinePage(c echo.Context) error {
	id, t := c.Param("thread_id"), tenantOf(c)
	if _, err := t.Thread(httpx.Ctx(c), id); err != nil { // a 404 rather than an empty timeline
		return err
	}
	cps, err := t.Checkpoints.List(httpx.Ctx(c), id, graph.ListOptions{})
	if err != nil {
		return err
	}
	steps, err := replay.Steps(cps)
	if err != nil {
		return err
	}
	selected := c.QueryParam("checkpoint")
	if _, ok := replay.At(steps, selected); selected != "" && !ok {
		return errcode.New(errcode.NotFound, "no checkpoint %q in this thread", selected)
	}
	p, err := s.page(c, id)
	if err != nil {
		return err
	}
	base := ThreadURL(id)
	p.Timeline = &ui.Timeline{Steps: steps, Selected: selected, ThreadURL: base,
		ForkURL: base + "/fork", CSRFToken: s.csrfToken(c),
		StepURL: func(cp string) string { return base + "/timeline?checkpoint=" + url.QueryEscape(cp) }}
	if len(cps) > 0 {
		p.Timeline.Head = cps[0].ID
	}
	if p.Timeline.Traces, err = stepTraces(httpx.Ctx(c), t, id, cps); err != nil {
		return err
	}
	// A step of the past is shown as it was: its components offer no forms.
	cx := ui.WithActions(s.pageContext(c), ui.Actions{})
	return render(c, cx, http.StatusOK, ui.ChatPage(p))
}

// fork continues a thread from one of its checkpoints with a new message:
// a run that starts there makes a new branch, and the thread's other
// branches stay as they were.
func (s *App) fork(c echo.Context) error {
	id, cp, t := c.Param("thread_id"), c.FormValue("checkpoint_id"), tenantOf(c)
	if uuid.Validate(cp) != nil {
		return errcode.New(errcode.NotFound, "no checkpoint %q in this thread", cp)
	}
	if _, err := t.Checkpoints.Get(httpx.Ctx(c), id, cp); err != nil {
		return err
	}
	input, err := runner.Turn([]nodes.Message{{Content: c.FormValue("message")}}, nil)
	if err != nil {
		return err
	}
	job := runner.Job{Input: &input, CheckpointID: cp}
	if _, err := s.runner.Enqueue(httpx.Ctx(c), t, runner.Request{ThreadID: id, Job: job}); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, LatestURL(id))
}
