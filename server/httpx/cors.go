package httpx

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
)

// CORS lets the pages of the listed origins call the routes serves
// matches, with an API key: it answers their preflight requests, and marks
// their answers readable by them. It never allows credentials, so a
// browser sends no cookie with such a request and shows a page no answer
// to one that carried a cookie: only an API key in a header authenticates
// a cross-origin call. Other origins, and requests with no Origin, pass
// through untouched; with no origins listed, CORS is off.
func CORS(origins []string, serves func(path string) bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			origin := c.Request().Header.Get("Origin")
			if origin == "" || !slices.Contains(origins, origin) || !serves(c.Request().URL.Path) {
				return next(c)
			}
			h := c.Response().Header()
			h.Add("Vary", "Origin")
			h.Set("Access-Control-Allow-Origin", origin)
			if c.Request().Method == http.MethodOptions && c.Request().Header.Get("Access-Control-Request-Method") != "" {
				h.Add("Vary", "Access-Control-Request-Method")
				h.Add("Vary", "Access-Control-Request-Headers")
				h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE")
				h.Set("Access-Control-Allow-Headers", strings.Join(corsHeaders, ", "))
				h.Set("Access-Control-Max-Age", "600")
				return c.NoContent(http.StatusNoContent)
			}
			h.Set("Access-Control-Expose-Headers", strings.Join(corsExposed, ", "))
			return next(c)
		}
	}
}

// corsHeaders are the request headers a page of an allowed origin may
// send: its credential, its body's type, where a stream resumes.
var corsHeaders = []string{"x-api-key", "authorization", "content-type", "last-event-id"}

// corsExposed are the answer headers such a page may read: where a run is
// (LangGraph's clients read the run's id from it), the pagination totals,
// the request id, when to retry.
var corsExposed = []string{"Content-Location", "Location", "X-Pagination-Total", "X-Pagination-Next", "X-Request-Id", "Retry-After"}
