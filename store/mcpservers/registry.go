// Package mcpservers keeps the MCP servers users add and their enrichment
// settings: every URL is vetted by the SSRF guard when it is saved, every
// credential is sealed, and each user sees only their own servers.
package mcpservers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/secretbox"
)

// The transports a user may configure: HTTP only. Servers that run as
// commands (stdio) are configured by the operator and never stored.
const (
	TransportStreamableHTTP = "streamable-http"
	TransportSSE            = "sse"
)

// How the bridge authenticates to a user's server.
const (
	AuthNone   = "none"   // no credential
	AuthBearer = "bearer" // Authorization: Bearer <secret>
	AuthHeader = "header" // <AuthHeader>: <secret>
)

// DefaultTimeout is a server's call deadline when none is given.
const DefaultTimeout = 10 * time.Second

// Server is a user's MCP server as stored. It never holds the secret,
// only whether there is one.
type Server struct {
	ID           string    `json:"id"`
	Name         string    `json:"name"`
	URL          string    `json:"url"`
	Transport    string    `json:"transport"`
	AuthType     string    `json:"authType"`
	AuthHeader   string    `json:"authHeader,omitempty"`
	HasSecret    bool      `json:"hasSecret"`
	Enabled      bool      `json:"enabled"`
	AllowedTools []string  `json:"allowedTools"` // empty: every tool the server lists
	TimeoutMS    int       `json:"timeoutMs"`
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`
}

// Timeout is the server's call deadline.
func (m Server) Timeout() time.Duration { return time.Duration(m.TimeoutMS) * time.Millisecond }

// Input is a server config to create, or to replace one with.
type Input struct {
	Name         string
	URL          string
	Transport    string // TransportStreamableHTTP (the default) or TransportSSE
	AuthType     string // AuthNone (the default), AuthBearer or AuthHeader
	AuthHeader   string // the header's name, for AuthHeader
	Secret       *string
	Enabled      bool
	AllowedTools []string
	TimeoutMS    int // 0: DefaultTimeout
}

// WithSecret is a server with its secret opened, for the bridge
// that connects to it.
type WithSecret struct {
	Server
	Secret string
}

// Headers are the HTTP headers that carry the server's credential: none,
// "Authorization: Bearer <secret>", or the named header with the secret.
// Send them to the server's own host only.
func (m WithSecret) Headers() map[string]string {
	switch {
	case m.Secret == "" || m.AuthType == AuthNone:
		return nil
	case m.AuthType == AuthHeader:
		return map[string]string{m.AuthHeader: m.Secret}
	}
	return map[string]string{"Authorization": "Bearer " + m.Secret}
}

// Registry is the per-user MCP server registry. Every method takes the
// owner's id and never sees another owner's servers: those are NOT_FOUND.
type Registry struct {
	Pool  *pgxpool.Pool
	Guard *netguard.Guard // vets URLs when they are saved
	Box   *secretbox.Box  // seals secrets; nil refuses servers with one
}

const serverColumns = `id, name, url, transport, auth_type, auth_header, secret IS NOT NULL,
	enabled, allowed_tools, timeout_ms, created_at, updated_at`

func scanServer(row pgx.Row, extra ...any) (Server, error) {
	var m Server
	dest := append([]any{&m.ID, &m.Name, &m.URL, &m.Transport, &m.AuthType, &m.AuthHeader, &m.HasSecret,
		&m.Enabled, &m.AllowedTools, &m.TimeoutMS, &m.CreatedAt, &m.UpdatedAt}, extra...)
	err := row.Scan(dest...)
	return m, err
}

// vetter checks and seals with the registry's guard and box.
func (r Registry) vetter() Vetter { return Vetter{Guard: r.Guard, Box: r.Box} }

// Create stores a new server for userID.
func (r Registry) Create(ctx context.Context, userID string, in Input) (Server, error) {
	in, err := r.vetter().Check(in, false)
	if err != nil {
		return Server{}, err
	}
	id := uuid.Must(uuid.NewV7()).String()
	sealed, err := r.vetter().Secret(id, in, nil)
	if err != nil {
		return Server{}, err
	}
	m, err := scanServer(r.Pool.QueryRow(ctx, `
		INSERT INTO mcp_servers (id, user_id, name, url, transport, auth_type, auth_header, secret, enabled, allowed_tools, timeout_ms)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		RETURNING `+serverColumns,
		id, userID, in.Name, in.URL, in.Transport, in.AuthType, in.AuthHeader, sealed, in.Enabled, in.AllowedTools, in.TimeoutMS))
	if err != nil {
		return Server{}, writeError(err, in.Name, "adding an MCP server")
	}
	return m, nil
}

// Update replaces a server's config. A nil Secret keeps the stored one.
func (r Registry) Update(ctx context.Context, userID, id string, in Input) (Server, error) {
	return r.Modify(ctx, userID, id, func(Server) Input { return in })
}

// Modify replaces a server's config with what change makes of the stored
// one, read and written in one transaction, so that concurrent changes to
// different members are not lost. A nil Secret keeps the stored one.
func (r Registry) Modify(ctx context.Context, userID, id string, change func(Server) Input) (Server, error) {
	var out Server
	err := pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		var stored []byte
		cur, err := scanServer(tx.QueryRow(ctx, `SELECT `+serverColumns+`, secret FROM mcp_servers
			WHERE id::text = $1 AND user_id::text = $2 FOR UPDATE`, id, userID), &stored)
		if errors.Is(err, pgx.ErrNoRows) {
			return errcode.New(errcode.NotFound, "no MCP server with id %q", id)
		}
		if err != nil {
			return fmt.Errorf("reading MCP server %s: %w", id, err)
		}
		in, err := r.vetter().Check(change(cur), cur.HasSecret)
		if err != nil {
			return err
		}
		sealed, err := r.vetter().Secret(cur.ID, in, stored)
		if err != nil {
			return err
		}
		out, err = scanServer(tx.QueryRow(ctx, `
			UPDATE mcp_servers SET name = $2, url = $3, transport = $4, auth_type = $5, auth_header = $6, secret = $7,
				enabled = $8, allowed_tools = $9, timeout_ms = $10, updated_at = now()
			WHERE id = $1 AND user_id::text = $11
			RETURNING `+serverColumns,
			cur.ID, in.Name, in.URL, in.Transport, in.AuthType, in.AuthHeader, sealed, in.Enabled, in.AllowedTools, in.TimeoutMS, userID))
		if err != nil {
			return writeError(err, in.Name, "updating an MCP server")
		}
		return nil
	})
	return out, err
}

// Get returns one of userID's servers.
func (r Registry) Get(ctx context.Context, userID, id string) (Server, error) {
	m, err := scanServer(r.Pool.QueryRow(ctx, `SELECT `+serverColumns+` FROM mcp_servers
		WHERE id::text = $1 AND user_id::text = $2`, id, userID))
	if errors.Is(err, pgx.ErrNoRows) {
		return Server{}, errcode.New(errcode.NotFound, "no MCP server with id %q", id)
	}
	if err != nil {
		return Server{}, fmt.Errorf("reading MCP server %s: %w", id, err)
	}
	return m, nil
}

// List returns userID's servers by name.
func (r Registry) List(ctx context.Context, userID string) ([]Server, error) {
	rows, err := r.Pool.Query(ctx, `SELECT `+serverColumns+` FROM mcp_servers
		WHERE user_id::text = $1 ORDER BY name`, userID)
	if err != nil {
		return nil, fmt.Errorf("listing MCP servers: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Server, error) { return scanServer(row) })
	if err != nil {
		return nil, fmt.Errorf("listing MCP servers: %w", err)
	}
	return list, nil
}

// Enabled returns userID's enabled servers with their secrets opened: what
// the bridge needs to connect. It is the only way a secret leaves the store.
// A server whose secret does not open (the key changed) is logged and left
// out.
func (r Registry) Enabled(ctx context.Context, userID string) ([]WithSecret, error) {
	rows, err := r.Pool.Query(ctx, `SELECT `+serverColumns+`, secret FROM mcp_servers
		WHERE user_id::text = $1 AND enabled ORDER BY name`, userID)
	if err != nil {
		return nil, fmt.Errorf("listing enabled MCP servers: %w", err)
	}
	type sealedServer struct {
		Server
		sealed []byte
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (sealedServer, error) {
		var s sealedServer
		var err error
		s.Server, err = scanServer(row, &s.sealed)
		return s, err
	})
	if err != nil {
		return nil, fmt.Errorf("listing enabled MCP servers: %w", err)
	}
	out := make([]WithSecret, 0, len(list))
	for _, s := range list {
		secret, err := r.vetter().Open(s.ID, s.sealed)
		if err != nil { // a changed key: this server is skipped, the others still work
			slog.WarnContext(ctx, "skipping an MCP server whose secret does not open", "server", s.ID, "err", err)
			continue
		}
		out = append(out, WithSecret{Server: s.Server, Secret: secret})
	}
	return out, nil
}

// Delete removes one of userID's servers, and its id from the user's
// enrichment settings.
func (r Registry) Delete(ctx context.Context, userID, id string) error {
	return pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM mcp_servers WHERE id::text = $1 AND user_id::text = $2`, id, userID)
		if err != nil {
			return fmt.Errorf("deleting MCP server %s: %w", id, err)
		}
		if tag.RowsAffected() == 0 {
			return errcode.New(errcode.NotFound, "no MCP server with id %q", id)
		}
		if _, err := tx.Exec(ctx, `UPDATE user_settings SET tool_mcp_servers = array_remove(tool_mcp_servers, $1::uuid)
			WHERE user_id::text = $2`, id, userID); err != nil {
			return fmt.Errorf("removing MCP server %s from the settings: %w", id, err)
		}
		return nil
	})
}

// writeError turns constraint violations into coded errors.
func writeError(err error, name, doing string) error {
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == "23505":
		return errcode.New(errcode.Conflict, "an MCP server named %q exists already", name)
	case errors.As(err, &pgErr) && pgErr.Code == "23503":
		return errcode.New(errcode.NotFound, "no such user")
	case errors.As(err, &pgErr) && pgErr.Code == "22P02":
		return errcode.New(errcode.NotFound, "no such user")
	case errors.As(err, &pgErr) && pgErr.Code == "23514": // a check the validation missed
		return errcode.Wrap(errcode.BadRequest, err, "the MCP server config is not valid")
	}
	return fmt.Errorf("%s: %w", doing, err)
}

// Owned is one user's servers and settings: every method reaches that
// user's only. Build it where the user is known (ForOwner) and pass it on.
type Owned struct {
	r      Registry
	userID string
}

// ForOwner is userID's part of the registry.
func (r Registry) ForOwner(userID string) Owned { return Owned{r: r, userID: userID} }

// List lists the owner's servers by name.
func (o Owned) List(ctx context.Context) ([]Server, error) { return o.r.List(ctx, o.userID) }

// Create stores a new server of the owner's.
func (o Owned) Create(ctx context.Context, in Input) (Server, error) {
	return o.r.Create(ctx, o.userID, in)
}

// Get returns one of the owner's servers.
func (o Owned) Get(ctx context.Context, id string) (Server, error) { return o.r.Get(ctx, o.userID, id) }

// Modify changes one of the owner's servers (see Registry.Modify).
func (o Owned) Modify(ctx context.Context, id string, change func(Server) Input) (Server, error) {
	return o.r.Modify(ctx, o.userID, id, change)
}

// Delete removes one of the owner's servers.
func (o Owned) Delete(ctx context.Context, id string) error { return o.r.Delete(ctx, o.userID, id) }

// Settings are the owner's enrichment settings.
func (o Owned) Settings(ctx context.Context) (Settings, error) { return o.r.Settings(ctx, o.userID) }

// Enabled are the owner's enabled servers, with their credentials.
func (o Owned) Enabled(ctx context.Context) ([]WithSecret, error) { return o.r.Enabled(ctx, o.userID) }

// SetSettings replaces the owner's enrichment settings.
func (o Owned) SetSettings(ctx context.Context, s Settings) error {
	return o.r.SetSettings(ctx, o.userID, s)
}
