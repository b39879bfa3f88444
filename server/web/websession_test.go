package web_test

import (
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/server/web"
	"github.com/tripgraph/tripgraph/testing/apptest"
)

// browser is a client with a cookie jar that does not follow redirects,
// as a browser session against the harness.
type browser struct {
	h      *apptest.Server
	client *http.Client
	csrf   string // the CSRF token of the last page that had one
}

func browser(h *apptest.Server) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		h.T().Fatal(err)
	}
	return &browser{h: h, client: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

var csrfInput = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// send sends req with the browser's cookies and remembers the CSRF token
// of an HTML answer.
func (b *browser) send(req *http.Request) apptest.Response {
	b.h.T().Helper()
	resp, err := b.client.Do(req)
	if err != nil {
		b.h.T().Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		b.h.T().Fatal(err)
	}
	if m := csrfInput.FindSubmatch(data); m != nil {
		b.csrf = string(m[1])
	}
	return apptest.Response{status: resp.StatusCode, header: resp.Header, body: data}
}

func (b *browser) get(path string, header ...string) apptest.Response {
	b.h.T().Helper()
	req, err := http.NewRequest(http.MethodGet, b.h.URL+path, nil)
	if err != nil {
		b.h.T().Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return b.send(req)
}

// post sends a form as it is, with no CSRF token added.
func (b *browser) post(path string, form url.Values, header ...string) apptest.Response {
	b.h.T().Helper()
	req, err := http.NewRequest(http.MethodPost, b.h.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		b.h.T().Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return b.send(req)
}

// submit posts a form with the CSRF token of the last page.
func (b *browser) submit(path string, form url.Values) apptest.Response {
	b.h.T().Helper()
	if form == nil {
		form = url.Values{}
	}
	form.Set("csrf_token", b.csrf)
	return b.post(path, form)
}

// login signs in with key and loads the chat page, for its CSRF token.
func (b *browser) login(key string) *browser {
	b.h.T().Helper()
	if r := b.post("/login", url.Values{"api_key": {key}}); r.Status != http.StatusSeeOther {
		b.h.T().Fatalf("login = %d %s", r.Status, r.Body)
	}
	if r := b.get("/app"); r.Status != http.StatusOK {
		b.h.T().Fatalf("GET /app after login = %d %s", r.Status, r.Body)
	}
	return b
}

// cookie is the browser's cookie of that name, "" when none.
func (b *browser) cookie(name string) string {
	u, _ := url.Parse(b.h.URL)
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

func sessionCookieOf(t *testing.T, r apptest.Response) *http.Cookie {
	t.Helper()
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == web.SessionCookie {
			return c
		}
	}
	t.Fatalf("no session cookie in %v", r.Header)
	return nil
}

func mustStatus(t *testing.T, r apptest.Response, want int) {
	t.Helper()
	if r.Status != want {
		t.Fatalf("status %d, want %d: %s", r.Status, want, r.Body)
	}
}

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
			b := h.With(t).browser()
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
		r := h.With(t).browser().post("/login", url.Values{"api_key": {"tg_nope"}})
		if !strings.Contains(string(r.Body), "not valid") {
			t.Errorf("no reason shown:\n%s", r.Body)
		}
	})
	t.Run("next is kept, on this site only", func(t *testing.T) {
		b := h.With(t).browser()
		r := b.get("/app?x=1")
		mustStatus(t, r, http.StatusSeeOther)
		if got := r.Header.Get("Location"); got != "/login?next=%2Fapp%3Fx%3D1" {
			t.Errorf("Location %q", got)
		}
		for next, want := range map[string]string{"/app/threads/x": "/app/threads/x", "//evil.example/": "/app", "https://evil.example/": "/app"} {
			r := h.With(t).browser().post("/login", url.Values{"api_key": {h.AliceKey}, "next": {next}})
			if got := r.Header.Get("Location"); got != want {
				t.Errorf("next %q: Location %q, want %q", next, got, want)
			}
		}
	})
}

func TestNoSession(t *testing.T) {
	h := apptest.New(t)
	b := browser(h)
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
	mustStatus(t, browser(h).get("/static/app.css"), http.StatusOK)
	mustStatus(t, browser(h).get("/static/nope.css"), http.StatusNotFound)
	// An API key is no session.
	req, _ := http.NewRequest(http.MethodGet, h.URL+"/app", nil)
	req.Header.Set("X-Api-Key", h.AliceKey)
	if r := browser(h).send(req); r.Status != http.StatusSeeOther {
		t.Errorf("an API key opened a page: %d", r.Status)
	}
}

func TestSignup(t *testing.T) {
	h := apptest.New(t)
	name := "signup-" + strings.ToLower(strings.ReplaceAll(time.Now().Format("150405.000000"), ".", "-"))
	b := browser(h)
	r := b.post("/signup", url.Values{"name": {name}})
	mustStatus(t, r, http.StatusCreated)
	key := regexp.MustCompile(`tg_[A-Za-z0-9_-]+`).Find(r.Body)
	if key == nil {
		t.Fatalf("the key is not shown:\n%s", r.Body)
	}
	h.Must(http.StatusOK, http.MethodPost, "/threads/search", string(key), "")
	u, err := h.st.Accounts.UserByAPIKey(t.Context(), string(key))
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
		r := browser(h).post("/signup", url.Values{"name": {c.name}})
		mustStatus(t, r, c.want)
		if !strings.Contains(string(r.Body), c.text) {
			t.Errorf("signup %q does not say %q:\n%s", c.name, c.text, r.Body)
		}
	}
}

func TestLogout(t *testing.T) {
	h := apptest.New(t)
	b := browser(h).login(h.AliceKey)
	token := b.cookie(web.SessionCookie)
	r := b.submit("/logout", nil)
	mustStatus(t, r, http.StatusSeeOther)
	var n int
	hash := sha256.Sum256([]byte(token))
	if err := h.st.Pool.QueryRow(t.Context(), `SELECT count(*) FROM web_sessions WHERE token_hash = $1`, hash[:]).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the session is still stored: %d (%v)", n, err)
	}
	// The old cookie, kept by someone, opens nothing.
	again := browser(h)
	u, _ := url.Parse(h.URL)
	again.client.Jar.SetCookies(u, []*http.Cookie{{Name: web.SessionCookie, Value: token}})
	mustStatus(t, again.get("/app"), http.StatusSeeOther)
}

func TestSessionExpiry(t *testing.T) {
	h := apptest.New(t)
	b := browser(h)
	r := b.post("/login", url.Values{"api_key": {h.AliceKey}})
	ck := sessionCookieOf(t, r)
	if d := time.Duration(ck.MaxAge) * time.Second; d < web.DefaultSessionTTL-time.Minute || d > web.DefaultSessionTTL {
		t.Errorf("cookie Max-Age %v, want about %v", d, web.DefaultSessionTTL)
	}
	mustStatus(t, b.get("/app"), http.StatusOK)
	hash := sha256.Sum256([]byte(ck.Value))
	if _, err := h.st.Pool.Exec(t.Context(), `UPDATE web_sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, hash[:]); err != nil {
		t.Fatal(err)
	}
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
	b := browser(h).login(h.AliceKey)
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
		{"another session's token", url.Values{"csrf_token": {browser(h).login(h.BobKey).csrf}}, nil, http.StatusForbidden},
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
		b := browser(h).login(h.AliceKey)
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
			r := browser(h).post("/login", url.Values{"api_key": {h.AliceKey}}, c.header...)
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
	b := browser(h)
	r := b.get("/login/link/" + path)
	mustStatus(t, r, http.StatusSeeOther)
	page := b.get("/app")
	mustStatus(t, page, http.StatusOK)
	if !strings.Contains(string(page.Body), "/logout") {
		t.Errorf("the link opened no session:\n%s", page.Body)
	}
	again := browser(h)
	mustStatus(t, again.get("/login/link/"+path), http.StatusUnauthorized)
	mustStatus(t, again.get("/app"), http.StatusSeeOther)

	t.Run("expired", func(t *testing.T) {
		link, err := h.Srv.LoginLink(t.Context(), "", h.Alice.ID)
		if err != nil {
			t.Fatal(err)
		}
		token := strings.TrimPrefix(link, "/login/link/")
		hash := sha256.Sum256([]byte(token))
		if _, err := h.st.Pool.Exec(t.Context(), `UPDATE login_links SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, hash[:]); err != nil {
			t.Fatal(err)
		}
		mustStatus(t, browser(h).get(link), http.StatusUnauthorized)
	})
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
			r := h.With(t).browser().get("/login", "Accept-Language", c.accept)
			if !strings.Contains(string(r.Body), c.want) {
				t.Errorf("no %q in\n%s", c.want, r.Body)
			}
		})
	}
	t.Run("switch", func(t *testing.T) {
		b := h.With(t).browser().login(h.AliceKey)
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
	b := browser(h)
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
// works on another on the same database, and that signing out on the
// second ends it on the first.
func TestSessionAcrossProcesses(t *testing.T) {
	h := apptest.New(t)
	otherSrv, _ := newServer(t, openStore(t, testURL), apptest.Limits(), io.Discard)
	other := httptest.NewServer(otherSrv.Handler())
	t.Cleanup(other.Close)
	b := browser(h).login(h.AliceKey)
	onOther := *b
	onOther.h = &harness{t: t, url: other.URL}
	mustStatus(t, onOther.get("/app"), http.StatusOK)
	token := b.cookie(web.SessionCookie)
	mustStatus(t, onOther.submit("/logout", nil), http.StatusSeeOther)
	u, _ := url.Parse(h.URL)
	b.client.Jar.SetCookies(u, []*http.Cookie{{Name: web.SessionCookie, Value: token}}) // as kept by someone
	mustStatus(t, b.get("/app"), http.StatusSeeOther)
}
