package memstore

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store/assistants"
	"github.com/tripgraph/tripgraph/store/paging"
)

// Assistants are the users' assistants, as store/assistants keeps them:
// checked and patched by the same rules (assistants.New.Check,
// assistants.Patch.Apply), every change a new version.
type Assistants struct{ s *state }

// assistantsData are the assistants, by id.
type assistantsData struct {
	byID map[string]*assistant
}

func (s *state) initAssistants() { s.assistants = assistantsData{byID: map[string]*assistant{}} }

// assistant is an assistant at its current version, with every version,
// oldest first.
type assistant struct {
	assistants.Assistant
	owner    string
	versions []assistants.Version
}

// saveVersion records the assistant's current version.
func (a *assistant) saveVersion() {
	a.versions = append(a.versions, assistants.Version{AssistantID: a.ID, Version: a.Version, GraphID: a.GraphID,
		Name: a.Name, Description: a.Description, Config: a.Config, Context: a.Context, Metadata: a.Metadata,
		CreatedAt: a.UpdatedAt})
}

// latest is the assistant's highest version.
func (a *assistant) latest() int {
	n := 0
	for _, v := range a.versions {
		n = max(n, v.Version)
	}
	return n
}

func (a *assistant) record() assistants.Assistant {
	out := a.Assistant
	out.Description = cloneString(a.Description)
	out.Config, out.Context, out.Metadata = cloneJSON(a.Config), cloneJSON(a.Context), cloneJSON(a.Metadata)
	return out
}

func versionRecord(v assistants.Version) assistants.Version {
	v.Description = cloneString(v.Description)
	v.Config, v.Context, v.Metadata = cloneJSON(v.Config), cloneJSON(v.Context), cloneJSON(v.Metadata)
	return v
}

func cloneString(s *string) *string {
	if s == nil {
		return nil
	}
	v := *s
	return &v
}

// OwnedAssistants are one user's assistants: another user's id is
// NOT_FOUND through it, as if it did not exist.
type OwnedAssistants struct {
	s  *state
	id string
}

// ForOwner returns userID's assistants.
func (x *Assistants) ForOwner(userID string) OwnedAssistants { return OwnedAssistants{x.s, userID} }

// own is one of the owner's assistants; the caller holds mu.
func (o OwnedAssistants) own(id string) (*assistant, error) {
	a, ok := o.s.assistants.byID[id]
	if !ok || a.owner != o.id {
		return nil, assistants.ErrNotFound
	}
	return a, nil
}

// Create stores a new assistant, version 1. An id that is not a UUID is a
// BAD_REQUEST; one that exists, the owner's or another's, a CONFLICT.
func (o OwnedAssistants) Create(_ context.Context, n assistants.New) (assistants.Assistant, error) {
	n, err := n.Check()
	if err != nil {
		return assistants.Assistant{}, err
	}
	id := uuid.NewString()
	if n.ID != "" {
		u, err := uuid.Parse(n.ID)
		if err != nil {
			return assistants.Assistant{}, errcode.New(errcode.BadRequest, "an assistant id is a UUID")
		}
		id = u.String()
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	if _, ok := o.s.users[o.id]; !ok {
		return assistants.Assistant{}, errcode.New(errcode.NotFound, "no such owner")
	}
	if _, ok := o.s.assistants.byID[id]; ok {
		return assistants.Assistant{}, errcode.New(errcode.Conflict, "Assistant already exists")
	}
	at := o.s.now()
	a := &assistant{owner: o.id, Assistant: assistants.Assistant{ID: id, GraphID: n.GraphID, Name: n.Name,
		Description: cloneString(n.Description), Config: cloneJSON(n.Config), Context: cloneJSON(n.Context),
		Metadata: cloneJSON(n.Metadata), Version: 1, CreatedAt: at, UpdatedAt: at}}
	a.saveVersion()
	o.s.assistants.byID[id] = a
	return a.record(), nil
}

// Get returns one of the owner's assistants.
func (o OwnedAssistants) Get(_ context.Context, id string) (assistants.Assistant, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	a, err := o.own(id)
	if err != nil {
		return assistants.Assistant{}, err
	}
	return a.record(), nil
}

// assistantSorts are the columns assistants sort by, by their API name.
var assistantSorts = map[string]func(a, b *assistant) int{
	"assistant_id": func(a, b *assistant) int { return cmp.Compare(a.ID, b.ID) },
	"graph_id":     func(a, b *assistant) int { return cmp.Compare(a.GraphID, b.GraphID) },
	"name":         func(a, b *assistant) int { return cmp.Compare(a.Name, b.Name) },
	"created_at":   func(a, b *assistant) int { return a.CreatedAt.Compare(b.CreatedAt) },
	"updated_at":   func(a, b *assistant) int { return a.UpdatedAt.Compare(b.UpdatedAt) },
}

// Search lists the owner's assistants that match q, sorted and paged as q
// says, with how many match in all.
func (o OwnedAssistants) Search(_ context.Context, q assistants.Query) ([]assistants.Assistant, int, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	list, err := o.matching(q)
	if err != nil {
		return nil, 0, err
	}
	order, err := q.Order()
	if err != nil {
		return nil, 0, err
	}
	by := assistantSorts[order.By]
	sortList(list, func(a, b *assistant) int { return cmp.Or(by(a, b), cmp.Compare(a.ID, b.ID)) }, order.Desc)
	limit, offset := paging.Clamp(q.Limit, q.Offset, 10)
	return records(page(list, limit, offset), (*assistant).record), len(list), nil
}

// Count is how many of the owner's assistants match q (its paging and
// order aside).
func (o OwnedAssistants) Count(_ context.Context, q assistants.Query) (int, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	list, err := o.matching(q)
	return len(list), err
}

// matching are the owner's assistants of q's graph, whose name contains
// q's whatever the case of its letters, and whose metadata contains q's;
// the caller holds mu.
func (o OwnedAssistants) matching(q assistants.Query) ([]*assistant, error) {
	var want any
	if len(q.Metadata) > 0 {
		meta, err := assistants.Object(q.Metadata)
		if err != nil {
			return nil, err
		}
		want = decode(meta)
	}
	name := strings.ToLower(q.Name)
	var out []*assistant
	for _, a := range o.s.assistants.byID {
		switch {
		case a.owner != o.id,
			q.GraphID != "" && a.GraphID != q.GraphID,
			!strings.Contains(strings.ToLower(a.Name), name),
			want != nil && !contains(decode(a.Metadata), want):
			continue
		}
		out = append(out, a)
	}
	return out, nil
}

// Update applies p to the owner's assistant as a new version, which
// becomes the current one.
func (o OwnedAssistants) Update(_ context.Context, id string, p assistants.Patch) (assistants.Assistant, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	a, err := o.own(id)
	if err != nil {
		return assistants.Assistant{}, err
	}
	next, err := p.Apply(a.record())
	if err != nil {
		return assistants.Assistant{}, err
	}
	next.Config, next.Context, next.Metadata = cloneJSON(next.Config), cloneJSON(next.Context), cloneJSON(next.Metadata)
	next.Description = cloneString(next.Description)
	next.Version, next.UpdatedAt = a.latest()+1, o.s.now()
	a.Assistant = next
	a.saveVersion()
	return a.record(), nil
}

// Delete deletes the owner's assistant with every version.
func (o OwnedAssistants) Delete(_ context.Context, id string) error {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	if _, err := o.own(id); err != nil {
		return err
	}
	delete(o.s.assistants.byID, id)
	return nil
}

// Versions lists an assistant's versions, newest first; with metadata,
// those whose metadata contains it only.
func (o OwnedAssistants) Versions(_ context.Context, id string, metadata json.RawMessage, limit, offset int) ([]assistants.Version, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	a, err := o.own(id)
	if err != nil {
		return nil, err
	}
	meta, err := assistants.Object(metadata)
	if err != nil {
		return nil, err
	}
	want := decode(meta)
	var list []assistants.Version // newest first: versions only grow
	for _, v := range slices.Backward(a.versions) {
		if contains(decode(v.Metadata), want) {
			list = append(list, v)
		}
	}
	limit, offset = paging.Clamp(limit, offset, 10)
	return records(page(list, limit, offset), versionRecord), nil
}

// SetLatest makes one of an assistant's versions its current one again.
func (o OwnedAssistants) SetLatest(_ context.Context, id string, version int) (assistants.Assistant, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	a, err := o.own(id)
	if err != nil {
		return assistants.Assistant{}, err
	}
	i := slices.IndexFunc(a.versions, func(v assistants.Version) bool { return v.Version == version })
	if i < 0 {
		return assistants.Assistant{}, assistants.ErrVersionNotFound
	}
	v := a.versions[i]
	a.GraphID, a.Name, a.Description, a.Config, a.Context, a.Metadata = v.GraphID, v.Name, v.Description, v.Config, v.Context, v.Metadata
	a.Version, a.UpdatedAt = v.Version, o.s.now()
	return a.record(), nil
}
