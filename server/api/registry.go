package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store/mcpservers"
)

// listMCPServers lists the user's MCP servers by name.
func (s *API) listMCPServers(c echo.Context) error {
	list, err := tenantOf(c).Servers.List(httpx.Ctx(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromMCPServers(list))
}

// createMCPServer adds an MCP server for the user. The store vets its URL
// through the SSRF guard and seals its secret.
func (s *API) createMCPServer(c echo.Context) error {
	var in wire.MCPServerCreate
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	m, err := tenantOf(c).Servers.Create(httpx.Ctx(c), wire.ToMCPServerInput(in))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, wire.FromMCPServer(m))
}

// getMCPServer returns one of the user's MCP servers.
func (s *API) getMCPServer(c echo.Context) error {
	m, err := tenantOf(c).Servers.Get(httpx.Ctx(c), c.Param("server_id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromMCPServer(m))
}

// patchMCPServer changes the members of a server's config the body sends.
func (s *API) patchMCPServer(c echo.Context) error {
	var p wire.MCPServerPatch
	if err := httpx.Bind(c, &p); err != nil {
		return err
	}
	m, err := tenantOf(c).Servers.Modify(httpx.Ctx(c), c.Param("server_id"), func(cur mcpservers.Server) mcpservers.Input {
		return wire.PatchMCPServer(cur, p)
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromMCPServer(m))
}

// deleteMCPServer removes one of the user's MCP servers.
func (s *API) deleteMCPServer(c echo.Context) error {
	if err := tenantOf(c).Servers.Delete(httpx.Ctx(c), c.Param("server_id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// getMCPSettings returns the user's enrichment settings.
func (s *API) getMCPSettings(c echo.Context) error {
	set, err := tenantOf(c).Servers.Settings(httpx.Ctx(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromMCPSettings(set))
}

// putMCPSettings replaces the user's enrichment settings.
func (s *API) putMCPSettings(c echo.Context) error {
	var in wire.MCPSettingsUpdate
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	if in.ToolMCP == nil { // an empty body binds nothing
		return httpx.InvalidField("toolMcp", "is required")
	}
	if err := tenantOf(c).Servers.SetSettings(httpx.Ctx(c), wire.ToMCPSettings(in)); err != nil {
		return err
	}
	return s.getMCPSettings(c)
}

// getToolOutput returns the full copy of one of the user's large tool
// results.
func (s *API) getToolOutput(c echo.Context) error {
	o, err := tenantOf(c).ToolOutput(httpx.Ctx(c), c.Param("output_id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromToolOutput(o))
}
