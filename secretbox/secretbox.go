// Package secretbox seals small secrets (the credentials of users' MCP
// servers) with AES-256-GCM under one key from the environment, so that a
// copy of the database alone does not give them away.
//
// A sealed secret is a version byte, a random 12-byte nonce and the GCM
// ciphertext with its tag. The caller passes associated data that names
// where the secret belongs (its row), so a sealed value copied into another
// row does not open.
package secretbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
)

// version is the first byte of every sealed value.
const version = 1

// ErrOpen is returned when a sealed value does not open: a wrong key, other
// associated data, or a value that was changed.
var ErrOpen = errors.New("the sealed secret does not open")

// Box seals and opens secrets under one key. It is safe for concurrent use.
type Box struct {
	aead cipher.AEAD
}

// New returns a Box for a 32-byte key.
func New(key []byte) (*Box, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("making a secret box: the key is %d bytes, want 32", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("making a secret box: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("making a secret box: %w", err)
	}
	return &Box{aead: aead}, nil
}

// ParseKey decodes a key written as hex or base64.
func ParseKey(s string) ([]byte, error) {
	for _, decode := range []func(string) ([]byte, error){
		hex.DecodeString,
		base64.StdEncoding.DecodeString,
		base64.RawStdEncoding.DecodeString,
		base64.URLEncoding.DecodeString,
		base64.RawURLEncoding.DecodeString,
	} {
		if k, err := decode(s); err == nil && len(k) == 32 {
			return k, nil
		}
	}
	return nil, errors.New("the key must be 32 bytes as 64 hex digits or base64")
}

// Seal encrypts plaintext, bound to the associated data ad.
func (b *Box) Seal(plaintext, ad []byte) ([]byte, error) {
	out := make([]byte, 1+b.aead.NonceSize(), 1+b.aead.NonceSize()+len(plaintext)+b.aead.Overhead())
	out[0] = version
	if _, err := rand.Read(out[1:]); err != nil {
		return nil, fmt.Errorf("sealing a secret: %w", err)
	}
	return b.aead.Seal(out, out[1:], plaintext, ad), nil
}

// Open decrypts a sealed value made by Seal with the same key and
// associated data, or returns ErrOpen.
func (b *Box) Open(sealed, ad []byte) ([]byte, error) {
	n := b.aead.NonceSize()
	if len(sealed) < 1+n+b.aead.Overhead() || sealed[0] != version {
		return nil, ErrOpen
	}
	plain, err := b.aead.Open(nil, sealed[1:1+n], sealed[1+n:], ad)
	if err != nil {
		return nil, ErrOpen
	}
	return plain, nil
}
