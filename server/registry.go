package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store"
)

// listMCPServers lists the user's MCP servers by name.
func (s *Server) listMCPServers(c echo.Context) error {
	list, err := s.registry.List(ctx(c), owner(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromMCPServers(list))
}

// createMCPServer adds an MCP server for the user. The store vets its URL
// through the SSRF guard and seals its secret.
func (s *Server) createMCPServer(c echo.Context) error {
	var in wire.MCPServerCreate
	if err := bind(c, &in); err != nil {
		return err
	}
	m, err := s.registry.Create(ctx(c), owner(c), wire.ToMCPServerInput(in))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, wire.FromMCPServer(m))
}

// getMCPServer returns one of the user's MCP servers.
func (s *Server) getMCPServer(c echo.Context) error {
	m, err := s.registry.Get(ctx(c), owner(c), c.Param("server_id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromMCPServer(m))
}

// patchMCPServer changes the members of a server's config the body sends.
func (s *Server) patchMCPServer(c echo.Context) error {
	var p wire.MCPServerPatch
	if err := bind(c, &p); err != nil {
		return err
	}
	m, err := s.registry.Modify(ctx(c), owner(c), c.Param("server_id"), func(cur store.MCPServer) store.MCPServerInput {
		return wire.PatchMCPServer(cur, p)
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromMCPServer(m))
}

// deleteMCPServer removes one of the user's MCP servers.
func (s *Server) deleteMCPServer(c echo.Context) error {
	if err := s.registry.Delete(ctx(c), owner(c), c.Param("server_id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// getMCPSettings returns the user's enrichment settings.
func (s *Server) getMCPSettings(c echo.Context) error {
	set, err := s.store.MCPSettings(ctx(c), owner(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromMCPSettings(set))
}

// putMCPSettings replaces the user's enrichment settings.
func (s *Server) putMCPSettings(c echo.Context) error {
	var in wire.MCPSettingsUpdate
	if err := bind(c, &in); err != nil {
		return err
	}
	if in.ToolMCP == nil { // an empty body binds nothing
		return invalid([]wire.FieldError{{Field: "toolMcp", Message: "is required"}})
	}
	if err := s.store.SetMCPSettings(ctx(c), owner(c), wire.ToMCPSettings(in)); err != nil {
		return err
	}
	return s.getMCPSettings(c)
}

// getToolOutput returns the full copy of one of the user's large tool
// results.
func (s *Server) getToolOutput(c echo.Context) error {
	o, err := s.store.ToolOutput(ctx(c), owner(c), c.Param("output_id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromToolOutput(o))
}
