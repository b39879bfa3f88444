package accounts

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/errcode"
)

// Session is a browser session. Token is what the cookie carries; only its
// hash is stored, so Token is known only to CreateSession's caller.
type Session struct {
	Token     string
	UserID    string
	KeyID     string // the API key it was opened with: revoking the key ends it; "" for none
	CSRFToken string
	ExpiresAt time.Time
}

// NewToken is 32 random bytes, URL-safe: a session's, its CSRF token, a
// login link's.
func NewToken() (string, error) {
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", fmt.Errorf("making a random token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(raw[:]), nil
}

// CreateSession opens a session for a user that lasts ttl, with a new
// CSRF token; keyID is the API key it is opened with ("" for a login
// link). Sessions that have expired are deleted on the way.
func (s *Store) CreateSession(ctx context.Context, userID, keyID string, ttl time.Duration) (Session, error) {
	token, err := NewToken()
	if err != nil {
		return Session{}, err
	}
	csrf, err := NewToken()
	if err != nil {
		return Session{}, err
	}
	sess := Session{Token: token, UserID: userID, KeyID: keyID, CSRFToken: csrf}
	err = s.Pool.QueryRow(ctx, `
		WITH gone AS (DELETE FROM web_sessions /* any owner: retention */ WHERE expires_at <= now())
		INSERT INTO web_sessions (token_hash, user_id, api_key_id, csrf_token, expires_at)
		VALUES ($1, $2, NULLIF($3, '')::uuid, $4, now() + $5 * interval '1 microsecond') RETURNING expires_at`,
		Hash(token), userID, keyID, csrf, ttl.Microseconds()).Scan(&sess.ExpiresAt)
	if err != nil {
		return Session{}, fmt.Errorf("opening a session: %w", err)
	}
	return sess, nil
}

// SessionByToken returns the unexpired session a cookie's token opens, or
// an UNAUTHENTICATED error that does not say whether it ever existed. A
// session opened with a key that has been revoked since is over, even
// one made while the key was being revoked.
func (s *Store) SessionByToken(ctx context.Context, token string) (Session, error) {
	sess := Session{Token: token}
	err := s.Pool.QueryRow(ctx, `
		SELECT s.user_id, coalesce(s.api_key_id::text, ''), s.csrf_token, s.expires_at FROM web_sessions s
		LEFT JOIN api_keys k ON k.id = s.api_key_id /* any owner: credential */
		WHERE s.token_hash = $1 AND s.expires_at > now() AND k.revoked_at IS NULL`, Hash(token)).
		Scan(&sess.UserID, &sess.KeyID, &sess.CSRFToken, &sess.ExpiresAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return Session{}, errcode.New(errcode.Unauthenticated, "no such session, or it has expired")
	}
	if err != nil {
		return Session{}, fmt.Errorf("reading a session: %w", err)
	}
	return sess, nil
}

// DeleteSession ends a session; ending one that is gone already is not an
// error.
func (s *Store) DeleteSession(ctx context.Context, token string) error {
	if _, err := s.Pool.Exec(ctx, `DELETE FROM web_sessions /* any owner: credential */ WHERE token_hash = $1`, Hash(token)); err != nil {
		return fmt.Errorf("ending a session: %w", err)
	}
	return nil
}

// CreateLoginLink makes a token that opens a session for the user once,
// within ttl. Only its hash is stored.
func (s *Store) CreateLoginLink(ctx context.Context, userID string, ttl time.Duration) (string, error) {
	token, err := NewToken()
	if err != nil {
		return "", err
	}
	if _, err := s.Pool.Exec(ctx, `
		WITH gone AS (DELETE FROM login_links /* any owner: retention */ WHERE expires_at <= now())
		INSERT INTO login_links (token_hash, user_id, expires_at) VALUES ($1, $2, now() + $3 * interval '1 microsecond')`,
		Hash(token), userID, ttl.Microseconds()); err != nil {
		return "", fmt.Errorf("making a login link: %w", err)
	}
	return token, nil
}

// UseLoginLink spends a login link's token and returns its user. A token
// used already, expired or unknown is an UNAUTHENTICATED error.
func (s *Store) UseLoginLink(ctx context.Context, token string) (string, error) {
	var userID string
	var live bool
	err := s.Pool.QueryRow(ctx, `
		DELETE FROM login_links /* any owner: credential */ WHERE token_hash = $1 RETURNING user_id, expires_at > now()`,
		Hash(token)).Scan(&userID, &live)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && !live) {
		return "", errcode.New(errcode.Unauthenticated, "the login link is unknown or was used already")
	}
	if err != nil {
		return "", fmt.Errorf("using a login link: %w", err)
	}
	return userID, nil
}
