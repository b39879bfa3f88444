package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/server/internal/wire"
)

// healthz answers while the process runs and reaches its database.
func (s *Server) healthz(c echo.Context) error {
	if err := s.store.Pool.Ping(ctx(c)); err != nil {
		s.logger(c).Warn("health check: the database does not answer", "err", err)
		return c.JSON(http.StatusServiceUnavailable, wire.Health{Status: "unavailable", Reason: "database unreachable"})
	}
	return c.JSON(http.StatusOK, wire.Health{Status: "ok"})
}

// readyz answers 200 once the database answers and has every migration
// this binary embeds, so that a load balancer sends no traffic before.
func (s *Server) readyz(c echo.Context) error {
	if err := s.store.Pool.Ping(ctx(c)); err != nil {
		s.logger(c).Warn("readiness: the database does not answer", "err", err)
		return c.JSON(http.StatusServiceUnavailable, wire.Health{Status: "unavailable", Reason: "database unreachable"})
	}
	pending, err := migrations.Pending(ctx(c), s.db)
	if err != nil {
		return errcode.Wrap(errcode.Internal, err, "checking migrations")
	}
	if pending {
		return c.JSON(http.StatusServiceUnavailable, wire.Health{Status: "unavailable", Reason: "migrations pending"})
	}
	return c.JSON(http.StatusOK, wire.Health{Status: "ok"})
}
