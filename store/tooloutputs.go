package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tripgraph/tripgraph/errcode"
)

// ToolOutput is the full copy of a tool result that was too large to give
// the model whole.
type ToolOutput struct {
	ID        string          `json:"id"`
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Data      json.RawMessage `json:"data"`
	CreatedAt time.Time       `json:"createdAt"`
}

// SaveToolOutput stores a full tool result for the owner and returns its
// id. The bytes are kept as given.
func (o Owner) SaveToolOutput(ctx context.Context, server, tool string, data json.RawMessage) (string, error) {
	if server == "" || tool == "" {
		return "", errcode.New(errcode.BadRequest, "a tool output needs its server and tool")
	}
	if !json.Valid(data) {
		return "", errcode.New(errcode.BadRequest, "a tool output must be JSON")
	}
	var id string
	err := o.s.Pool.QueryRow(ctx, `INSERT INTO tool_outputs (user_id, server, tool, data) VALUES ($1, $2, $3, $4::text::json)
		RETURNING id::text`, o.id, server, tool, string(data)).Scan(&id)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && (pgErr.Code == "23503" || pgErr.Code == "22P02") {
		return "", errcode.New(errcode.NotFound, "no such user")
	}
	if err != nil {
		return "", fmt.Errorf("storing a tool output: %w", err)
	}
	return id, nil
}

// ToolOutput returns one of the owner's tool outputs; another user's is
// NOT_FOUND.
func (o Owner) ToolOutput(ctx context.Context, id string) (ToolOutput, error) {
	var out ToolOutput
	var data string
	err := o.s.Pool.QueryRow(ctx, `SELECT id::text, server, tool, data::text, created_at FROM tool_outputs
		WHERE id::text = $1 AND user_id::text = $2`, id, o.id).Scan(&out.ID, &out.Server, &out.Tool, &data, &out.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return ToolOutput{}, errcode.New(errcode.NotFound, "no tool output with id %q", id)
	}
	if err != nil {
		return ToolOutput{}, fmt.Errorf("reading tool output %s: %w", id, err)
	}
	out.Data = json.RawMessage(data)
	return out, nil
}

// PruneToolOutputs deletes every tool output stored before t and says how
// many went.
func (s *Store) PruneToolOutputs(ctx context.Context, before time.Time) (int64, error) {
	tag, err := s.Pool.Exec(ctx, `DELETE FROM tool_outputs /* any owner: retention */ WHERE created_at < $1`, before)
	if err != nil {
		return 0, fmt.Errorf("pruning tool outputs: %w", err)
	}
	return tag.RowsAffected(), nil
}
