-- +goose Up
-- A run's values events hold its whole state, kilobytes of JSON that lz4
-- compresses to a few kilobytes more than PostgreSQL's default target of
-- about 2 kB: each went out of line, into the TOAST table, costing a
-- TOAST row and its index entry per 2 kB when appended and an index
-- lookup when read. Rows now keep their compressed data until they would
-- not fit in a page.
ALTER TABLE run_events SET (toast_tuple_target = 8160);

-- +goose Down
ALTER TABLE run_events RESET (toast_tuple_target);
