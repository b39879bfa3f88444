package secretbox

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"testing"
)

func key(b byte) []byte { return bytes.Repeat([]byte{b}, 32) }

func mustBox(t *testing.T, k []byte) *Box {
	t.Helper()
	b, err := New(k)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSealOpen(t *testing.T) {
	box := mustBox(t, key(1))
	ad := []byte("mcp_servers/1")
	secret := []byte("sk-live-0123456789")
	sealed, err := box.Seal(secret, ad)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, secret) {
		t.Fatal("the sealed value contains the secret")
	}
	again, _ := box.Seal(secret, ad)
	if bytes.Equal(sealed, again) {
		t.Fatal("sealing twice gave the same bytes: the nonce is not random")
	}
	got, err := box.Open(sealed, ad)
	if err != nil || !bytes.Equal(got, secret) {
		t.Fatalf("Open = %q, %v; want %q", got, err, secret)
	}

	flip := func(i int) []byte {
		c := bytes.Clone(sealed)
		c[i] ^= 0x01
		return c
	}
	tests := []struct {
		name   string
		box    *Box
		sealed []byte
		ad     []byte
	}{
		{"wrong key", mustBox(t, key(2)), sealed, ad},
		{"other associated data", box, sealed, []byte("mcp_servers/2")},
		{"changed version", box, flip(0), ad},
		{"changed nonce", box, flip(1), ad},
		{"changed ciphertext", box, flip(len(sealed) / 2), ad},
		{"changed tag", box, flip(len(sealed) - 1), ad},
		{"truncated", box, sealed[:len(sealed)-1], ad},
		{"too short", box, sealed[:10], ad},
		{"empty", box, nil, ad},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.box.Open(tt.sealed, tt.ad)
			if !errors.Is(err, ErrOpen) {
				t.Fatalf("Open = %q, %v; want ErrOpen", got, err)
			}
		})
	}
}

func TestKeys(t *testing.T) {
	k := key(7)
	for _, enc := range []string{
		hex.EncodeToString(k),
		base64.StdEncoding.EncodeToString(k),
		base64.RawURLEncoding.EncodeToString(k),
	} {
		got, err := ParseKey(enc)
		if err != nil || !bytes.Equal(got, k) {
			t.Errorf("ParseKey(%q) = %x, %v", enc, got, err)
		}
	}
	for _, bad := range []string{"short", hex.EncodeToString(k[:16]), base64.StdEncoding.EncodeToString(append(k, 1))} {
		if _, err := ParseKey(bad); err == nil {
			t.Errorf("ParseKey(%q) accepted a key that is not 32 bytes", bad)
		}
	}
	if _, err := New(k[:16]); err == nil {
		t.Error("New accepted a 16-byte key")
	}
}
