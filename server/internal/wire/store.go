package wire

import (
	"encoding/json"
	"time"

	"github.com/tripgraph/tripgraph/store/items"
)

// The long-term store's shapes, as LangGraph's clients send and read them.

// StoreItem is one item of the store. Score is its rank for a search's
// query, and absent without one.
type StoreItem struct {
	Namespace []string        `json:"namespace"`
	Key       string          `json:"key"`
	Value     json.RawMessage `json:"value"`
	CreatedAt time.Time       `json:"created_at"`
	UpdatedAt time.Time       `json:"updated_at"`
	Score     *float64        `json:"score,omitempty"`
}

// StorePut is the body of PUT /store/items. Index is null (every string of
// the value is searchable), false (none) or a list of field paths; TTL is
// in minutes, null for none.
type StorePut struct {
	Namespace []string        `json:"namespace" validate:"required"`
	Key       string          `json:"key" validate:"required"`
	Value     json.RawMessage `json:"value" validate:"required,object"`
	Index     json.RawMessage `json:"index"`
	TTL       *float64        `json:"ttl" validate:"omitempty,min=0,max=52596000"` // minutes: at most 100 years
}

// StoreDelete is the body of DELETE /store/items.
type StoreDelete struct {
	Namespace []string `json:"namespace" validate:"required"`
	Key       string   `json:"key" validate:"required"`
}

// StoreSearch is the body of POST /store/items/search.
type StoreSearch struct {
	NamespacePrefix []string                   `json:"namespace_prefix"`
	Filter          map[string]json.RawMessage `json:"filter"`
	Limit           int                        `json:"limit" validate:"min=0"`
	Offset          int                        `json:"offset" validate:"min=0"`
	Query           string                     `json:"query" validate:"max=500"`
	RefreshTTL      *bool                      `json:"refresh_ttl"`
}

// StoreSearchResult answers POST /store/items/search.
type StoreSearchResult struct {
	Items []StoreItem `json:"items"`
}

// StoreNamespaces is the body of POST /store/namespaces.
type StoreNamespaces struct {
	Prefix   []string `json:"prefix"`
	Suffix   []string `json:"suffix"`
	MaxDepth *int     `json:"max_depth" validate:"omitempty,min=1"`
	Limit    int      `json:"limit" validate:"min=0"`
	Offset   int      `json:"offset" validate:"min=0"`
}

// StoreNamespaceList answers POST /store/namespaces.
type StoreNamespaceList struct {
	Namespaces [][]string `json:"namespaces"`
}

// FromItem is an item on the wire.
func FromItem(it items.Item) StoreItem {
	return StoreItem{Namespace: it.Namespace, Key: it.Key, Value: it.Value, CreatedAt: it.CreatedAt.UTC(),
		UpdatedAt: it.UpdatedAt.UTC(), Score: it.Score}
}

// FromItems are items on the wire; none is an empty list.
func FromItems(list []items.Item) []StoreItem {
	out := make([]StoreItem, 0, len(list))
	for _, it := range list {
		out = append(out, FromItem(it))
	}
	return out
}
