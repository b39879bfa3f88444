package memstore

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/paging"
)

// Owner is one user's part of the Store, as store.Owner is of PostgreSQL:
// their threads, the runs on them and those runs' events, their
// checkpoints and tool outputs. Another user's id is NOT_FOUND through it.
type Owner struct {
	s  *state
	id string
}

// ForOwner returns userID's part of the store.
func (st *Store) ForOwner(userID string) Owner { return Owner{s: st.s, id: userID} }

// ID is the owner's user id.
func (o Owner) ID() string { return o.id }

// thread is one conversation, with its checkpoints, oldest first.
type thread struct {
	id, owner   string
	metadata    json.RawMessage
	status      string
	created     time.Time
	updated     time.Time
	checkpoints []graph.Checkpoint
}

func (t *thread) record() store.Thread {
	return store.Thread{ID: t.id, OwnerID: t.owner, Metadata: t.metadata, Status: t.status, CreatedAt: t.created, UpdatedAt: t.updated}
}

// head is the id of the thread's newest checkpoint, "" when it has none.
func (t *thread) head() string {
	if len(t.checkpoints) == 0 {
		return ""
	}
	return t.checkpoints[len(t.checkpoints)-1].ID
}

// threadNotFound is the store's error for a thread that is missing, or
// another owner's.
func threadNotFound(id string) error {
	return errcode.New(errcode.NotFound, "Thread with ID %s not found", id)
}

// ownThread is one of owner's threads; the caller holds mu.
func (s *state) ownThread(owner, id string) (*thread, error) {
	t, ok := s.threads[id]
	if !ok || t.owner != owner {
		return nil, threadNotFound(id)
	}
	return t, nil
}

// newThreadLocked creates a thread of owner's with metadata (checked); a
// client-chosen id that exists already is a CONFLICT. The caller holds mu.
func (s *state) newThreadLocked(owner, id string, metadata json.RawMessage) (*thread, error) {
	if _, ok := s.users[owner]; !ok {
		return nil, errcode.New(errcode.NotFound, "no such owner")
	}
	switch {
	case id == "":
		id = uuid.NewString()
	case uuid.Validate(id) != nil:
		return nil, threadNotFound(id)
	}
	id = uuid.MustParse(id).String()
	if _, ok := s.threads[id]; ok {
		return nil, errcode.New(errcode.Conflict, "thread %s exists already", id)
	}
	at := s.now()
	t := &thread{id: id, owner: owner, metadata: encode(decode(metadata)), status: store.ThreadIdle, created: at, updated: at}
	s.threads[id] = t
	return t, nil
}

// CreateThread creates a thread for the owner. A client-chosen id that
// exists already is a CONFLICT.
func (o Owner) CreateThread(_ context.Context, nt store.NewThread) (store.Thread, error) {
	meta, err := store.CheckMetadata(nt.Metadata)
	if err != nil {
		return store.Thread{}, err
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	t, err := o.s.newThreadLocked(o.id, nt.ID, meta)
	if err != nil {
		return store.Thread{}, err
	}
	return t.record(), nil
}

// Thread returns one of the owner's threads.
func (o Owner) Thread(_ context.Context, id string) (store.Thread, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	t, err := o.s.ownThread(o.id, id)
	if err != nil {
		return store.Thread{}, err
	}
	return t.record(), nil
}

// threadSorts are the fields threads sort by, by their API name.
var threadSorts = map[string]func(a, b *thread) int{
	"":           func(a, b *thread) int { return a.created.Compare(b.created) },
	"created_at": func(a, b *thread) int { return a.created.Compare(b.created) },
	"updated_at": func(a, b *thread) int { return a.updated.Compare(b.updated) },
	"status":     func(a, b *thread) int { return cmp.Compare(a.status, b.status) },
	"thread_id":  func(a, b *thread) int { return cmp.Compare(a.id, b.id) },
}

// SearchThreads lists the owner's threads that match q, in its order.
func (o Owner) SearchThreads(_ context.Context, q store.ThreadQuery) ([]store.Thread, error) {
	by, ok := threadSorts[q.SortBy]
	if !ok {
		return nil, errcode.New(errcode.BadRequest, "threads cannot be sorted by %q", q.SortBy)
	}
	desc := true
	switch q.SortOrder {
	case "asc":
		desc = false
	case "", "desc":
	default:
		return nil, errcode.New(errcode.BadRequest, "%q is not a sort order: asc or desc", q.SortOrder)
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	list, err := o.s.matching(o.id, q)
	if err != nil {
		return nil, err
	}
	sortList(list, func(a, b *thread) int { return cmp.Or(by(a, b), cmp.Compare(a.id, b.id)) }, desc)
	limit, offset := paging.Clamp(q.Limit, q.Offset, 20)
	return records(page(list, limit, offset), (*thread).record), nil
}

// CountThreads is how many of the owner's threads match q (its paging
// aside).
func (o Owner) CountThreads(_ context.Context, q store.ThreadQuery) (int, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	list, err := o.s.matching(o.id, q)
	return len(list), err
}

// matching are owner's threads that q's filters let through; the caller
// holds mu.
func (s *state) matching(owner string, q store.ThreadQuery) ([]*thread, error) {
	var want any
	if len(q.Metadata) > 0 {
		meta, err := store.CheckMetadata(q.Metadata)
		if err != nil {
			return nil, err
		}
		want = decode(meta)
	}
	var out []*thread
	for _, t := range s.threads {
		switch {
		case t.owner != owner,
			want != nil && !contains(decode(t.metadata), want),
			q.Status != "" && t.status != q.Status,
			q.IDs != nil && !slices.Contains(q.IDs, t.id):
			continue
		}
		out = append(out, t)
	}
	return out, nil
}

// sortList sorts list by compare, reversed when desc.
func sortList[T any](list []T, compare func(a, b T) int, desc bool) {
	slices.SortFunc(list, func(a, b T) int {
		if desc {
			return compare(b, a)
		}
		return compare(a, b)
	})
}

// records converts each element of list with record, into a list that
// is empty rather than nil, as JSON wants it.
func records[T, R any](list []T, record func(T) R) []R {
	out := make([]R, 0, len(list))
	for _, x := range list {
		out = append(out, record(x))
	}
	return out
}

// page is list's page from offset, at most limit long.
func page[T any](list []T, limit, offset int) []T {
	if offset >= len(list) {
		return nil
	}
	return list[offset:min(len(list), offset+limit)]
}

// UpdateThreadMetadata merges patch, a JSON object, into the metadata of
// one of the owner's threads: its keys replace the thread's.
func (o Owner) UpdateThreadMetadata(_ context.Context, id string, patch json.RawMessage) (store.Thread, error) {
	meta, err := store.CheckMetadata(patch)
	if err != nil {
		return store.Thread{}, err
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	t, err := o.s.ownThread(o.id, id)
	if err != nil {
		return store.Thread{}, err
	}
	t.metadata, t.updated = merge(t.metadata, meta), o.s.now()
	return t.record(), nil
}

// DeleteThread deletes one of the owner's threads with its checkpoints,
// runs, run events and crons.
func (o Owner) DeleteThread(_ context.Context, id string) error {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	if _, err := o.s.ownThread(o.id, id); err != nil {
		return err
	}
	o.s.deleteThreadLocked(id)
	return nil
}

// DeleteThreadsWhere deletes the owner's threads whose metadata contains
// metadata, a JSON object, and returns how many it deleted.
func (o Owner) DeleteThreadsWhere(_ context.Context, metadata json.RawMessage) (int64, error) {
	meta, err := store.CheckMetadata(metadata)
	if err != nil {
		return 0, err
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	list, err := o.s.matching(o.id, store.ThreadQuery{Metadata: meta})
	for _, t := range list {
		o.s.deleteThreadLocked(t.id)
	}
	return int64(len(list)), err
}

// deleteThreadLocked deletes a thread with what hangs on it, and wakes
// the followers of its runs, which end; the caller holds mu.
func (s *state) deleteThreadLocked(id string) {
	delete(s.threads, id)
	for rid, r := range s.runs {
		if r.ThreadID == id {
			delete(s.runs, rid)
		}
	}
	s.deleteCronsOfThread(id)
	s.notifyLocked()
}
