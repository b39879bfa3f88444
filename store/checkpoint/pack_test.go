package checkpoint

import (
	"bytes"
	"strings"
	"testing"
)

func TestPackRoundTrips(t *testing.T) {
	large := []byte(`{"messages":[` + strings.Repeat(`{"type":"ai","content":"Found 5 places to stay in Lisbon"},`, 40) + `{}]}`)
	for _, tc := range []struct {
		name       string
		in         []byte
		compressed bool
	}{
		{"small", []byte(`{"a":1}`), false},
		{"large and repetitive", large, true},
		{"empty", []byte{}, false},
	} {
		stored := pack(tc.in)
		if got := bytes.HasPrefix(stored, zstdMagic); got != tc.compressed {
			t.Errorf("%s: stored compressed %v, want %v", tc.name, got, tc.compressed)
		}
		if tc.compressed && len(stored) >= len(tc.in)/4 {
			t.Errorf("%s: %d bytes stored as %d", tc.name, len(tc.in), len(stored))
		}
		back, err := unpack(stored)
		if err != nil || !bytes.Equal(back, tc.in) {
			t.Errorf("%s: unpacked %q, %v", tc.name, back, err)
		}
	}
	if _, err := unpack(append(append([]byte{}, zstdMagic...), "not zstd"...)); err == nil {
		t.Error("a damaged value read back without an error")
	}
}
