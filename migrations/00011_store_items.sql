-- +goose Up

-- The long-term store: JSON objects kept across conversations, each under a
-- namespace (a path of labels) and a key, one user's apart from another's.
-- search is the folded text of the value's indexed strings, for full-text
-- queries with PostgreSQL's own text search ('simple': no stemming, since
-- travellers mix languages); expires_at is set for an item with a TTL and
-- moved on by every read that refreshes it.
CREATE TABLE store_items (
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    namespace   text[] NOT NULL CHECK (cardinality(namespace) BETWEEN 1 AND 20),
    key         text NOT NULL CHECK (length(key) BETWEEN 1 AND 1024),
    value       jsonb NOT NULL CHECK (jsonb_typeof(value) = 'object'),
    search      tsvector,
    ttl         interval,
    expires_at  timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, namespace, key),
    CHECK ((ttl IS NULL) = (expires_at IS NULL))
);
CREATE INDEX store_items_search_idx ON store_items USING gin (search);
CREATE INDEX store_items_expiry_idx ON store_items (expires_at) WHERE expires_at IS NOT NULL;

-- +goose Down
DROP TABLE store_items;
