package accounts

import (
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
)

// Role is what an API key may do besides acting as its user.
type Role string

// The roles of API keys.
const (
	// RoleUser keys act as their user, and only as them.
	RoleUser Role = "user"
	// RoleBackend keys belong to an app that signs its own travellers
	// in: besides acting as their user, they may act for the app's end
	// users, each a user of their own, when the operator allows it.
	RoleBackend Role = "backend"
	// RoleOperator keys may also list, create, revoke and rotate every
	// user's keys.
	RoleOperator Role = "operator"
)

// Roles are the roles a key may have.
var Roles = []Role{RoleUser, RoleBackend, RoleOperator}

// Key is an API key's record: never the key itself, which only its
// creator ever sees.
type Key struct {
	ID         string
	UserID     string
	Label      string
	Role       Role
	CreatedAt  time.Time
	LastUsedAt time.Time // zero: never used (marked at most once a minute)
	RevokedAt  time.Time // zero: in force
}

// Revoked reports whether the key has been revoked.
func (k Key) Revoked() bool { return !k.RevokedAt.IsZero() }

// NewKey is what a new API key is made for.
type NewKey struct {
	UserID string
	Label  string // a note to tell keys apart
	Role   Role   // "": RoleUser
}

// MaxLabelLength is the longest label a key may have, in bytes.
const MaxLabelLength = 200

// Check applies the rules of a new key, defaulting its role: a
// BAD_REQUEST names the rule broken.
func (n *NewKey) Check() error {
	if n.Role == "" {
		n.Role = RoleUser
	}
	if !slices.Contains(Roles, n.Role) {
		return errcode.New(errcode.BadRequest, "%q is not a key role: user, backend or operator", n.Role)
	}
	if len(n.Label) > MaxLabelLength {
		return errcode.New(errcode.BadRequest, "a key's label is at most %d bytes", MaxLabelLength)
	}
	return nil
}

// CheckKeyID refuses a key id that is not a UUID with a BAD_REQUEST.
func CheckKeyID(id string) error {
	if _, err := uuid.Parse(id); err != nil {
		return errcode.New(errcode.BadRequest, "%q is not an API key id (a UUID, as apikey list shows)", id)
	}
	return nil
}

// NoActiveKey is the NOT_FOUND of revoking or rotating a key that is not
// the user's, or is revoked already.
func NoActiveKey(id string) error {
	return errcode.New(errcode.NotFound, "the user has no API key %s in force", id)
}
