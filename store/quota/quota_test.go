package quota

import (
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
)

// Each rule lets the last one in and refuses the next, with its code and
// a message that names the limit.
func TestEachRuleAtItsEdge(t *testing.T) {
	l := Limits{Crons: 3, CronInterval: time.Minute, Items: 2, ItemBytes: 100, ActiveRuns: 4}
	tests := []struct {
		name      string
		allowed   error
		refused   error
		code      errcode.Code
		inMessage string
	}{
		{"crons", l.CheckCrons(2), l.CheckCrons(3), errcode.LimitExceeded, "cron limit"},
		{"cron interval", l.CheckCronInterval("@every 1m", time.Minute), l.CheckCronInterval("@every 59s", 59*time.Second),
			errcode.LimitExceeded, "at most once every 1m"},
		{"items", l.CheckItems(Usage{1, 10}, Usage{2, 20}), l.CheckItems(Usage{2, 20}, Usage{3, 30}), errcode.LimitExceeded, "store item limit"},
		{"bytes", l.CheckItems(Usage{1, 60}, Usage{2, 100}), l.CheckItems(Usage{1, 60}, Usage{2, 101}), errcode.LimitExceeded, "store size limit"},
		{"active runs", l.CheckActiveRuns(3), l.CheckActiveRuns(4), errcode.TooManyRequests, "run limit"},
	}
	for _, tt := range tests {
		if tt.allowed != nil {
			t.Errorf("%s: the last one allowed was refused: %v", tt.name, tt.allowed)
		}
		if errcode.Of(tt.refused) != tt.code || !strings.Contains(errcode.Message(tt.refused), tt.inMessage) {
			t.Errorf("%s: one more = %v, want %s saying %q", tt.name, tt.refused, tt.code, tt.inMessage)
		}
	}
}

// A put that does not grow the store is allowed over a limit lowered
// since: replacing an item with a smaller one, or with one as large.
func TestAPutThatDoesNotGrowTheStoreIsAllowed(t *testing.T) {
	l := Limits{Items: 2, ItemBytes: 100}
	for _, c := range []struct{ before, after Usage }{
		{Usage{5, 500}, Usage{5, 400}},
		{Usage{5, 500}, Usage{5, 500}},
	} {
		if err := l.CheckItems(c.before, c.after); err != nil {
			t.Errorf("CheckItems(%v, %v) = %v, want it allowed", c.before, c.after, err)
		}
	}
	if err := l.CheckItems(Usage{5, 500}, Usage{5, 501}); errcode.Of(err) != errcode.LimitExceeded {
		t.Errorf("growing a store over its bytes: %v, want LIMIT_EXCEEDED", err)
	}
}

// A put adds an item and its bytes, or replaces one and counts the
// difference.
func TestAfterPut(t *testing.T) {
	held := Usage{Items: 3, Bytes: 300}
	old := int64(120)
	for _, c := range []struct {
		name     string
		replaced *int64
		want     Usage
	}{
		{"a new item", nil, Usage{4, 400}},
		{"a replaced one", &old, Usage{3, 280}},
	} {
		if got := held.AfterPut(100, c.replaced); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// Limits not set are the defaults; those set are kept.
func TestOrDefault(t *testing.T) {
	got := Limits{Crons: 7}.OrDefault()
	want := Default
	want.Crons = 7
	if got != want {
		t.Errorf("OrDefault = %+v, want %+v", got, want)
	}
}

// A size is written in whole MiB or KiB when it is one.
func TestSize(t *testing.T) {
	for n, want := range map[int64]string{50 << 20: "50 MiB", 64 << 10: "64 KiB", 1000: "1000 bytes", 3<<20 + 1: "3145729 bytes"} {
		if got := size(n); got != want {
			t.Errorf("size(%d) = %q, want %q", n, got, want)
		}
	}
}
