package memstore

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/tripgraph/tripgraph/store/assistants"
)

// NOT BUILT YET: the in-memory assistants are being written; until then this file
// only lets the package compile.

// Assistants are the users' assistants in memory.
type Assistants struct{ s *state }

type assistantsData struct{}

func (s *state) initAssistants() {}

// OwnedAssistants are one user's assistants.
type OwnedAssistants struct {
	s  *state
	id string
}

// ForOwner returns userID's assistants.
func (x *Assistants) ForOwner(userID string) OwnedAssistants { return OwnedAssistants{x.s, userID} }

func (o OwnedAssistants) Create(ctx context.Context, n assistants.New) (assistants.Assistant, error) {
	return assistants.Assistant{}, errNotBuilt
}
func (o OwnedAssistants) Get(ctx context.Context, id string) (assistants.Assistant, error) {
	return assistants.Assistant{}, errNotBuilt
}
func (o OwnedAssistants) Search(ctx context.Context, q assistants.Query) ([]assistants.Assistant, int, error) {
	return nil, 0, errNotBuilt
}
func (o OwnedAssistants) Count(ctx context.Context, q assistants.Query) (int, error) {
	return 0, errNotBuilt
}
func (o OwnedAssistants) Update(ctx context.Context, id string, p assistants.Patch) (assistants.Assistant, error) {
	return assistants.Assistant{}, errNotBuilt
}
func (o OwnedAssistants) Delete(ctx context.Context, id string) error { return errNotBuilt }
func (o OwnedAssistants) Versions(ctx context.Context, id string, metadata json.RawMessage, limit, offset int) ([]assistants.Version, error) {
	return nil, errNotBuilt
}
func (o OwnedAssistants) SetLatest(ctx context.Context, id string, version int) (assistants.Assistant, error) {
	return assistants.Assistant{}, errNotBuilt
}

var errNotBuilt = errors.New("the in-memory store does not have this yet")
