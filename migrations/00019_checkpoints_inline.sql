-- +goose Up
-- Checkpoint values are compressed before they are stored, so PostgreSQL
-- has nothing to gain from moving them out of their rows early (the old
-- target, 256 bytes, was set so that it would compress them): a value moved
-- out costs a row of the TOAST table, its index entry and that table's
-- free-space and visibility maps. Rows now keep their values until they
-- would not fit in a page.
ALTER TABLE checkpoints SET (toast_tuple_target = 8160);

-- +goose Down
ALTER TABLE checkpoints SET (toast_tuple_target = 256);
