// Package accounts keeps who may use tripgraph: users, their API keys
// (stored as hashes), browser sessions and one-time login links.
package accounts

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/errcode"
)

// User is an account: a traveller or a program acting for one.
type User struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
}

// APIKeyPrefix starts every API key, so that leaked keys are easy to find.
const APIKeyPrefix = "tg_"

// userNamePattern is the rule the users table checks names against.
var userNamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,62}$`)

// CheckName applies the naming rule of users: a BAD_REQUEST for a name
// that breaks it.
func CheckName(name string) error {
	if !userNamePattern.MatchString(name) {
		return errcode.New(errcode.BadRequest,
			"user name %q must be 1 to 63 lower-case letters, digits, '_', '.' or '-', starting with a letter or digit", name)
	}
	return nil
}

// CreateUser makes a new user. A name that breaks the naming rule is a
// BAD_REQUEST; a name already taken is a CONFLICT.
func (s *Store) CreateUser(ctx context.Context, name string) (User, error) {
	if err := CheckName(name); err != nil {
		return User{}, err
	}
	var u User
	err := s.Pool.QueryRow(ctx, `INSERT INTO users /* any owner: credential */ (name) VALUES ($1) RETURNING id, name, created_at`, name).
		Scan(&u.ID, &u.Name, &u.CreatedAt)
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == "23505":
		return User{}, errcode.New(errcode.Conflict, "user %q exists already", name)
	case err != nil:
		return User{}, fmt.Errorf("creating user %q: %w", name, err)
	}
	return u, nil
}

// EnsureUser returns the user with this name, creating it if needed.
func (s *Store) EnsureUser(ctx context.Context, name string) (User, error) {
	var u User
	err := s.Pool.QueryRow(ctx, `
		INSERT INTO users /* any owner: credential */ (name) VALUES ($1)
		ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
		RETURNING id, name, created_at`, name).Scan(&u.ID, &u.Name, &u.CreatedAt)
	if err != nil {
		return User{}, fmt.Errorf("ensuring user %q: %w", name, err)
	}
	return u, nil
}

// UserByName returns the user with this name, or a NOT_FOUND error.
func (s *Store) UserByName(ctx context.Context, name string) (User, error) {
	return s.scanUser(ctx, "name", `SELECT id, name, created_at FROM users /* any owner: credential */ WHERE name = $1`, name)
}

// UserByID returns the user with this id, or a NOT_FOUND error.
func (s *Store) UserByID(ctx context.Context, id string) (User, error) {
	return s.scanUser(ctx, "id", `SELECT id, name, created_at FROM users WHERE id::text = $1`, id)
}

func (s *Store) scanUser(ctx context.Context, by, query, arg string) (User, error) {
	var u User
	err := s.Pool.QueryRow(ctx, query, arg).Scan(&u.ID, &u.Name, &u.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, errcode.New(errcode.NotFound, "no user with %s %q", by, arg)
	}
	if err != nil {
		return User{}, fmt.Errorf("reading user by %s: %w", by, err)
	}
	return u, nil
}

// CreateAPIKey makes a new API key and returns it with its record. Only
// its hash is stored: the key cannot be shown again.
func (s *Store) CreateAPIKey(ctx context.Context, n NewKey) (string, Key, error) {
	if err := n.Check(); err != nil {
		return "", Key{}, err
	}
	secret, err := NewAPIKey()
	if err != nil {
		return "", Key{}, err
	}
	k, err := scanKey(s.Pool.QueryRow(ctx, `
		INSERT INTO api_keys (user_id, key_hash, label, role) VALUES ($1, $2, $3, $4)
		RETURNING `+keyColumns, n.UserID, Hash(secret), n.Label, n.Role))
	if err != nil {
		return "", Key{}, fmt.Errorf("storing an API key: %w", err)
	}
	return secret, k, nil
}

// UserByAPIKey returns the owner of a valid, unrevoked API key with the
// key's record, or a FORBIDDEN error that does not say whether the key
// ever existed. It marks the key used (last_used_at) when it was last
// marked over lastUsedStep ago: every request checks a key, and writing
// the key's row each time would make the requests of one key queue on
// its row lock, each behind the commit of the one before; a read commits
// nothing. Nothing is cached: a key revoked in any process is refused by
// the next request in every process.
func (s *Store) UserByAPIKey(ctx context.Context, secret string) (User, Key, error) {
	var u User
	k := Key{}
	var lastUsed, revoked *time.Time
	err := s.Pool.QueryRow(ctx, `
		WITH touched AS (
			UPDATE api_keys SET last_used_at = now()
			WHERE key_hash = $1 AND revoked_at IS NULL
			  AND (last_used_at IS NULL OR last_used_at < now() - $2 * interval '1 microsecond'))
		SELECT u.id, u.name, u.created_at, k.id, k.user_id, k.label, k.role, k.created_at, k.last_used_at, k.revoked_at
		FROM api_keys k JOIN users u ON u.id = k.user_id /* any owner: credential */
		WHERE k.key_hash = $1 AND k.revoked_at IS NULL`, Hash(secret), lastUsedStep.Microseconds()).
		Scan(&u.ID, &u.Name, &u.CreatedAt, &k.ID, &k.UserID, &k.Label, &k.Role, &k.CreatedAt, &lastUsed, &revoked)
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, Key{}, errcode.New(errcode.Forbidden, "invalid API key")
	}
	if err != nil {
		return User{}, Key{}, fmt.Errorf("checking an API key: %w", err)
	}
	k.LastUsedAt, k.RevokedAt = deref(lastUsed), deref(revoked)
	return u, k, nil
}

// lastUsedStep is how stale an API key's last_used_at may get.
const lastUsedStep = time.Minute

// ListAPIKeys lists a user's keys, revoked ones too, newest first.
func (s *Store) ListAPIKeys(ctx context.Context, userID string) ([]Key, error) {
	rows, err := s.Pool.Query(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE user_id::text = $1 ORDER BY created_at DESC, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("listing API keys: %w", err)
	}
	keys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Key, error) { return scanKey(r) })
	if err != nil {
		return nil, fmt.Errorf("listing API keys: %w", err)
	}
	return keys, nil
}

// RevokeAPIKey revokes one of a user's keys by its id, and ends the
// browser sessions opened with it, in one statement. A key that is not
// the user's, or is revoked already, is NOT_FOUND.
func (s *Store) RevokeAPIKey(ctx context.Context, userID, keyID string) (Key, error) {
	if err := CheckKeyID(keyID); err != nil {
		return Key{}, err
	}
	k, err := scanKey(s.Pool.QueryRow(ctx, `
		WITH revoked AS (
			UPDATE api_keys SET revoked_at = now()
			WHERE id = $2 AND user_id::text = $1 AND revoked_at IS NULL
			RETURNING `+keyColumns+`),
		ended AS (DELETE FROM web_sessions WHERE api_key_id IN (SELECT id FROM revoked))
		SELECT * FROM revoked`, userID, keyID))
	if errors.Is(err, pgx.ErrNoRows) {
		return Key{}, NoActiveKey(keyID)
	}
	if err != nil {
		return Key{}, fmt.Errorf("revoking API key %s: %w", keyID, err)
	}
	return k, nil
}

// RotateAPIKey replaces one of a user's keys with a new one of the same
// label and role: the old one is revoked, with its sessions, in the same
// transaction. It returns the new key and its record.
func (s *Store) RotateAPIKey(ctx context.Context, userID, keyID string) (string, Key, error) {
	if err := CheckKeyID(keyID); err != nil {
		return "", Key{}, err
	}
	secret, err := NewAPIKey()
	if err != nil {
		return "", Key{}, err
	}
	k, err := scanKey(s.Pool.QueryRow(ctx, `
		WITH revoked AS (
			UPDATE api_keys SET revoked_at = now()
			WHERE id = $2 AND user_id::text = $1 AND revoked_at IS NULL
			RETURNING id, user_id, label, role),
		ended AS (DELETE FROM web_sessions WHERE api_key_id IN (SELECT id FROM revoked))
		INSERT INTO api_keys (user_id, key_hash, label, role)
		SELECT user_id, $3, label, role FROM revoked
		RETURNING `+keyColumns, userID, keyID, Hash(secret)))
	if errors.Is(err, pgx.ErrNoRows) {
		return "", Key{}, NoActiveKey(keyID)
	}
	if err != nil {
		return "", Key{}, fmt.Errorf("rotating API key %s: %w", keyID, err)
	}
	return secret, k, nil
}

// keyColumns are the columns scanKey reads, in its order.
const keyColumns = `id, user_id, label, role, created_at, last_used_at, revoked_at`

// scanKey reads a key's record from a row of keyColumns.
func scanKey(row pgx.Row) (Key, error) {
	var k Key
	var lastUsed, revoked *time.Time
	if err := row.Scan(&k.ID, &k.UserID, &k.Label, &k.Role, &k.CreatedAt, &lastUsed, &revoked); err != nil {
		return Key{}, err
	}
	k.LastUsedAt, k.RevokedAt = deref(lastUsed), deref(revoked)
	return k, nil
}

// deref is *t, or the zero time for nil.
func deref(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

// NewAPIKey makes a new API key: APIKeyPrefix and 24 random bytes.
func NewAPIKey() (string, error) {
	var raw [24]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", fmt.Errorf("making an API key: %w", err)
	}
	return APIKeyPrefix + base64.RawURLEncoding.EncodeToString(raw[:]), nil
}

// Hash is the hash a key or token is stored as: its SHA-256.
func Hash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// Store is the accounts on a PostgreSQL pool. It is safe for concurrent use.
type Store struct {
	Pool *pgxpool.Pool
}

// New returns the accounts on pool.
func New(pool *pgxpool.Pool) *Store { return &Store{Pool: pool} }
