package checkpoint

import (
	"bytes"
	"errors"
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

// A value whose first byte names a format this release does not know (one
// a newer release may write) is refused as such, stored raw or
// compressed, and every format this release writes reads back.
func TestUnpackRefusesFormatsToCome(t *testing.T) {
	future := append([]byte{0x02}, bytes.Repeat([]byte(`{"later":"format"}`), 20)...)
	for name, stored := range map[string][]byte{"raw": future, "compressed": pack(future)} {
		if _, err := unpack(stored); !errors.Is(err, errNewerFormat) {
			t.Errorf("%s: unpacking a value of format 0x02: %v, want errNewerFormat", name, err)
		}
	}
	for _, known := range [][]byte{[]byte(`{"a":1}`), []byte(" [1]"), {refMarker, 3, 'a', 'b', 'c'}, pack(bytes.Repeat([]byte(`{"a":1}`), 40))} {
		if _, err := unpack(known); err != nil {
			t.Errorf("unpacking %q: %v", known, err)
		}
	}
}
