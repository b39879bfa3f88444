package memstore

import (
	"context"
	"errors"
	"time"

	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/crons"
)

// NOT BUILT YET: the in-memory crons are being written; until then this file
// only lets the package compile.

// Crons are the users' crons in memory.
type Crons struct{ s *state }

type cronsData struct{}

func (s *state) initCrons() {}

// deleteCronsOfThread deletes the crons on a thread; the caller holds mu.
func (s *state) deleteCronsOfThread(string) {}

// OwnedCrons are one user's crons.
type OwnedCrons struct {
	s  *state
	id string
}

// ForOwner returns userID's crons.
func (x *Crons) ForOwner(userID string) OwnedCrons { return OwnedCrons{x.s, userID} }

func (o OwnedCrons) Create(ctx context.Context, nc crons.NewCron) (crons.Cron, error) {
	return crons.Cron{}, errNotBuilt
}
func (o OwnedCrons) Get(ctx context.Context, id string) (crons.Cron, error) {
	return crons.Cron{}, errNotBuilt
}
func (o OwnedCrons) Update(ctx context.Context, id string, ch crons.Change) (crons.Cron, error) {
	return crons.Cron{}, errNotBuilt
}
func (o OwnedCrons) Delete(ctx context.Context, id string) error { return errNotBuilt }
func (o OwnedCrons) Search(ctx context.Context, q crons.Query) ([]crons.Cron, error) {
	return nil, errNotBuilt
}
func (o OwnedCrons) Count(ctx context.Context, assistantID, threadID string) (int, error) {
	return 0, errNotBuilt
}

// FireCrons is not built yet.
func (st *Store) FireCrons(context.Context, int, func(crons.Cron, time.Time) (store.CronRun, error)) ([]crons.Fired, error) {
	return nil, errNotBuilt
}

var errNotBuilt = errors.New("the in-memory store does not have this yet")
