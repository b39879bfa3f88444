package mcpservers

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/errcode"
)

// Settings say whether tools of the user's MCP servers are called to
// enrich a message before the model is asked (off unless turned on), and
// on which servers.
type Settings struct {
	ToolMCP        bool     `json:"toolMcp"`
	ToolMCPServers []string `json:"toolMcpServers"` // server ids; empty: every enabled server
}

// Settings returns userID's settings; a user who never set them has
// enrichment off. Ids of servers deleted since are left out.
func (r Registry) Settings(ctx context.Context, userID string) (Settings, error) {
	out := Settings{ToolMCPServers: []string{}}
	err := r.Pool.QueryRow(ctx, `
		SELECT us.tool_mcp,
			array(SELECT m.id::text FROM unnest(us.tool_mcp_servers) WITH ORDINALITY AS sel(id, n)
				JOIN mcp_servers m ON m.id = sel.id AND m.user_id = us.user_id ORDER BY sel.n)
		FROM user_settings us WHERE us.user_id::text = $1`, userID).Scan(&out.ToolMCP, &out.ToolMCPServers)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return Settings{}, fmt.Errorf("reading MCP settings: %w", err)
	}
	return out, nil
}

// Servers are the ids of the servers the settings name, each once, in
// the order they first come.
func (s Settings) Servers() []string {
	ids := []string{}
	for _, id := range s.ToolMCPServers {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// SetSettings replaces userID's settings. Every server id must be one of
// the user's servers, or it is NOT_FOUND.
func (r Registry) SetSettings(ctx context.Context, userID string, set Settings) error {
	ids := set.Servers()
	return pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		var mine []string
		rows, err := tx.Query(ctx, `SELECT id::text FROM mcp_servers WHERE user_id::text = $1 AND id::text = ANY($2)`, userID, ids)
		if err != nil {
			return fmt.Errorf("checking the servers of the MCP settings: %w", err)
		}
		if mine, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			return fmt.Errorf("checking the servers of the MCP settings: %w", err)
		}
		for _, id := range ids {
			if !slices.Contains(mine, id) {
				return errcode.New(errcode.NotFound, "no MCP server with id %q", id)
			}
		}
		_, err = tx.Exec(ctx, `
			INSERT INTO user_settings (user_id, tool_mcp, tool_mcp_servers) VALUES ($1, $2, $3::text[]::uuid[])
			ON CONFLICT (user_id) DO UPDATE SET tool_mcp = EXCLUDED.tool_mcp,
				tool_mcp_servers = EXCLUDED.tool_mcp_servers, updated_at = now()`, userID, set.ToolMCP, ids)
		if err != nil {
			return writeError(err, "", "saving MCP settings")
		}
		return nil
	})
}
