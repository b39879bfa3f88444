package httpx

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// CORS answers the preflight of a listed origin's page and marks its
// answers readable, on the routes it serves only; any other origin, and
// any other route, gets no CORS header; credentials are never allowed.
func TestCORS(t *testing.T) {
	e := echo.New()
	e.Pre(CORS([]string{"http://localhost:3000"}, func(path string) bool { return strings.HasPrefix(path, "/threads") }))
	for _, p := range []string{"/threads", "/app"} {
		e.POST(p, func(c echo.Context) error { return c.String(http.StatusOK, "ok") })
	}
	tests := []struct {
		name, method, path, origin string
		preflight                  bool
		status                     int
		allowed                    string
	}{
		{"preflight of a listed origin", http.MethodOptions, "/threads", "http://localhost:3000", true, http.StatusNoContent, "http://localhost:3000"},
		{"a listed origin's request", http.MethodPost, "/threads", "http://localhost:3000", false, http.StatusOK, "http://localhost:3000"},
		{"another origin", http.MethodPost, "/threads", "https://evil.example", false, http.StatusOK, ""},
		{"another origin's preflight", http.MethodOptions, "/threads", "https://evil.example", true, http.StatusNoContent, ""}, // echo's own answer, without CORS
		{"a page route", http.MethodPost, "/app", "http://localhost:3000", false, http.StatusOK, ""},
		{"no origin", http.MethodPost, "/threads", "", false, http.StatusOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.path, nil)
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			if tt.preflight {
				req.Header.Set("Access-Control-Request-Method", "POST")
				req.Header.Set("Access-Control-Request-Headers", "x-api-key, content-type")
			}
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			h := rec.Header()
			if rec.Code != tt.status || h.Get("Access-Control-Allow-Origin") != tt.allowed {
				t.Fatalf("%d, Allow-Origin %q; want %d, %q", rec.Code, h.Get("Access-Control-Allow-Origin"), tt.status, tt.allowed)
			}
			if h.Get("Access-Control-Allow-Credentials") != "" {
				t.Fatal("credentials allowed")
			}
			if tt.allowed != "" && tt.preflight && !strings.Contains(h.Get("Access-Control-Allow-Headers"), "x-api-key") {
				t.Fatalf("preflight allows headers %q", h.Get("Access-Control-Allow-Headers"))
			}
			if tt.allowed != "" && !tt.preflight && !strings.Contains(h.Get("Access-Control-Expose-Headers"), "Content-Location") {
				t.Fatalf("exposed headers %q", h.Get("Access-Control-Expose-Headers"))
			}
		})
	}
}
