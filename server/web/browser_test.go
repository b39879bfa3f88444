package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/server/web"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/apptest"
)

// browser is a client with a cookie jar that does not follow redirects:
// a browser's session on a server.
type browser struct {
	t      testing.TB
	base   string // the server's URL
	client *http.Client
	csrf   string // the CSRF token of the last page that had one
}

// newBrowser is a browser with no session on h, failing h's test.
func newBrowser(h *apptest.Server) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		h.T().Fatal(err)
	}
	return &browser{t: h.T(), base: h.URL, client: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

var csrfInput = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// do sends a request with the browser's cookies, and header's pairs of
// names and values.
func (b *browser) do(method, path string, body io.Reader, header ...string) *http.Response {
	b.t.Helper()
	req, err := http.NewRequest(method, b.base+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	return resp
}

// send sends a request as do does, reads the whole answer and remembers
// the CSRF token of an HTML one.
func (b *browser) send(method, path string, body io.Reader, header ...string) apptest.Response {
	b.t.Helper()
	resp := b.do(method, path, body, header...)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	if m := csrfInput.FindSubmatch(data); m != nil {
		b.csrf = string(m[1])
	}
	return apptest.Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

func (b *browser) get(path string, header ...string) apptest.Response {
	b.t.Helper()
	return b.send(http.MethodGet, path, nil, header...)
}

// post sends a form as it is, with no CSRF token added.
func (b *browser) post(path string, form url.Values, header ...string) apptest.Response {
	b.t.Helper()
	return b.send(http.MethodPost, path, strings.NewReader(form.Encode()), header...)
}

// submit posts a form with the CSRF token of the last page.
func (b *browser) submit(path string, form url.Values, header ...string) apptest.Response {
	b.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	form.Set("csrf_token", b.csrf)
	return b.post(path, form, header...)
}

// htmx posts a form with the CSRF token, as htmx does.
func (b *browser) htmx(path string, form url.Values) apptest.Response {
	b.t.Helper()
	return b.submit(path, form, "HX-Request", "true")
}

// login signs in with key and loads the chat page, for its CSRF token.
func (b *browser) login(key string) *browser {
	b.t.Helper()
	if r := b.post("/login", url.Values{"api_key": {key}}); r.Status != http.StatusSeeOther {
		b.t.Fatalf("login = %d %s", r.Status, r.Body)
	}
	if r := b.get("/app"); r.Status != http.StatusOK {
		b.t.Fatalf("GET /app after login = %d %s", r.Status, r.Body)
	}
	return b
}

// cookie is the browser's cookie of that name, "" when none.
func (b *browser) cookie(name string) string {
	u, _ := url.Parse(b.base)
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

// keep puts a session cookie in the browser, as someone who kept it would.
func (b *browser) keep(token string) *browser {
	u, _ := url.Parse(b.base)
	b.client.Jar.SetCookies(u, []*http.Cookie{{Name: web.SessionCookie, Value: token}})
	return b
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

func mustStatus(t testing.TB, r apptest.Response, want int) {
	t.Helper()
	if r.Status != want {
		t.Fatalf("status %d, want %d: %s", r.Status, want, r.Body)
	}
}

func hasAll(t testing.TB, body []byte, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(string(body), w) {
			t.Errorf("no %q in\n%s", w, body)
		}
	}
}

func lacks(t testing.TB, body []byte, absent ...string) {
	t.Helper()
	for _, a := range absent {
		if strings.Contains(string(body), a) {
			t.Errorf("%q should not be in\n%s", a, body)
		}
	}
}

// checkpoints lists the checkpoints of a thread of Alice's, newest first.
func checkpoints(h *apptest.Server, threadID string) []graph.Checkpoint {
	h.T().Helper()
	cps, err := h.Tenant(h.Alice.ID).Checkpoints.List(context.Background(), threadID, graph.ListOptions{})
	if err != nil {
		h.T().Fatal(err)
	}
	return cps
}

// runsOf lists the runs of a thread of Alice's, newest first.
func runsOf(h *apptest.Server, threadID string) []store.Run {
	h.T().Helper()
	runs, err := h.Tenant(h.Alice.ID).ListRuns(context.Background(), threadID, 100, 0)
	if err != nil {
		h.T().Fatal(err)
	}
	return runs
}

// onlyRun is the run of a thread of Alice's that has one.
func onlyRun(h *apptest.Server, threadID string) store.Run {
	h.T().Helper()
	runs := runsOf(h, threadID)
	if len(runs) != 1 {
		h.T().Fatalf("%d runs on thread %s, want 1: %+v", len(runs), threadID, runs)
	}
	return runs[0]
}
