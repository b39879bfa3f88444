package secretbox

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// FuzzParseKey checks key parsing on any text: it never panics; a key it
// accepts is 32 bytes that seal and open a secret; every way of writing
// that key (hex in either case, base64 standard or URL-safe, padded or
// not) gives the same key back; and a sealed value changed anywhere, or
// cut, does not open.
func FuzzParseKey(f *testing.F) {
	key := bytes.Repeat([]byte{0xa5}, 32)
	for _, s := range []string{hex.EncodeToString(key), strings.ToUpper(hex.EncodeToString(key)), base64.StdEncoding.EncodeToString(key),
		base64.RawURLEncoding.EncodeToString(key), "", "zz", hex.EncodeToString(key[:31]), base64.StdEncoding.EncodeToString(key) + "\n"} {
		f.Add(s, uint16(0))
	}
	f.Fuzz(func(t *testing.T, s string, flip uint16) {
		k, err := ParseKey(s)
		if err != nil {
			if k != nil {
				t.Fatalf("ParseKey(%q) failed but returned a key", s)
			}
			return
		}
		if len(k) != 32 {
			t.Fatalf("ParseKey(%q) gave %d bytes", s, len(k))
		}
		for _, w := range []string{hex.EncodeToString(k), strings.ToUpper(hex.EncodeToString(k)), base64.StdEncoding.EncodeToString(k),
			base64.RawStdEncoding.EncodeToString(k), base64.URLEncoding.EncodeToString(k), base64.RawURLEncoding.EncodeToString(k)} {
			if again, err := ParseKey(w); err != nil || !bytes.Equal(again, k) {
				t.Fatalf("the key of %q written as %q parses as %x, %v", s, w, again, err)
			}
		}
		box, err := New(k)
		if err != nil {
			t.Fatal(err)
		}
		secret, ad := []byte("token-"+s), []byte("row 1")
		sealed, err := box.Seal(secret, ad)
		if err != nil {
			t.Fatal(err)
		}
		if plain, err := box.Open(sealed, ad); err != nil || !bytes.Equal(plain, secret) {
			t.Fatalf("a sealed secret opens as %q, %v", plain, err)
		}
		changed := bytes.Clone(sealed)
		changed[int(flip)%len(changed)] ^= 1 << (flip >> 13)
		if _, err := box.Open(changed, ad); !errors.Is(err, ErrOpen) {
			t.Fatalf("a sealed value with a bit changed opened: %v", err)
		}
		if _, err := box.Open(sealed[:int(flip)%len(sealed)], ad); !errors.Is(err, ErrOpen) {
			t.Fatalf("a sealed value cut to %d bytes opened: %v", int(flip)%len(sealed), err)
		}
	})
}
