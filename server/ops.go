package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/wire"
)

// operations are the routes for operators: liveness, readiness, metrics
// and the OpenAPI description. None needs a key.
func (s *Server) operations() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodGet, Path: "/healthz", Summary: "Liveness: the process answers and reaches the database", Handler: s.healthz, Public: true, Response: wire.Health{}},
		{Method: http.MethodGet, Path: "/readyz", Summary: "Readiness: the database answers and has every migration", Handler: s.readyz, Public: true, Response: wire.Health{}},
		{Method: http.MethodGet, Path: "/metrics", Summary: "Prometheus metrics", Handler: echo.WrapHandler(s.metrics.Handler()), Public: true},
		{Method: http.MethodGet, Path: "/openapi.json", Summary: "This OpenAPI description", Handler: s.openAPI, Public: true},
	}
}

// healthz answers while the process runs and reaches its database.
func (s *Server) healthz(c echo.Context) error {
	if err := s.data.Health(httpx.Ctx(c)); err != nil {
		httpx.Logger(c, s.log).Warn("health check: the database does not answer", "err", err)
		return c.JSON(http.StatusServiceUnavailable, wire.Health{Status: "unavailable", Reason: "database unreachable"})
	}
	return c.JSON(http.StatusOK, wire.Health{Status: "ok"})
}

// readyz answers 200 once the database answers and has every migration
// this binary embeds, so that a load balancer sends no traffic before.
func (s *Server) readyz(c echo.Context) error {
	reason, err := s.data.Ready(httpx.Ctx(c))
	if err != nil {
		return errcode.Wrap(errcode.Internal, err, "checking migrations")
	}
	if reason != "" {
		httpx.Logger(c, s.log).Warn("readiness: not ready", "reason", reason)
		return c.JSON(http.StatusServiceUnavailable, wire.Health{Status: "unavailable", Reason: reason})
	}
	return c.JSON(http.StatusOK, wire.Health{Status: "ok"})
}

// openAPI serves the OpenAPI 3.1 description of the documented routes.
func (s *Server) openAPI(c echo.Context) error {
	return c.JSON(http.StatusOK, httpx.OpenAPI(s.documented))
}
