package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/crons"
)

// Crons is what the scheduler needs of the crons: firing the due ones of
// every owner, from any process.
type Crons interface {
	Fire(ctx context.Context, limit int, start crons.Start) ([]crons.Fired, error)
}

// cronBatch is how many due crons one transaction fires.
const cronBatch = 100

// schedule fires due crons until ctx ends: every poll, each batch in a
// transaction of its own, as long as batches come full.
func (r *Runner) schedule(ctx context.Context) {
	defer r.wg.Done()
	for {
		for {
			fired, err := r.crons.Fire(ctx, cronBatch, r.startCron)
			if err != nil && ctx.Err() == nil {
				r.log.Error("firing due crons", "err", err)
			}
			started := 0
			for _, f := range fired {
				if f.Err != nil {
					r.log.Warn("a cron's run did not start; it waits for its next due time", "cron_id", f.Cron.ID,
						"due", f.Due, "err", f.Err)
					continue
				}
				started++
			}
			if started > 0 {
				r.created()
			}
			if err != nil || len(fired) < cronBatch {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(r.timing.poll):
		}
	}
}

// startCron queues the run of a due cron within tx, as the cron's owner:
// on its thread, or on a new thread (deleted once the run ends unless the
// cron keeps them). The run's messages get new ids, and its metadata says
// which cron and due time started it.
func (r *Runner) startCron(ctx context.Context, tx pgx.Tx, c crons.Cron, due time.Time) error {
	j, err := DecodeJob(c.Job)
	if err != nil {
		return err
	}
	j = j.again(time.Now())
	j.DeleteThread = c.ThreadID == "" && c.OnCompleted == crons.OnCompletedDelete
	input, err := json.Marshal(j)
	if err != nil {
		return fmt.Errorf("encoding a cron's job: %w", err)
	}
	meta, err := cronMetadata(c, due)
	if err != nil {
		return err
	}
	var payload struct {
		MultitaskStrategy string `json:"multitask_strategy"`
	}
	json.Unmarshal(c.Payload, &payload)
	nr := store.NewRun{Input: input, Metadata: meta, MultitaskStrategy: payload.MultitaskStrategy}
	owner := r.tenants.Store.ForOwner(c.UserID)
	if c.ThreadID != "" {
		_, err = owner.CreateRunIn(ctx, tx, c.ThreadID, nr)
		return err
	}
	threadMeta, _ := json.Marshal(map[string]string{"cron_id": c.ID, "graph_id": c.AssistantID})
	_, err = owner.CreateRunOnNewThreadIn(ctx, tx, store.NewThread{ID: uuid.Must(uuid.NewV7()).String(), Metadata: threadMeta}, nr)
	return err
}

// cronMetadata is a cron run's metadata: the cron's, with the cron's id
// and the due time it was started for.
func cronMetadata(c crons.Cron, due time.Time) (json.RawMessage, error) {
	meta := map[string]any{}
	if len(c.Metadata) > 0 {
		if err := json.Unmarshal(c.Metadata, &meta); err != nil {
			return nil, fmt.Errorf("reading cron %s's metadata: %w", c.ID, err)
		}
	}
	meta["cron_id"], meta["cron_due_at"] = c.ID, due.UTC().Format(time.RFC3339Nano)
	return json.Marshal(meta)
}

// again is the job for one more run of a cron: its messages with new ids,
// stamped now, so that each run adds its own turn to the thread.
func (j Job) again(now time.Time) Job {
	if j.Input == nil {
		return j
	}
	in := *j.Input
	in.Messages = append(in.Messages[:0:0], in.Messages...)
	for i := range in.Messages {
		in.Messages[i].ID = uuid.Must(uuid.NewV7()).String()
	}
	in.Timestamp = now.UnixMilli()
	j.Input = &in
	return j
}
