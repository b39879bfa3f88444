package lru

import (
	"fmt"
	"sync"
	"testing"
)

func TestForgetsTheLeastRecentlyUsed(t *testing.T) {
	c := New[string, int](3)
	c.Put("a", 1, 1)
	c.Put("b", 2, 1)
	c.Put("c", 3, 1)
	if v, ok := c.Get("a"); !ok || v != 1 { // a is now the most recent
		t.Fatalf("Get(a) = %d, %v; want 1, true", v, ok)
	}
	c.Put("d", 4, 1) // over capacity: b goes
	if _, ok := c.Get("b"); ok {
		t.Error("b is still cached; it was the least recently used")
	}
	for k, want := range map[string]int{"a": 1, "c": 3, "d": 4} {
		if v, ok := c.Get(k); !ok || v != want {
			t.Errorf("Get(%s) = %d, %v; want %d, true", k, v, ok, want)
		}
	}
	if n, w := c.Len(); n != 3 || w != 3 {
		t.Errorf("Len() = %d, %d; want 3, 3", n, w)
	}
}

func TestWeighsEntries(t *testing.T) {
	c := New[string, string](12)
	c.Put("small", "s", 2)
	c.Put("big", "b", 8)
	c.Put("more", "m", 3) // 13 > 12: small, the least recent, goes
	if _, ok := c.Get("small"); ok {
		t.Error("small is still cached")
	}
	if _, ok := c.Get("big"); !ok {
		t.Error("big was forgotten though the cache fits it and more")
	}
	if n, w := c.Len(); n != 2 || w != 11 {
		t.Errorf("Len() = %d, %d; want 2, 11", n, w)
	}
	c.Put("huge", "h", 13) // heavier than the whole cache: not kept, nothing forgotten
	if _, ok := c.Get("huge"); ok {
		t.Error("a value heavier than the cache was kept")
	}
	if n, _ := c.Len(); n != 2 {
		t.Errorf("Len() = %d entries after a refused Put; want 2", n)
	}
}

func TestPutReplacesTheValue(t *testing.T) {
	c := New[int, string](4)
	c.Put(1, "first", 1)
	c.Put(2, "other", 1)
	c.Put(1, "second", 3)
	if v, _ := c.Get(1); v != "second" {
		t.Errorf("Get(1) = %q; want the second value put", v)
	}
	if n, w := c.Len(); n != 2 || w != 4 {
		t.Errorf("Len() = %d, %d; want 2, 4 (the second value's weight)", n, w)
	}
	c.Put(1, "too heavy", 5) // not kept, and the former value is gone too
	if v, ok := c.Get(1); ok {
		t.Errorf("Get(1) = %q after a value heavier than the cache", v)
	}
	if n, w := c.Len(); n != 1 || w != 1 {
		t.Errorf("Len() = %d, %d; want 1, 1", n, w)
	}
}

func TestConcurrentUse(t *testing.T) {
	c := New[string, int](50)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 1000 {
				k := fmt.Sprint((g*7 + i) % 80)
				c.Put(k, i, 1)
				c.Get(k)
			}
		})
	}
	wg.Wait()
	if n, w := c.Len(); n > 50 || int64(n) != w {
		t.Errorf("Len() = %d, %d; want at most 50 entries, each weighing 1", n, w)
	}
}
