package mcpbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
)

// A result larger than LargeResultBytes, or with more than LargeResultItems
// items, reaches the model as a Reduced summary with a preview of
// PreviewItems items; the full result is stored.
const (
	LargeResultBytes = 4 << 10
	LargeResultItems = 20
	PreviewItems     = 5
	previewTextBytes = 1000
)

// OutputStore keeps the full copy of one user's large results, owned by
// them.
type OutputStore interface {
	SaveToolOutput(ctx context.Context, server, tool string, data json.RawMessage) (id string, err error)
}

// Reduced is what the model is told of a large result: a summary, a
// preview and the id of the stored copy. When the result is an object and
// its preview (the same object, each array cut to its first items) is
// small enough, the model gets that object itself, so that it keeps the
// tool's shape, with the rest of Reduced under the key "truncated".
type Reduced struct {
	Summary    string          `json:"summary"`
	Preview    json.RawMessage `json:"preview,omitempty"`
	OutputID   string          `json:"outputId,omitempty"`
	TotalItems int             `json:"totalItems"`
	Bytes      int             `json:"bytes"`
}

// truncatedKey is where an object's preview carries the rest of Reduced.
const truncatedKey = "truncated"

// isLarge reports whether a result is too large to give the model whole.
func isLarge(data json.RawMessage, items int) bool {
	return len(data) > LargeResultBytes || items > LargeResultItems
}

// reduce returns the stand-in of a large result, given the id its full
// copy was stored under ("" when it could not be stored).
func reduce(tool string, data json.RawMessage, items int, outputID string) json.RawMessage {
	prev, shown := preview(data)
	r := Reduced{OutputID: outputID, TotalItems: items, Bytes: len(data)}
	r.Summary = fmt.Sprintf("%s returned %d items (%d bytes), too many to show whole; the preview holds %s.", tool, items, len(data), shown)
	if outputID != "" {
		r.Summary += " The full result is stored as tool output " + outputID + " and the traveller sees all of it."
	} else {
		r.Summary += " The traveller sees the full result."
	}
	if out, ok := inPlace(prev, r); ok {
		return out
	}
	r.Preview = prev
	out, _ := json.Marshal(r)
	return out
}

// inPlace adds r to an object preview under truncatedKey, when the
// preview is an object without that key.
func inPlace(prev json.RawMessage, r Reduced) (json.RawMessage, bool) {
	var fields map[string]json.RawMessage
	if firstByte(prev) != '{' || json.Unmarshal(prev, &fields) != nil || fields[truncatedKey] != nil {
		return nil, false
	}
	fields[truncatedKey], _ = json.Marshal(r)
	out, err := json.Marshal(fields)
	return out, err == nil
}

// preview cuts a result down: an array to its first items, each array of
// an object likewise, anything else (or a preview still too large) to the
// start of its JSON text. It also says what it kept.
func preview(data json.RawMessage) (json.RawMessage, string) {
	var out json.RawMessage
	switch firstByte(data) {
	case '[':
		out = firstItems(data)
	case '{':
		var fields map[string]json.RawMessage
		if json.Unmarshal(data, &fields) == nil {
			for k, v := range fields {
				if firstByte(v) == '[' {
					fields[k] = firstItems(v)
				}
			}
			out, _ = json.Marshal(fields)
		}
	}
	if out != nil && len(out) <= LargeResultBytes {
		return out, fmt.Sprintf("the first %d items", PreviewItems)
	}
	text := string(data)
	if len(text) > previewTextBytes {
		cut := previewTextBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	out, _ = json.Marshal(text)
	return out, fmt.Sprintf("the first %d bytes of its JSON", len(text))
}

func firstItems(data json.RawMessage) json.RawMessage {
	var items []json.RawMessage
	if json.Unmarshal(data, &items) != nil {
		return data
	}
	if len(items) > PreviewItems {
		items = items[:PreviewItems]
	}
	out, _ := json.Marshal(items)
	return out
}

// MemoryOutputs keeps large results in memory, for tests and for running
// without a database: the most recent maxMemoryOutputs of every user's.
// ForUser is one user's OutputStore.
type MemoryOutputs struct {
	mu    sync.Mutex
	byID  map[string]storedOutput
	order []string
}

const maxMemoryOutputs = 1000

type storedOutput struct {
	user, server, tool string
	data               json.RawMessage
}

// ForUser is the OutputStore of userID's results.
func (m *MemoryOutputs) ForUser(userID string) OutputStore { return userOutputs{m, userID} }

// userOutputs are one user's results in a MemoryOutputs.
type userOutputs struct {
	m    *MemoryOutputs
	user string
}

// SaveToolOutput stores a result and returns its id.
func (u userOutputs) SaveToolOutput(_ context.Context, server, tool string, data json.RawMessage) (string, error) {
	id := uuid.Must(uuid.NewV7()).String()
	m := u.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byID == nil {
		m.byID = map[string]storedOutput{}
	}
	if len(m.order) >= maxMemoryOutputs {
		delete(m.byID, m.order[0])
		m.order = m.order[1:]
	}
	m.byID[id] = storedOutput{user: u.user, server: server, tool: tool, data: append(json.RawMessage(nil), data...)}
	m.order = append(m.order, id)
	return id, nil
}

// ToolOutput returns a stored result of the user's; another user's is
// NOT_FOUND, like a missing one.
func (m *MemoryOutputs) ToolOutput(_ context.Context, userID, id string) (json.RawMessage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, ok := m.byID[id]
	if !ok || o.user != userID {
		return nil, errcode.New(errcode.NotFound, "no tool output %q", id)
	}
	return o.data, nil
}
