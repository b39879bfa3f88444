package twoproc

import (
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/servetest"
)

// A key revoked through one process is refused by the next request to
// either, and ends the browser session it opened on the other; the
// operator's key comes from the command line.
func TestRevocationReachesEveryProcess(t *testing.T) {
	pgtest.Skip(t)
	key := servetest.Prepare(t, testURL, "revoked-traveller")[0]
	bin := servetest.Build(t)
	operator := command(t, bin, "user", "create", "ops")
	if !strings.HasPrefix(operator, "created user ops") {
		t.Fatalf("user create: %s", operator)
	}
	operatorKey := strings.TrimSpace(command(t, bin, "apikey", "create", "--user", "ops", "--role", "operator"))
	addrA, addrB := servetest.FreeAddr(t), servetest.FreeAddr(t)
	servetest.Serve(t, bin, addrA, testURL)
	servetest.Serve(t, bin, addrB, testURL)

	browser := login(t, addrB, key)
	for _, addr := range []string{addrA, addrB} {
		if s := status(t, http.MethodPost, "http://"+addr+"/threads/search", key); s != http.StatusOK {
			t.Fatalf("before the revocation, %s answers %d", addr, s)
		}
	}
	keys := getJSON(t, "http://"+addrA+"/admin/users/revoked-traveller/api-keys", operatorKey)
	start := time.Now()
	servetest.PostJSON(t, addrA, operatorKey, "/admin/users/revoked-traveller/api-keys/"+keys[0]["id"].(string)+"/revoke", "")
	for _, addr := range []string{addrA, addrB} {
		if s := status(t, http.MethodPost, "http://"+addr+"/threads/search", key); s != http.StatusUnauthorized {
			t.Errorf("after the revocation, %s answers %d", addr, s)
		}
	}
	resp, err := browser.Get("http://" + addrB + "/app")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the session the key opened on B answers %d", resp.StatusCode)
	}
	t.Logf("refused everywhere %v after the revocation was answered", time.Since(start))
}

// command runs tripgraph with args on the test's database and returns its
// standard output.
func command(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(cmd.Environ(), "DATABASE_URL="+testURL)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tripgraph %v: %v", args, err)
	}
	return string(out)
}

// login signs in to the browser app at addr with key and returns the
// browser, which then holds the session's cookie.
func login(t *testing.T, addr, key string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.PostForm("http://"+addr+"/login", url.Values{"api_key": {key}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: %d", resp.StatusCode)
	}
	if resp, err = c.Get("http://" + addr + "/app"); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the app after login: %v %v", resp, err)
	}
	resp.Body.Close()
	return c
}

// getJSON gets a JSON list of objects with a bearer key.
func getJSON(t *testing.T, u, key string) []map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out []map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK || len(out) == 0 {
		t.Fatalf("GET %s: %d %v %v", u, resp.StatusCode, out, err)
	}
	return out
}

// status is the status of a request with a bearer key.
func status(t *testing.T, method, u, key string) int {
	t.Helper()
	req, _ := http.NewRequest(method, u, strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
