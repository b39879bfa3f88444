package gazetteer

import (
	"testing"

	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// nameKey keys every name of the data as textnorm.Key does.
func TestNameKeyIsKey(t *testing.T) {
	x, err := load()
	if err != nil {
		t.Fatal(err)
	}
	extra := []string{"Rio-de-Janeiro", "  St. John's ", "Köln", "A--B", "x", ""}
	for _, name := range extra {
		if got, want := nameKey(name), textnorm.Key(name); got != want {
			t.Errorf("nameKey(%q) = %q, want %q", name, got, want)
		}
	}
	for i := range x.places.len() {
		c := x.places.city(int32(i))
		if got, want := nameKey(c.Name), textnorm.Key(c.Name); got != want {
			t.Fatalf("nameKey(%q) = %q, want %q", c.Name, got, want)
		}
	}
}
