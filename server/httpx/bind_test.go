package httpx

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
)

// A JSON body sent as text/plain (what a proxy's fetch of a string sends)
// is read only where the request is marked as authenticated by a header,
// never on a route a cookie authenticates.
func TestBindTextPlainOnlyWhenAllowed(t *testing.T) {
	for _, allowed := range []bool{false, true} {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"name":"x"}`))
		req.Header.Set("Content-Type", "text/plain;charset=UTF-8")
		c := echo.New().NewContext(req, httptest.NewRecorder())
		if allowed {
			AllowTextJSON(c)
		}
		var v struct {
			Name string `json:"name"`
		}
		err := Bind(c, &v)
		switch {
		case allowed && (err != nil || v.Name != "x"):
			t.Errorf("allowed: %v, %+v", err, v)
		case !allowed && errcode.Of(err) != errcode.UnsupportedMedia:
			t.Errorf("not allowed: %v, want UNSUPPORTED_MEDIA", err)
		}
	}
}

func TestTextProblem(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want bool // a problem
	}{
		{`{"a":"plain"}`, false},
		{`{"a":"caf\u00e9 \ud83d\ude00"}`, false},
		{`{"a":"escaped backslash \\u0000 is text"}`, false},
		{`{"a":"\u0000"}`, true},
		{`{"a":"x\u0000y"}`, true},
		{`{"a":"\ud800"}`, true},
		{`{"a":"\ud800x"}`, true},
		{`{"a":"\udc00"}`, true},
		{`{"a":"\ud800\u0041"}`, true},
		{"{\"a\":\"\xff\"}", true},
	} {
		if got := TextProblem([]byte(tc.raw)) != ""; got != tc.want {
			t.Errorf("TextProblem(%q) = %q, want a problem: %v", tc.raw, TextProblem([]byte(tc.raw)), tc.want)
		}
	}
}
