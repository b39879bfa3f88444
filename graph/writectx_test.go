package graph

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"
)

// hookSaver is a MemorySaver that calls during with the context of the
// first write of a node's checkpoint, before storing it: it stands for a
// write under way.
type hookSaver struct {
	*MemorySaver
	during func(ctx context.Context) error

	once sync.Once
	node string // the node whose checkpoint was being written
}

func (s *hookSaver) Put(ctx context.Context, cp Checkpoint, head string) error {
	var err error
	if cp.Node != "" {
		s.once.Do(func() {
			s.node = cp.Node
			err = s.during(ctx)
		})
	}
	if err != nil {
		return err
	}
	return s.MemorySaver.Put(ctx, cp, head)
}

// stored reports whether the thread holds a checkpoint of node.
func stored(t *testing.T, saver Checkpointer, thread, node string) bool {
	for _, cp := range history(t, saver, thread) {
		if cp.Node == node {
			return true
		}
	}
	return false
}

type ctxKey struct{}

// The caller cancels the run while the checkpoint of a node that finished
// is being written: in every durability mode the write goes on with the
// caller's values, its context neither done nor failed, and is stored.
func TestWriteOutlivesTheCallersCancellation(t *testing.T) {
	for _, mode := range []Durability{DurabilitySync, DurabilityAsync, DurabilityExit} {
		t.Run(string(mode), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "caller's"))
			defer cancel()
			saver := &hookSaver{MemorySaver: NewMemorySaver(), during: func(w context.Context) error {
				cancel()
				if v := w.Value(ctxKey{}); v != "caller's" {
					return errors.New("the write lost the caller's values")
				}
				if _, ok := w.Deadline(); ok {
					return errors.New("the write has a deadline")
				}
				select {
				case <-w.Done():
					return errors.New("the write's context was done with the run's")
				default:
				}
				return w.Err()
			}}
			thread := newID()
			_, err := mustCompile(t, plannerGraph(), saver).Invoke(ctx, RunConfig[tupdate]{ThreadID: thread, Input: tupdate{Want: "classify"}, Durability: mode})
			if saver.node == "" {
				t.Fatal("no node's checkpoint was written")
			}
			if !stored(t, saver, thread, saver.node) {
				t.Fatalf("the checkpoint of %q was not stored (the run's error: %v)", saver.node, err)
			}
		})
	}
}

// The consumer stops iterating while a node runs: the node's checkpoint is
// written after the run was cancelled, with a context that is not done,
// and stored.
func TestWriteOutlivesTheConsumer(t *testing.T) {
	for _, mode := range []Durability{DurabilitySync, DurabilityAsync, DurabilityExit} {
		t.Run(string(mode), func(t *testing.T) {
			saver := &hookSaver{MemorySaver: NewMemorySaver(), during: func(w context.Context) error {
				select {
				case <-w.Done():
					return errors.New("the write's context was done with the run's")
				default:
				}
				return w.Err()
			}}
			thread := newID()
			for ev := range mustCompile(t, plannerGraph(), saver).Run(context.Background(), RunConfig[tupdate]{ThreadID: thread, Input: tupdate{Want: "classify"}, Durability: mode}) {
				if ev.Kind == NodeStarted {
					break
				}
			}
			if !stored(t, saver, thread, "classify") {
				t.Fatalf("classify's checkpoint was not stored (written: %q)", saver.node)
			}
		})
	}
}

// A write that waits on its context after the run was cancelled is given
// up saveTimeout later: it cannot hold the run for ever.
func TestHangingWriteEndsAfterSaveTimeout(t *testing.T) {
	defer func(was time.Duration) { saveTimeout = was }(saveTimeout)
	saveTimeout = 20 * time.Millisecond
	tests := []struct {
		name  string
		watch func(w context.Context) // waits on w
	}{
		{"on Done", func(w context.Context) { <-w.Done() }},
		{"polling Err", func(w context.Context) {
			for w.Err() == nil {
				time.Sleep(time.Millisecond)
			}
		}},
	}
	for _, tt := range tests {
		for _, mode := range []Durability{DurabilitySync, DurabilityAsync} {
			t.Run(tt.name+"/"+string(mode), func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				saver := &hookSaver{MemorySaver: NewMemorySaver(), during: func(w context.Context) error {
					cancel()
					tt.watch(w)
					if !errors.Is(w.Err(), context.Canceled) {
						return errors.New("done, but its Err is not context.Canceled")
					}
					return w.Err()
				}}
				thread := newID()
				done := make(chan error, 1)
				go func() {
					_, err := mustCompile(t, plannerGraph(), saver).Invoke(ctx, RunConfig[tupdate]{ThreadID: thread, Input: tupdate{Want: "classify"}, Durability: mode})
					done <- err
				}()
				select {
				case err := <-done:
					if !errors.Is(err, context.Canceled) {
						t.Fatalf("error = %v, want the write's cancellation", err)
					}
				case <-time.After(timeout):
					t.Fatal("a write that hangs held the cancelled run")
				}
				if stored(t, saver, thread, "classify") {
					t.Fatal("the write that was given up was stored")
				}
			})
		}
	}
}

// What watches a run's write context (a database driver registers a
// context.AfterFunc on every query) is registered with it, not given a
// goroutine of its own to wait for it, and is still called when the
// write is given up.
func TestWriteContextIsWatchedWithoutAGoroutine(t *testing.T) {
	defer func(was time.Duration) { saveTimeout = was }(saveTimeout)
	saveTimeout = time.Millisecond
	run, cancel := context.WithCancel(context.Background())
	defer cancel()
	var w writeContext
	w.start(context.Background(), run)
	defer w.release()
	w.Done()

	const watchers = 100
	before := runtime.NumGoroutine()
	var called sync.WaitGroup
	called.Add(watchers)
	for range watchers {
		context.AfterFunc(&w, called.Done)
	}
	if added := runtime.NumGoroutine() - before; added >= watchers/2 {
		t.Fatalf("%d watchers of the write context started %d goroutines", watchers, added)
	}
	cancel()
	waited := make(chan struct{})
	go func() { called.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(timeout):
		t.Fatal("the watchers were not called once the write was given up")
	}
}
