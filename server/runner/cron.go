package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/crons"
)

// Crons is what the scheduler needs of the crons: firing the due ones of
// every owner, from any process, each due time's run started in the
// transaction that claims it.
type Crons interface {
	FireCrons(ctx context.Context, limit int, plan func(crons.Cron, time.Time) (store.CronRun, error)) ([]crons.Fired, error)
}

// cronBatch is how many due crons one transaction fires.
const cronBatch = 100

// schedule fires due crons until ctx ends: every poll, each batch in a
// transaction of its own, as long as batches come full.
func (r *Runner) schedule(ctx context.Context) {
	defer r.wg.Done()
	for {
		for {
			fired, err := r.crons.FireCrons(ctx, cronBatch, cronRun)
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

// cronRun is the run of a due cron: on its thread, or on a new thread
// (deleted once the run ends unless the cron keeps them). The run's
// messages get new ids, and its metadata says which cron and due time
// started it.
func cronRun(c crons.Cron, due time.Time) (store.CronRun, error) {
	j, err := DecodeJob(c.Job)
	if err != nil {
		return store.CronRun{}, err
	}
	j = j.again(time.Now())
	j.DeleteThread = c.ThreadID == "" && c.OnCompleted == crons.OnCompletedDelete
	input, err := json.Marshal(j)
	if err != nil {
		return store.CronRun{}, fmt.Errorf("encoding a cron's job: %w", err)
	}
	meta, err := cronMetadata(c, due)
	if err != nil {
		return store.CronRun{}, err
	}
	var payload struct {
		MultitaskStrategy string `json:"multitask_strategy"`
	}
	json.Unmarshal(c.Payload, &payload)
	cr := store.CronRun{ThreadID: c.ThreadID, Run: store.NewRun{Input: input, Metadata: meta, MultitaskStrategy: payload.MultitaskStrategy}}
	if c.ThreadID == "" {
		threadMeta, _ := json.Marshal(map[string]string{"cron_id": c.ID, "graph_id": c.AssistantID})
		cr.NewThread = store.NewThread{ID: uuid.Must(uuid.NewV7()).String(), Metadata: threadMeta}
	}
	return cr, nil
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
