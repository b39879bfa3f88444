-- +goose Up
-- The MCP servers each user adds. Users may add only HTTP servers
-- (Streamable HTTP or the legacy HTTP+SSE transport): servers that run as
-- local commands are configured by the operator, never stored here.
CREATE TABLE mcp_servers (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name          text NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$'),
    url           text NOT NULL CHECK (url ~ '^https?://' AND length(url) <= 2048),
    transport     text NOT NULL CHECK (transport IN ('streamable-http', 'sse')),
    auth_type     text NOT NULL DEFAULT 'none' CHECK (auth_type IN ('none', 'bearer', 'header')),
    auth_header   text NOT NULL DEFAULT '',
    -- AES-256-GCM sealed, bound to the row's id; NULL exactly when auth_type is 'none'.
    secret        bytea,
    enabled       boolean NOT NULL DEFAULT true,
    -- the tools the model may see; empty means every tool the server lists
    allowed_tools text[] NOT NULL DEFAULT '{}',
    timeout_ms    integer NOT NULL DEFAULT 10000 CHECK (timeout_ms BETWEEN 100 AND 120000),
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, name),
    CHECK ((auth_type = 'none') = (secret IS NULL)),
    CHECK ((auth_type = 'header') = (auth_header <> ''))
);

-- Per-user settings. tool_mcp turns enrichment on: selected tools of the
-- user's servers are called before the model is asked. tool_mcp_servers
-- narrows it to these servers; empty means every enabled server.
CREATE TABLE user_settings (
    user_id          uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    tool_mcp         boolean NOT NULL DEFAULT false,
    tool_mcp_servers uuid[] NOT NULL DEFAULT '{}',
    updated_at       timestamptz NOT NULL DEFAULT now()
);

-- Full copies of tool results too large to hand to the model, which gets a
-- summary, a preview and the id. json (not jsonb) keeps the bytes as sent.
CREATE TABLE tool_outputs (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    server     text NOT NULL,
    tool       text NOT NULL,
    data       json NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tool_outputs_user_idx ON tool_outputs (user_id, created_at);
CREATE INDEX tool_outputs_created_idx ON tool_outputs (created_at);

-- +goose Down
DROP TABLE tool_outputs;
DROP TABLE user_settings;
DROP TABLE mcp_servers;
