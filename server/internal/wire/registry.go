package wire

import (
	"encoding/json"
	"time"
)

// tripgraph's own routes (the MCP server registry and tool outputs) name
// their members in camelCase, as the model sees a stored output's
// outputId; the LangGraph routes keep that API's snake_case.

// MCPServer is one of the user's MCP servers. Its secret is never shown:
// HasSecret says whether one is stored.
type MCPServer struct {
	ID           string    `json:"id"`
	Name         string    `json:"name"`
	URL          string    `json:"url"`
	Transport    string    `json:"transport"`
	AuthType     string    `json:"authType"`
	AuthHeader   string    `json:"authHeader,omitempty"`
	HasSecret    bool      `json:"hasSecret"`
	Enabled      bool      `json:"enabled"`
	AllowedTools []string  `json:"allowedTools"`
	TimeoutMS    int       `json:"timeoutMs"`
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`
}

// MCPServerCreate is the body of POST /mcp-servers. Enabled defaults to
// true; the store checks the URL, transport, auth and limits.
type MCPServerCreate struct {
	Name         string   `json:"name" validate:"required"`
	URL          string   `json:"url" validate:"required"`
	Transport    string   `json:"transport"`
	AuthType     string   `json:"authType"`
	AuthHeader   string   `json:"authHeader"`
	Secret       *string  `json:"secret"`
	Enabled      *bool    `json:"enabled"`
	AllowedTools []string `json:"allowedTools"`
	TimeoutMS    int      `json:"timeoutMs" validate:"min=0"`
}

// MCPServerPatch is the body of PATCH /mcp-servers/{id}: the members sent
// replace the stored ones. A secret absent keeps the stored one; authType
// "none" drops it.
type MCPServerPatch struct {
	Name         *string   `json:"name"`
	URL          *string   `json:"url"`
	Transport    *string   `json:"transport"`
	AuthType     *string   `json:"authType"`
	AuthHeader   *string   `json:"authHeader"`
	Secret       *string   `json:"secret"`
	Enabled      *bool     `json:"enabled"`
	AllowedTools *[]string `json:"allowedTools"`
	TimeoutMS    *int      `json:"timeoutMs" validate:"omitempty,min=0"`
}

// MCPSettings say whether the user's MCP servers are called to enrich a
// message before the model is asked, and which (none listed: every
// enabled server).
type MCPSettings struct {
	ToolMCP        bool     `json:"toolMcp"`
	ToolMCPServers []string `json:"toolMcpServers"`
}

// MCPSettingsUpdate is the body of PUT /mcp-servers/settings; it replaces
// the settings whole.
type MCPSettingsUpdate struct {
	ToolMCP        *bool    `json:"toolMcp" validate:"required"`
	ToolMCPServers []string `json:"toolMcpServers" validate:"max=100,dive,uuid"`
}

// ToolOutput is the full copy of a tool result too large to give the
// model whole.
type ToolOutput struct {
	ID        string          `json:"id"`
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Data      json.RawMessage `json:"data"`
	CreatedAt time.Time       `json:"createdAt"`
}
