package offline

import (
	"context"
	"runtime"
	"testing"
)

func zzLive() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func TestZZLive(t *testing.T) {
	a := zzLive()
	m, err := New()
	if err != nil {
		t.Fatal(err)
	}
	b := zzLive()
	msgs := conversationOf("Extract the trip details.\nToday: 2026-11-21", []string{"4 nights in Lisbon in May, 3 of us, hotels please"})
	if _, err := m.GenerateContent(context.Background(), msgs, extractOpts...); err != nil {
		t.Fatal(err)
	}
	c := zzLive()
	t.Logf("before New %.2f MiB; New adds %.2f MiB; first call adds %.2f MiB", float64(a)/(1<<20), float64(b-a)/(1<<20), float64(c-b)/(1<<20))
	runtime.KeepAlive(m)
}
