package strtab

import (
	"strconv"
	"testing"
)

func TestAddNumbersInOrderAndOnce(t *testing.T) {
	var tab Table
	for i, s := range []string{"lisbon", "porto", "", "lisbon x"} {
		id, added := tab.Add(s)
		if id != int32(i) || !added {
			t.Fatalf("Add(%q) = %d, %v; want %d, true", s, id, added, i)
		}
	}
	if id, added := tab.Add("porto"); id != 1 || added {
		t.Fatalf("Add(porto) again = %d, %v; want 1, false", id, added)
	}
	if tab.Len() != 4 {
		t.Fatalf("Len() = %d, want 4", tab.Len())
	}
}

// TestMatchesAMap fills a table well past several growths and checks
// every string, and strings that are not in it, against a map.
func TestMatchesAMap(t *testing.T) {
	var tab Table
	want := map[string]int32{}
	var first []string
	for i := range 50_000 {
		s := strconv.Itoa(i * 7919 % 100_003)
		if i%3 == 0 {
			s = "são " + s
		}
		id, added := tab.Add(s)
		if old, ok := want[s]; ok {
			if added || id != old {
				t.Fatalf("Add(%q) = %d, %v; already %d", s, id, added, old)
			}
			continue
		}
		if !added || id != int32(len(want)) {
			t.Fatalf("Add(%q) = %d, %v; want %d, true", s, id, added, len(want))
		}
		want[s] = id
		if i < 100 {
			first = append(first, tab.String(id))
		}
	}
	tab.Clip()
	for s, id := range want {
		if got, ok := tab.Get(s); !ok || got != id {
			t.Fatalf("Get(%q) = %d, %v; want %d", s, got, ok, id)
		}
		if got := tab.String(id); got != s {
			t.Fatalf("String(%d) = %q, want %q", id, got, s)
		}
	}
	for _, s := range []string{"", "-1", "100003", "são", "são ", "são 1x", "1 "} {
		if id, ok := tab.Get(s); ok {
			t.Errorf("Get(%q) = %d, true; it was never added", s, id)
		}
	}
	// Strings handed out before the block grew still read the same.
	for i, s := range first {
		if tab.String(int32(i)) != s {
			t.Fatalf("string %d was %q and is now %q", i, s, tab.String(int32(i)))
		}
	}
}

func TestEmptyTable(t *testing.T) {
	var tab Table
	if _, ok := tab.Get("x"); ok {
		t.Fatal("an empty table found a string")
	}
	if tab.Len() != 0 {
		t.Fatalf("Len() = %d", tab.Len())
	}
}

func BenchmarkGet(b *testing.B) {
	var tab Table
	keys := make([]string, 100_000)
	for i := range keys {
		keys[i] = "city " + strconv.Itoa(i)
		tab.Add(keys[i])
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		tab.Get(keys[i%len(keys)])
	}
}

func BenchmarkMap(b *testing.B) {
	m := map[string]int32{}
	keys := make([]string, 100_000)
	for i := range keys {
		keys[i] = "city " + strconv.Itoa(i)
		m[keys[i]] = int32(i)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		_ = m[keys[i%len(keys)]]
	}
}
