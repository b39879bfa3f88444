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
