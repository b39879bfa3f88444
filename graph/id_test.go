package graph

import (
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
)

func TestNewIDIsAUUIDv7(t *testing.T) {
	before := time.Now().UnixMilli()
	prev := ""
	for range 10000 {
		id := newID()
		if err := CheckID("id", id); err != nil {
			t.Fatal(err)
		}
		u, err := uuid.Parse(id)
		if err != nil || u.Version() != 7 || u.Variant() != uuid.RFC4122 {
			t.Fatalf("%s: version %d, variant %v (%v); want 7, RFC 4122", id, u.Version(), u.Variant(), err)
		}
		if id <= prev {
			t.Fatalf("%s was made after %s but does not sort after it", id, prev)
		}
		prev = id
	}
	u, _ := uuid.Parse(prev)
	sec, nsec := u.Time().UnixTime()
	if ms := sec*1000 + nsec/1e6; ms < before || ms > time.Now().UnixMilli() {
		t.Fatalf("%s holds the time %d ms, not between %d and now", prev, ms, before)
	}
}

// CheckID takes lowercase canonical UUIDs only: every character in each
// place is checked.
func TestCheckID(t *testing.T) {
	const good = "0123abcd-4567-7def-89ab-0123456789ef"
	if err := CheckID("id", good); err != nil {
		t.Fatal(err)
	}
	for i := range len(good) {
		for _, c := range []byte{'-', 'g', 'A', '/', ':', '`', 'G'} {
			if c == good[i] {
				continue
			}
			bad := good[:i] + string(c) + good[i+1:]
			if err := CheckID("id", bad); !errors.Is(err, ErrInvalidID) {
				t.Fatalf("CheckID(%q) = %v, want ErrInvalidID", bad, err)
			}
		}
	}
	for _, bad := range []string{"", good[:35], good + "0", "0" + good[:35]} {
		if err := CheckID("id", bad); !errors.Is(err, ErrInvalidID) {
			t.Fatalf("CheckID(%q) = %v, want ErrInvalidID", bad, err)
		}
	}
}

func TestParseID(t *testing.T) {
	id := newID()
	u, ok := parseID(id)
	if !ok || formatID(&u) != id {
		t.Fatalf("parseID(%s) = %x, %v", id, u, ok)
	}
	if _, ok := parseID("01234567-89AB-7DEF-8123-456789abcdef"); ok {
		t.Fatal("parseID read an id in upper case")
	}
}

func BenchmarkNewID(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		newID()
	}
}

func BenchmarkCheckID(b *testing.B) {
	id := newID()
	for b.Loop() {
		if CheckID("id", id) != nil {
			b.Fatal("refused")
		}
	}
}
