package httpx

import (
	"strconv"
	"testing"
)

func TestLimiterForgetsFullBuckets(t *testing.T) {
	l := NewLimiter(1000, 1)
	for i := range maxKeys + 10 {
		l.Allow(strconv.Itoa(i), "")
	}
	if len(l.keys) > maxKeys {
		t.Fatalf("%d buckets kept, want at most %d", len(l.keys), maxKeys)
	}
}
