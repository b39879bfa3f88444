// Package tenanttest is the behaviour every store of tenants' records must
// have, as one suite: PostgreSQL (tenant.OnPostgres) and the in-memory
// twin (tenant.InMemory) each pass it. It holds the owner rule for every
// resource (another user's ids are NOT_FOUND, their lists empty), and
// what the API and the runner count on of threads, runs and their
// events, the run queue, checkpoints, tool outputs, store items, crons,
// assistants, MCP servers and the planner's memory.
package tenanttest

import (
	"context"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/crons"
	"github.com/tripgraph/tripgraph/store/quota"
)

// Backend is a store under test.
type Backend struct {
	// Records are a user's records.
	Records func(userID string) tenant.Records
	// NewUser makes a user and returns their id.
	NewUser func(t *testing.T) string
	// Queue is the run queue, as workers of any owner's runs see it.
	Queue Queue
	// WithLimits is a store of the same kind that holds users to limits:
	// on PostgreSQL, another handle on the same database.
	WithLimits func(t *testing.T, limits quota.Limits) Backend
}

// Queue is what the suite drives runs with, as a worker does.
type Queue interface {
	ClaimRun(ctx context.Context, workerID string, lease time.Duration) (store.Claim, bool, error)
	RenewLease(ctx context.Context, l store.Lease, lease time.Duration) (store.Run, error)
	FinishRun(ctx context.Context, l store.Lease, status, runErr string) (store.Run, error)
	ReleaseRun(ctx context.Context, l store.Lease) (store.Run, error)
	ReturnClaim(ctx context.Context, l store.Lease) (store.Run, error)
	ReclaimExpired(ctx context.Context, maxAttempts int) ([]store.Run, error)
	AppendRunEvents(ctx context.Context, l store.Lease, events []store.NewRunEvent) ([]store.RunEvent, error)
	WatchCancel(ctx context.Context, threadID, runID string) (context.Context, context.CancelFunc, error)
	DeleteRunThread(ctx context.Context, threadID, runID string) error
	FireCrons(ctx context.Context, limit int, plan func(crons.Cron, time.Time) (store.CronRun, error)) ([]crons.Fired, error)
}

// Run runs the suite. newBackend gives each test a store where no other
// test's runs wait (the queue serves every owner).
func Run(t *testing.T, newBackend func(t *testing.T) Backend) {
	groups := []struct {
		name  string
		cases []suiteCase
	}{
		{"runs", runsCases},
		{"run queue", queueCases},
		{"run events", eventsCases},
		{"limits", limitsCases},
	}
	for _, g := range groups {
		for _, c := range g.cases {
			t.Run(g.name+"/"+c.name, func(t *testing.T) { c.fn(t, newBackend(t)) })
		}
	}
	tests := []suiteCase{
		{"threads", testThreads},
		{"checkpoints", testCheckpoints},
		{"tool outputs", testToolOutputs},
		{"items", testItems},
		{"crons", testCrons},
		{"assistants", testAssistants},
		{"servers", testServers},
		{"owner rule", testOwnerRule},
		{"memory", testMemory},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, newBackend(t)) })
	}
}

// suiteCase is one test of the suite, on a store of its own.
type suiteCase struct {
	name string
	fn   func(*testing.T, Backend)
}

// two are two users' records: the one a test acts as, and another.
func two(t *testing.T, b Backend) (mine, theirs tenant.Records, mineID, theirsID string) {
	t.Helper()
	mineID, theirsID = b.NewUser(t), b.NewUser(t)
	return b.Records(mineID), b.Records(theirsID), mineID, theirsID
}
