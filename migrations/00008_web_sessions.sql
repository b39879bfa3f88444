-- +goose Up

-- Browser sessions, shared by every serve process. The cookie carries a
-- random token; only its SHA-256 hash is stored. Forms must send back the
-- session's CSRF token.
CREATE TABLE web_sessions (
    token_hash  bytea PRIMARY KEY,
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf_token  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL
);
CREATE INDEX web_sessions_user_idx ON web_sessions (user_id);
CREATE INDEX web_sessions_expiry_idx ON web_sessions (expires_at);

-- One-time login links (what `serve --welcome` prints): a hashed token
-- that opens a session for its user once, before it expires.
CREATE TABLE login_links (
    token_hash  bytea PRIMARY KEY,
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL
);
CREATE INDEX login_links_expiry_idx ON login_links (expires_at);

-- +goose Down
DROP TABLE login_links;
DROP TABLE web_sessions;
