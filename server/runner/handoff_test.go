package runner

import (
	"context"
	"testing"

	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
)

// panickingRuns are a tenant's runs whose creation panics.
type panickingRuns struct{ tenant.Runs }

func (panickingRuns) CreateRunOnNewThread(context.Context, store.NewThread, store.NewRun) (store.Run, error) {
	panic("the creation failed badly")
}

// A worker reserved for a run being created is answered however the
// creation ends, a panic included: otherwise it would wait for ever, and
// the pool's Drain with it.
func TestReservedWorkerIsAnsweredWhenCreationPanics(t *testing.T) {
	r := &Runner{}
	w := &worker{id: "w", handed: make(chan handed, 1)}
	r.idle.add(w)
	func() {
		defer func() { _ = recover() }()
		r.createFor(context.Background(), tenant.Tenant{Records: tenant.Records{Runs: panickingRuns{}}}, Request{}, store.NewRun{})
	}()
	select {
	case h := <-w.handed:
		if h.ok {
			t.Errorf("the worker was handed a run that was never created: %+v", h.claim)
		}
	default:
		t.Fatal("the reserved worker was told nothing")
	}
}
