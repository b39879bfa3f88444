// Package mcpauth mints and verifies the short-lived bearer tokens that
// carry a user's identity to tripgraph's MCP server. A token is
//
//	tgm1.<base64url user id>.<unix expiry>.<base64url HMAC-SHA256>
//
// signed with a secret the server and its callers share (MCP_SECRET).
package mcpauth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Prefix starts every token, so that tokens and API keys are told apart.
const Prefix = "tgm1."

// MinSecretLen is the shortest secret Mint and Verify accept.
const MinSecretLen = 16

// ErrInvalid is returned, wrapped, for any token that is malformed, forged
// or expired. It deliberately does not say which.
var ErrInvalid = errors.New("invalid or expired token")

// Claims is what a verified token says.
type Claims struct {
	UserID  string
	Expires time.Time
}

// Mint returns a token for userID that expires after ttl.
func Mint(secret []byte, userID string, ttl time.Duration) (string, error) {
	return mintAt(secret, userID, time.Now().Add(ttl))
}

func mintAt(secret []byte, userID string, expires time.Time) (string, error) {
	if len(secret) < MinSecretLen {
		return "", fmt.Errorf("minting an MCP token: the secret must be at least %d bytes", MinSecretLen)
	}
	if userID == "" {
		return "", errors.New("minting an MCP token: empty user id")
	}
	body := Prefix + base64.RawURLEncoding.EncodeToString([]byte(userID)) + "." + strconv.FormatInt(expires.Unix(), 10)
	return body + "." + sign(secret, body), nil
}

// Verify checks a token's signature and expiry and returns its claims.
func Verify(secret []byte, token string) (Claims, error) {
	return verifyAt(secret, token, time.Now())
}

func verifyAt(secret []byte, token string, now time.Time) (Claims, error) {
	if len(secret) < MinSecretLen {
		return Claims{}, fmt.Errorf("verifying an MCP token: no usable secret: %w", ErrInvalid)
	}
	body, sig, ok := cutLast(token, ".")
	if !ok || !strings.HasPrefix(body, Prefix) || !hmac.Equal([]byte(sig), []byte(sign(secret, body))) {
		return Claims{}, ErrInvalid
	}
	user64, exp, ok := strings.Cut(strings.TrimPrefix(body, Prefix), ".")
	if !ok {
		return Claims{}, ErrInvalid
	}
	user, err := base64.RawURLEncoding.DecodeString(user64)
	if err != nil || len(user) == 0 {
		return Claims{}, ErrInvalid
	}
	unix, err := strconv.ParseInt(exp, 10, 64)
	if err != nil {
		return Claims{}, ErrInvalid
	}
	expires := time.Unix(unix, 0)
	if !now.Before(expires) {
		return Claims{}, ErrInvalid
	}
	return Claims{UserID: string(user), Expires: expires}, nil
}

// IsToken reports whether s looks like a token of this package (rather
// than, say, an API key); it says nothing of its validity.
func IsToken(s string) bool { return strings.HasPrefix(s, Prefix) }

func sign(secret []byte, body string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(body))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func cutLast(s, sep string) (before, after string, ok bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
