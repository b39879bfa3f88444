-- +goose Up
-- An event's position names its place in the run's output (the step, the
-- kind of event and its rank), the same in every attempt of the run. When
-- a worker dies and another takes the run over, the step that was cut off
-- runs again; its events whose positions the stream already holds are not
-- appended twice, so a client sees one reply and one set of cards.
ALTER TABLE run_events ADD COLUMN position text;
CREATE UNIQUE INDEX run_events_position_idx ON run_events (run_id, position) WHERE position IS NOT NULL;

-- +goose Down
DROP INDEX run_events_position_idx;
ALTER TABLE run_events DROP COLUMN position;
