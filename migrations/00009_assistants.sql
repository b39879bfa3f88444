-- +goose Up

-- Assistants: a user's configurations of a graph, as LangGraph has them.
-- The built-in trip-planner assistant is not stored: every user has it.
-- version is the assistant's current version; every version, the current
-- one included, is a row of assistant_versions.
CREATE TABLE assistants (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    owner_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    graph_id    text NOT NULL,
    name        text NOT NULL,
    description text,
    config      jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(config) = 'object'),
    context     jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(context) = 'object'),
    metadata    jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
    version     integer NOT NULL DEFAULT 1,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assistants_owner_created_idx ON assistants (owner_id, created_at DESC, id DESC);
CREATE INDEX assistants_metadata_idx ON assistants USING gin (metadata jsonb_path_ops);

CREATE TABLE assistant_versions (
    assistant_id uuid NOT NULL REFERENCES assistants (id) ON DELETE CASCADE,
    version      integer NOT NULL,
    graph_id     text NOT NULL,
    name         text NOT NULL,
    description  text,
    config       jsonb NOT NULL,
    context      jsonb NOT NULL,
    metadata     jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (assistant_id, version)
);

-- +goose Down
DROP TABLE assistant_versions;
DROP TABLE assistants;
