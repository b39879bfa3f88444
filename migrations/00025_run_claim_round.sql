-- +goose Up

-- A fair share of the workers for each user. A run takes a claim round
-- when it becomes pending: the later of the lowest round pending and one
-- past its owner's highest pending run (store.ClaimRound). Workers claim
-- the pending run of the lowest round, the oldest first within it, so
-- each user with runs waiting has one claimed per round, however many
-- they queued, on an index that keeps the claim a short range scan.
--
-- Expand: the release before this one makes runs pending without a round
-- (they take 0, and are claimed first) and claims the oldest pending run
-- on runs_pending_idx, which stays until a contract migration, once no
-- release claims that way, drops it.
ALTER TABLE runs ADD COLUMN claim_round bigint NOT NULL DEFAULT 0;
CREATE INDEX runs_claim_idx ON runs (claim_round, created_at, id) WHERE status = 'pending';
-- An owner's highest pending round is the last entry of their range.
DROP INDEX runs_owner_active_idx;
CREATE INDEX runs_owner_active_idx ON runs (owner_id, status, claim_round) WHERE status IN ('queued', 'pending', 'running');

-- +goose Down
DROP INDEX runs_owner_active_idx;
CREATE INDEX runs_owner_active_idx ON runs (owner_id, status) WHERE status IN ('queued', 'pending', 'running');
DROP INDEX runs_claim_idx;
ALTER TABLE runs DROP COLUMN claim_round;
