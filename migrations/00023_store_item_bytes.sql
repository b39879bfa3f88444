-- +goose Up

-- What each item counts against its owner's limit on the bytes of their
-- long-term store (items.PutItem.Size: its value as compact JSON, its key
-- and its labels), kept with it, so that a put sums its owner's bytes
-- without reading their values. An item stored before counts its value as
-- PostgreSQL writes jsonb back (with a space after each colon and comma),
-- a little more than compact, until it is put again.
ALTER TABLE store_items ADD COLUMN bytes integer NOT NULL DEFAULT 0;
UPDATE store_items
    SET bytes = octet_length(value::text) + octet_length(key) + octet_length(array_to_string(namespace, ''));
ALTER TABLE store_items ALTER COLUMN bytes DROP DEFAULT;

-- +goose Down
ALTER TABLE store_items DROP COLUMN bytes;
