package media

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
)

// photoTable is a PhotoFiles over a map of id to {owner, path}.
type photoTable map[string][2]string

func (p photoTable) PhotoFile(_ context.Context, id string) (string, string, error) {
	f, ok := p[id]
	if !ok {
		return "", "", errcode.New(errcode.NotFound, "no photo %q", id)
	}
	return f[0], f[1], nil
}

// PictureExists knows one accommodation, "1234", and one restaurant, "x".
func (p photoTable) PictureExists(_ context.Context, kind, id string) (bool, error) {
	return (kind == "accommodation" && id == "1234") || (kind == "restaurant" && id == "x"), nil
}

func TestHandler(t *testing.T) {
	root := mediaTree(t)
	secret := []byte("0123456789abcdef")
	h := &Handler{
		Root:   root,
		Secret: secret,
		Photos: photoTable{
			"a":         {"ana", "photos/a.png"},
			"generated": {"ana", "photos/ana/new.png"},
			"text":      {"ana", "photos/notes.txt"},
			"escape":    {"ana", "escape.png"},
			"bobs":      {"bob", "photos/a.png"},
		},
		Authenticate: func(_ context.Context, bearer string) (string, error) {
			if user, ok := strings.CutPrefix(bearer, "key-"); ok {
				return user, nil
			}
			if bearer == "broken-store" {
				return "", errors.New("SQLSTATE 08006: connection failure")
			}
			return "", errcode.New(errcode.Forbidden, "bad key")
		},
	}
	mux := http.NewServeMux()
	h.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	urls := URLs{Base: srv.URL, Secret: secret, TTL: time.Hour}
	expired := URLs{Base: srv.URL, Secret: secret, TTL: -time.Minute}
	forged := URLs{Base: srv.URL, Secret: []byte("another secret!!"), TTL: time.Hour}

	for _, tc := range []struct {
		name   string
		url    string
		bearer string
		status int
		ctype  string
	}{
		{"owner's key", srv.URL + "/media/photos/a", "key-ana", 200, "image/png"},
		{"signed link", urls.PhotoURL("a", "ana", "full"), "", 200, "image/png"},
		{"signed thumbnail, rendered on request", urls.PhotoURL("generated", "ana", "thumb"), "", 200, "image/png"},
		{"generated full size", urls.PhotoURL("generated", "ana", "full"), "", 200, "image/png"},
		{"no credential", srv.URL + "/media/photos/a", "", 401, "application/json"},
		{"another user's key", srv.URL + "/media/photos/a", "key-bob", 404, "application/json"},
		{"a bad key", srv.URL + "/media/photos/a", "nope", 401, "application/json"},
		{"the key cannot be checked", srv.URL + "/media/photos/a", "broken-store", 503, "application/json"},
		{"expired link", expired.PhotoURL("a", "ana", "full"), "", 404, "application/json"},
		{"forged link", forged.PhotoURL("a", "ana", "full"), "", 404, "application/json"},
		{"a link signed for another owner", urls.PhotoURL("bobs", "ana", "full"), "", 404, "application/json"},
		{"not an image", urls.PhotoURL("text", "ana", "full"), "", 415, "application/json"},
		{"a path escaping the root", urls.PhotoURL("escape", "ana", "full"), "", 403, "application/json"},
		{"no such photo", urls.PhotoURL("zzz", "ana", "full"), "", 404, "application/json"},
		{"catalog picture", urls.PictureURL("accommodation", "1234"), "", 200, "image/png"},
		{"catalog thumbnail", urls.PictureURL("restaurant", "x") + "?size=thumb", "", 200, "image/png"},
		{"unknown picture kind", urls.PictureURL("user", "x"), "", 404, "application/json"},
		{"picture of no accommodation", urls.PictureURL("accommodation", "1235"), "", 404, "application/json"},
		{"picture of another kind's id", urls.PictureURL("restaurant", "1234"), "", 404, "application/json"},
		{"picture of no album", urls.PictureURL("album", "x"), "", 404, "application/json"},
		{"bad picture name", srv.URL + "/media/pictures/album/..png", "", 404, "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", tc.url, nil)
			if tc.bearer != "" {
				req.Header.Set("Authorization", "Bearer "+tc.bearer)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.Contains(string(body), "SQLSTATE") {
				t.Fatalf("internal text reaches the client: %s", body)
			}
			if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != tc.ctype {
				t.Fatalf("got %d %s, want %d %s", resp.StatusCode, resp.Header.Get("Content-Type"), tc.status, tc.ctype)
			}
			if tc.status == 401 && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Error("401 without a WWW-Authenticate challenge")
			}
		})
	}

	// A bad link to a photo that exists says what one to none says.
	answer := func(url string) string {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.Status + " " + string(body)
	}
	if exists, none := answer(forged.PhotoURL("a", "ana", "full")), answer(forged.PhotoURL("zzz", "ana", "full")); exists != none {
		t.Errorf("a forged link to a photo answers %q, to no photo %q: it tells the photo exists", exists, none)
	}
}

// TestHandlerSession checks that a browser session opens its own user's
// photos with an unsigned link, and no one else's; a bearer credential is
// read first.
func TestHandlerSession(t *testing.T) {
	h := &Handler{Root: mediaTree(t), Secret: []byte("0123456789abcdef"),
		Photos: photoTable{"a": {"ana", "photos/a.png"}},
		Authenticate: func(_ context.Context, bearer string) (string, error) {
			return "", errcode.New(errcode.Forbidden, "bad key")
		},
		Session: func(r *http.Request) (string, error) {
			c, err := r.Cookie("s")
			if err != nil {
				return "", nil
			}
			return c.Value, nil
		},
	}
	mux := http.NewServeMux()
	h.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for _, tc := range []struct {
		name, session, bearer string
		status                int
	}{
		{"the owner's session", "ana", "", 200},
		{"another user's session", "bob", "", 404},
		{"no session", "", "", 401},
		{"a bad bearer beside a session", "ana", "nope", 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", srv.URL+"/media/photos/a?size=thumb", nil)
			if tc.session != "" {
				req.AddCookie(&http.Cookie{Name: "s", Value: tc.session})
			}
			if tc.bearer != "" {
				req.Header.Set("Authorization", "Bearer "+tc.bearer)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
		})
	}
}
