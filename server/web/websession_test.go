package web_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server"
	"github.com/tripgraph/tripgraph/server/web"
	"github.com/tripgraph/tripgraph/testing/apptest"
)

func TestLogin(t *testing.T) {
	h := apptest.New(t)
	cases := []struct {
		name     string
		key      string
		header   []string
		want     int
		location string
		secure   bool
	}{
		{"good key", h.AliceKey, nil, http.StatusSeeOther, "/app", false},
		{"good key behind TLS", h.AliceKey, []string{"X-Forwarded-Proto", "https"}, http.StatusSeeOther, "/app", true},
		{"bad key", "tg_nope", nil, http.StatusUnauthorized, "", false},
		{"no key", "", nil, http.StatusUnauthorized, "", false},
		{"another site", h.AliceKey, []string{"Origin", "https://evil.example"}, http.StatusForbidden, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newBrowser(h.With(t))
			r := b.post("/login", url.Values{"api_key": {c.key}}, c.header...)
			mustStatus(t, r, c.want)
			if c.want != http.StatusSeeOther {
				if b.cookie(web.SessionCookie) != "" {
					t.Error("a failed login set a session cookie")
				}
				mustStatus(t, b.get("/app"), http.StatusSeeOther)
				return
			}
			if got := r.Header.Get("Location"); got != c.location {
				t.Errorf("Location %q, want %q", got, c.location)
			}
			ck := sessionCookieOf(t, r)
			if !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" || ck.Secure != c.secure {
				t.Errorf("cookie HttpOnly=%v SameSite=%v Path=%q Secure=%v", ck.HttpOnly, ck.SameSite, ck.Path, ck.Secure)
			}
			if d := time.Duration(ck.MaxAge) * time.Second; d < web.DefaultSessionTTL-time.Minute || d > web.DefaultSessionTTL {
				t.Errorf("cookie Max-Age %v, want about %v", d, web.DefaultSessionTTL)
			}
			if c.secure {
				return // the jar keeps a Secure cookie from an http URL
			}
			page := b.get("/app")
			mustStatus(t, page, http.StatusOK)
			if !strings.Contains(string(page.Body), `class="composer"`) {
				t.Errorf("the chat page has no message box:\n%s", page.Body)
			}
		})
	}
	t.Run("bad key shows why", func(t *testing.T) {
		r := newBrowser(h.With(t)).post("/login", url.Values{"api_key": {"tg_nope"}})
		if !strings.Contains(string(r.Body), "not valid") {
			t.Errorf("no reason shown:\n%s", r.Body)
		}
	})
	t.Run("next is kept, on this site only", func(t *testing.T) {
		b := newBrowser(h.With(t))
		r := b.get("/app?x=1")
		mustStatus(t, r, http.StatusSeeOther)
		if got := r.Header.Get("Location"); got != "/login?next=%2Fapp%3Fx%3D1" {
			t.Errorf("Location %q", got)
		}
		for next, want := range map[string]string{"/app/threads/x": "/app/threads/x", "//evil.example/": "/app", "https://evil.example/": "/app"} {
			r := newBrowser(h.With(t)).post("/login", url.Values{"api_key": {h.AliceKey}, "next": {next}})
			if got := r.Header.Get("Location"); got != want {
				t.Errorf("next %q: Location %q, want %q", next, got, want)
			}
		}
	})
}

func TestNoSession(t *testing.T) {
	h := apptest.New(t)
	b := newBrowser(h)
	mustStatus(t, b.post("/logout", url.Values{}), http.StatusUnauthorized)
	mustStatus(t, b.get("/app"), http.StatusSeeOther)
	r := b.get("/")
	if r.Header.Get("Location") != "/login" {
		t.Errorf("/ sends a stranger to %q", r.Header.Get("Location"))
	}
	b.login(h.AliceKey)
	if r := b.get("/"); r.Header.Get("Location") != "/app" {
		t.Errorf("/ sends a signed-in browser to %q", r.Header.Get("Location"))
	}
	// The stylesheet needs no session.
	css := b.get("/static/app.css")
	if css.Status != http.StatusOK || !strings.HasPrefix(css.Header.Get("Content-Type"), "text/css") {
		t.Errorf("GET /static/app.css = %d %s", css.Status, css.Header.Get("Content-Type"))
	}
	mustStatus(t, newBrowser(h).get("/static/app.css"), http.StatusOK)
	mustStatus(t, newBrowser(h).get("/static/nope.css"), http.StatusNotFound)
	// An API key is no session.
	if r := newBrowser(h).get("/app", "X-Api-Key", h.AliceKey); r.Status != http.StatusSeeOther {
		t.Errorf("an API key opened a page: %d", r.Status)
	}
}

func TestSignup(t *testing.T) {
	h := apptest.New(t)
	name := "signup-" + strings.ToLower(strings.ReplaceAll(time.Now().Format("150405.000000"), ".", "-"))
	b := newBrowser(h)
	r := b.post("/signup", url.Values{"name": {name}})
	mustStatus(t, r, http.StatusCreated)
	key := regexp.MustCompile(`tg_[A-Za-z0-9_-]+`).Find(r.Body)
	if key == nil {
		t.Fatalf("the key is not shown:\n%s", r.Body)
	}
	h.Must(http.StatusOK, http.MethodPost, "/threads/search", string(key), "")
	u, _, err := h.Accounts.UserByAPIKey(t.Context(), string(key))
	if err != nil || u.Name != name {
		t.Fatalf("the key is of %+v (%v), want user %q", u, err, name)
	}
	mustStatus(t, b.get("/app"), http.StatusOK)
	cases := []struct {
		name string
		want int
		text string
	}{
		{name, http.StatusConflict, "taken"},
		{"Not A Name", http.StatusBadRequest, "lower-case"},
		{"", http.StatusBadRequest, "lower-case"},
	}
	for _, c := range cases {
		r := newBrowser(h).post("/signup", url.Values{"name": {c.name}})
		mustStatus(t, r, c.want)
		if !strings.Contains(string(r.Body), c.text) {
			t.Errorf("signup %q does not say %q:\n%s", c.name, c.text, r.Body)
		}
	}
}

func TestLogout(t *testing.T) {
	h := apptest.New(t)
	b := newBrowser(h).login(h.AliceKey)
	token := b.cookie(web.SessionCookie)
	r := b.submit("/logout", nil)
	mustStatus(t, r, http.StatusSeeOther)
	if sess, err := h.Data.Accounts.SessionByToken(t.Context(), token); errcode.Of(err) != errcode.Unauthenticated {
		t.Fatalf("the session is still stored: %+v (%v)", sess, err)
	}
	// The old cookie, kept by someone, opens nothing.
	mustStatus(t, newBrowser(h).keep(token).get("/app"), http.StatusSeeOther)
}

// aYear is longer than any session or login link lasts.
const aYear = 366 * 24 * time.Hour

func TestSessionExpiry(t *testing.T) {
	h := apptest.New(t)
	b := newBrowser(h).login(h.AliceKey)
	h.Advance(aYear)
	mustStatus(t, b.get("/app"), http.StatusSeeOther)
	mustStatus(t, b.submit("/logout", nil), http.StatusUnauthorized)
}

// wrongToken is token with its first character changed, whatever it was.
func wrongToken(token string) string {
	if strings.HasPrefix(token, "x") {
		return "y" + token[1:]
	}
	return "x" + token[1:]
}

func TestCSRF(t *testing.T) {
	h := apptest.New(t)
	b := newBrowser(h).login(h.AliceKey)
	if b.csrf == "" {
		t.Fatal("the chat page has no CSRF token")
	}
	cases := []struct {
		name   string
		form   url.Values
		header []string
		want   int
	}{
		{"no token", url.Values{}, nil, http.StatusForbidden},
		{"wrong token", url.Values{"csrf_token": {wrongToken(b.csrf)}}, nil, http.StatusForbidden},
		{"another session's token", url.Values{"csrf_token": {newBrowser(h).login(h.BobKey).csrf}}, nil, http.StatusForbidden},
		{"an htmx request without a token", url.Values{}, []string{"HX-Request", "true"}, http.StatusForbidden},
		{"the token from another site", url.Values{"csrf_token": {b.csrf}}, []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
		{"header", url.Values{}, []string{"X-CSRF-Token", b.csrf}, http.StatusSeeOther},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := b.post("/logout", c.form, c.header...)
			mustStatus(t, r, c.want)
		})
	}
	t.Run("the token in the query string", func(t *testing.T) {
		b := newBrowser(h).login(h.AliceKey)
		mustStatus(t, b.post("/logout?csrf_token="+url.QueryEscape(b.csrf), url.Values{}), http.StatusForbidden)
	})
}

// The forms before a session are refused when the browser says they come
// from elsewhere, an origin of "null" (a sandboxed frame, a data: page)
// included.
func TestPublicFormsRefuseOtherOrigins(t *testing.T) {
	h := apptest.New(t)
	for _, c := range []struct {
		name   string
		header []string
		want   int
	}{
		{"another site", []string{"Origin", "https://evil.example"}, http.StatusForbidden},
		{"a null origin", []string{"Origin", "null"}, http.StatusForbidden},
		{"another site by fetch metadata", []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
		{"this site", []string{"Sec-Fetch-Site", "same-origin"}, http.StatusSeeOther},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newBrowser(h).post("/login", url.Values{"api_key": {h.AliceKey}}, c.header...)
			mustStatus(t, r, c.want)
		})
	}
}

func TestLoginLink(t *testing.T) {
	h := apptest.New(t)
	link, err := h.Srv.LoginLink(t.Context(), "http://example.test/", h.Alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	path, ok := strings.CutPrefix(link, "http://example.test/login/link/")
	if !ok || strings.Contains(link, h.AliceKey) {
		t.Fatalf("link %q", link)
	}
	b := newBrowser(h)
	r := b.get("/login/link/" + path)
	mustStatus(t, r, http.StatusSeeOther)
	page := b.get("/app")
	mustStatus(t, page, http.StatusOK)
	if !strings.Contains(string(page.Body), "/logout") {
		t.Errorf("the link opened no session:\n%s", page.Body)
	}
	again := newBrowser(h)
	mustStatus(t, again.get("/login/link/"+path), http.StatusUnauthorized)
	mustStatus(t, again.get("/app"), http.StatusSeeOther)
}

func TestLoginLinkExpiry(t *testing.T) {
	h := apptest.New(t)
	link, err := h.Srv.LoginLink(t.Context(), "", h.Alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	h.Advance(aYear)
	mustStatus(t, newBrowser(h).get(link), http.StatusUnauthorized)
}

func TestLanguage(t *testing.T) {
	h := apptest.New(t)
	cases := []struct {
		name   string
		accept string
		want   string
	}{
		{"from the browser", "pt-BR,pt;q=0.9,en;q=0.5", "Entrar com sua chave de API"},
		{"from a pt-PT browser", "pt-PT", `<html lang="pt-BR">`},
		{"english by default", "", "Sign in with your API key"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newBrowser(h.With(t)).get("/login", "Accept-Language", c.accept)
			if !strings.Contains(string(r.Body), c.want) {
				t.Errorf("no %q in\n%s", c.want, r.Body)
			}
		})
	}
	t.Run("switch", func(t *testing.T) {
		b := newBrowser(h.With(t)).login(h.AliceKey)
		mustStatus(t, b.post("/app/lang", url.Values{"lang": {"pt"}}), http.StatusForbidden)
		r := b.submit("/app/lang", url.Values{"lang": {"pt"}, "next": {"/app"}})
		mustStatus(t, r, http.StatusSeeOther)
		page := b.get("/app", "Accept-Language", "en")
		for _, w := range []string{`<html lang="pt-BR">`, "Nova conversa", "Enviar"} {
			if !strings.Contains(string(page.Body), w) {
				t.Errorf("no %q in\n%s", w, page.Body)
			}
		}
		mustStatus(t, b.submit("/app/lang", url.Values{"lang": {"fr"}}), http.StatusBadRequest)
	})
}

// TestAttemptsAreLimited checks that logins and signups from one address
// take tokens from that address's bucket: past the burst, a 429.
func TestAttemptsAreLimited(t *testing.T) {
	h := apptest.New(t) // the API's limits do not apply to sign-ins
	b := newBrowser(h)
	for i := range web.AttemptsBurst {
		if i%2 == 0 {
			mustStatus(t, b.post("/login", url.Values{"api_key": {fmt.Sprintf("tg_guess%d", i)}}), http.StatusUnauthorized)
		} else {
			mustStatus(t, b.post("/signup", url.Values{"name": {"Bad Name"}}), http.StatusBadRequest)
		}
	}
	for _, r := range []apptest.Response{b.post("/login", url.Values{"api_key": {h.AliceKey}}), b.post("/signup", url.Values{"name": {"fine-name"}})} {
		mustStatus(t, r, http.StatusTooManyRequests)
		if r.Header.Get("Retry-After") == "" {
			t.Error("a 429 without Retry-After")
		}
	}
}

// TestSessionAcrossProcesses checks that a session opened by one server
// works on another on the same data, and that signing out on the second
// ends it on the first: a server keeps no session of its own.
func TestSessionAcrossProcesses(t *testing.T) {
	h := apptest.New(t)
	otherSrv, err := server.New(server.Config{Data: h.Data, Planner: h.Planner, Tools: h.Tools, Limits: apptest.Limits(),
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { otherSrv.Close() })
	other := httptest.NewServer(otherSrv.Handler())
	t.Cleanup(other.Close)
	b := newBrowser(h).login(h.AliceKey)
	onOther := *b
	onOther.base = other.URL
	mustStatus(t, onOther.get("/app"), http.StatusOK)
	token := b.cookie(web.SessionCookie)
	mustStatus(t, onOther.submit("/logout", nil), http.StatusSeeOther)
	mustStatus(t, b.keep(token).get("/app"), http.StatusSeeOther)
}

// A session opened with an API key ends when the key is revoked or
// rotated; one opened by a login link does not.
func TestSessionEndsWithItsKey(t *testing.T) {
	h := apptest.New(t)
	ctx := t.Context()
	for _, withdraw := range []string{"revoke", "rotate"} {
		t.Run(withdraw, func(t *testing.T) {
			u, key := h.With(t).NewUser()
			_, k, err := h.Accounts.UserByAPIKey(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			b := newBrowser(h.With(t)).login(key)
			link, err := h.Srv.LoginLink(ctx, "", u.ID)
			if err != nil {
				t.Fatal(err)
			}
			byLink := newBrowser(h.With(t))
			mustStatus(t, byLink.get(link), http.StatusSeeOther)
			mustStatus(t, byLink.get("/app"), http.StatusOK)
			if withdraw == "revoke" {
				_, err = h.Accounts.RevokeAPIKey(ctx, u.ID, k.ID)
			} else {
				_, _, err = h.Mem.Accounts.RotateAPIKey(ctx, u.ID, k.ID)
			}
			if err != nil {
				t.Fatal(err)
			}
			mustStatus(t, b.get("/app"), http.StatusSeeOther)
			mustStatus(t, byLink.get("/app"), http.StatusOK)
		})
	}
}
