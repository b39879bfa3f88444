package wire

import (
	"time"

	"github.com/tripgraph/tripgraph/store/accounts"
)

// APIKey is an API key's record as the operator's routes show it: never
// the key itself.
type APIKey struct {
	ID         string     `json:"id"`
	UserID     string     `json:"user_id"`
	Label      string     `json:"label"`
	Role       string     `json:"role"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"` // null: never used; marked at most once a minute
	RevokedAt  *time.Time `json:"revoked_at"`   // null: in force
}

// APIKeyCreate is the body of creating a key for a user.
type APIKeyCreate struct {
	Label string `json:"label"`
	Role  string `json:"role"` // "" or absent: user
}

// NewAPIKey is a key just made: the key itself, shown this once, and its
// record.
type NewAPIKey struct {
	Key string `json:"key"`
	APIKey
}

// FromKey is a key's record on the wire.
func FromKey(k accounts.Key) APIKey {
	return APIKey{ID: k.ID, UserID: k.UserID, Label: k.Label, Role: string(k.Role), CreatedAt: k.CreatedAt,
		LastUsedAt: optionalTime(k.LastUsedAt), RevokedAt: optionalTime(k.RevokedAt)}
}

// FromKeys are keys' records on the wire.
func FromKeys(list []accounts.Key) []APIKey {
	out := make([]APIKey, len(list))
	for i, k := range list {
		out[i] = FromKey(k)
	}
	return out
}

// optionalTime is nil for the zero time.
func optionalTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
