package accounts

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/errcode"
)

// Identity is an end user as someone else knows them: an identity
// provider's issuer and the subject it names them by, or a backend key's
// user (BackendIssuer) and the id its app gives them.
type Identity struct {
	Issuer  string
	Subject string
}

// MaxIdentityLength is the longest issuer or subject, in bytes.
const MaxIdentityLength = 512

// BackendIssuer is the issuer of the end users a backend key of the user
// userID acts for: they belong to that user's app, whichever of its keys
// names them.
func BackendIssuer(userID string) string { return "tripgraph:backend:" + userID }

// Check refuses an identity that cannot be stored: empty, too long, not
// UTF-8 or holding a NUL, with a BAD_REQUEST.
func (id Identity) Check() error {
	for _, part := range []struct{ name, v string }{{"issuer", id.Issuer}, {"subject", id.Subject}} {
		switch {
		case part.v == "" || len(part.v) > MaxIdentityLength:
			return errcode.New(errcode.BadRequest, "an end user's %s is 1 to %d bytes", part.name, MaxIdentityLength)
		case !utf8.ValidString(part.v) || strings.ContainsRune(part.v, 0):
			return errcode.New(errcode.BadRequest, "an end user's %s must be UTF-8 text without NUL", part.name)
		}
	}
	return nil
}

// IdentityUserName is a new name for the user of an identity: "id-" and
// random hex. It is random, not derived from the identity, so that no one
// can take an end user's account by choosing its name first.
func IdentityUserName() (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("naming an end user: %w", err)
	}
	return "id-" + hex.EncodeToString(b[:]), nil
}

// UserByIdentity returns the user of an end user's identity, making one
// the first time the identity is seen. It reads one row when the user
// exists; two requests racing on a first sight get the same user.
func (s *Store) UserByIdentity(ctx context.Context, id Identity) (User, error) {
	if err := id.Check(); err != nil {
		return User{}, err
	}
	u, err := s.identityUser(ctx, id)
	if !errors.Is(err, pgx.ErrNoRows) {
		return u, err
	}
	name, err := IdentityUserName()
	if err != nil {
		return User{}, err
	}
	err = pgx.BeginFunc(ctx, s.Pool, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `INSERT INTO users /* any owner: credential */ (name) VALUES ($1) RETURNING id, name, created_at`, name).
			Scan(&u.ID, &u.Name, &u.CreatedAt); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO user_identities (issuer, subject, user_id) VALUES ($1, $2, $3)
			ON CONFLICT (issuer, subject) DO NOTHING`, id.Issuer, id.Subject, u.ID)
		if err == nil && tag.RowsAffected() == 0 {
			return errIdentityTaken // another request made it first: drop this user
		}
		return err
	})
	if errors.Is(err, errIdentityTaken) {
		return s.identityUser(ctx, id)
	}
	if err != nil {
		return User{}, fmt.Errorf("making the user of an end user: %w", err)
	}
	return u, nil
}

var errIdentityTaken = errors.New("the identity has a user already")

// identityUser reads the user of an identity; pgx.ErrNoRows when it has
// none yet.
func (s *Store) identityUser(ctx context.Context, id Identity) (User, error) {
	var u User
	err := s.Pool.QueryRow(ctx, `
		SELECT u.id, u.name, u.created_at FROM user_identities i JOIN users u ON u.id = i.user_id /* any owner: credential */
		WHERE i.issuer = $1 AND i.subject = $2`, id.Issuer, id.Subject).Scan(&u.ID, &u.Name, &u.CreatedAt)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return User{}, fmt.Errorf("finding the user of an end user: %w", err)
	}
	return u, err
}
