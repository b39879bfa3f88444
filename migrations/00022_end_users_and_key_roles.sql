-- +goose Up

-- What an API key may do besides acting as its user: «backend» keys may
-- act for the end users of the app that holds them (when the operator
-- allows it), «operator» keys may manage every user's keys.
ALTER TABLE api_keys ADD COLUMN role text NOT NULL DEFAULT 'user'
    CHECK (role IN ('user', 'backend', 'operator'));

-- The key a browser session was opened with, if any: revoking the key
-- ends the session.
ALTER TABLE web_sessions ADD COLUMN api_key_id uuid REFERENCES api_keys (id) ON DELETE CASCADE;
CREATE INDEX web_sessions_api_key_idx ON web_sessions (api_key_id) WHERE api_key_id IS NOT NULL;

-- End users known by an identity provider's issuer and their subject
-- there (or by a backend key's user and the id it gives): each is a
-- tripgraph user, made on first sight.
CREATE TABLE user_identities (
    issuer      text NOT NULL CHECK (length(issuer) BETWEEN 1 AND 512),
    subject     text NOT NULL CHECK (length(subject) BETWEEN 1 AND 512),
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (issuer, subject)
);
CREATE INDEX user_identities_user_idx ON user_identities (user_id);

-- +goose Down
DROP TABLE user_identities;
DROP INDEX web_sessions_api_key_idx;
ALTER TABLE web_sessions DROP COLUMN api_key_id;
ALTER TABLE api_keys DROP COLUMN role;
