package memstore

import (
	"context"
	"errors"

	"github.com/tripgraph/tripgraph/store/items"
)

// NOT BUILT YET: the in-memory items are being written; until then this file
// only lets the package compile.

// Items are the users' items in memory.
type Items struct{ s *state }

type itemsData struct{}

func (s *state) initItems() {}

// OwnedItems are one user's items.
type OwnedItems struct {
	s  *state
	id string
}

// ForOwner returns userID's items.
func (x *Items) ForOwner(userID string) OwnedItems { return OwnedItems{x.s, userID} }

func (o OwnedItems) Put(ctx context.Context, in items.PutItem) error { return errNotBuilt }
func (o OwnedItems) Get(ctx context.Context, namespace []string, key string, refresh bool) (items.Item, bool, error) {
	return items.Item{}, false, errNotBuilt
}
func (o OwnedItems) GetEach(ctx context.Context, refs ...items.Ref) ([]items.Item, error) {
	return nil, errNotBuilt
}
func (o OwnedItems) Delete(ctx context.Context, namespace []string, key string) error {
	return errNotBuilt
}
func (o OwnedItems) Search(ctx context.Context, q items.Query) ([]items.Item, error) {
	return nil, errNotBuilt
}
func (o OwnedItems) Namespaces(ctx context.Context, q items.NamespaceQuery) ([][]string, error) {
	return nil, errNotBuilt
}

var errNotBuilt = errors.New("the in-memory store does not have this yet")
