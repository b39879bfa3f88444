-- +goose Up

-- What each item counts against its owner's limit on the bytes of their
-- long-term store (items.PutItem.Size: its value as compact JSON, its key
-- and its labels), kept with it, so that a put sums its owner's bytes
-- without reading their values. An item stored before counts its value as
-- PostgreSQL writes jsonb back (with a space after each colon and comma),
-- a little more than compact, until it is put again.
--
-- Expand: the release before this one inserts items without the column.
-- The trigger gives such an item the count of the backfill below, so that
-- its insert keeps working while both releases run; a contract migration,
-- once no release leaves the column out, drops the trigger. (An item that
-- release replaces keeps the count of the value it replaced until it is
-- put again.)
ALTER TABLE store_items ADD COLUMN bytes integer;

-- +goose StatementBegin
CREATE FUNCTION tg_store_item_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.bytes := octet_length(NEW.value::text) + octet_length(NEW.key) + octet_length(array_to_string(NEW.namespace, ''));
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER store_item_bytes BEFORE INSERT ON store_items
    FOR EACH ROW WHEN (NEW.bytes IS NULL) EXECUTE FUNCTION tg_store_item_bytes();

UPDATE store_items
    SET bytes = octet_length(value::text) + octet_length(key) + octet_length(array_to_string(namespace, ''));
ALTER TABLE store_items ALTER COLUMN bytes SET NOT NULL;

-- +goose Down
DROP TRIGGER store_item_bytes ON store_items;
DROP FUNCTION tg_store_item_bytes();
ALTER TABLE store_items DROP COLUMN bytes;
