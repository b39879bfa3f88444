package main

import (
	"testing"
)

func TestCompareSeqs(t *testing.T) {
	tests := []struct {
		name                         string
		got, want                    []int64
		dup, order, missing, unknown int
	}{
		{"exactly once in order", []int64{1, 2, 4}, []int64{1, 2, 4}, 0, 0, 0, 0},
		{"one again after a rejoin", []int64{1, 2, 2, 4}, []int64{1, 2, 4}, 1, 0, 0, 0},
		{"one before an earlier one", []int64{1, 4, 2}, []int64{1, 2, 4}, 0, 1, 0, 0},
		{"one never received", []int64{1, 4}, []int64{1, 2, 4}, 0, 0, 1, 0},
		{"one received not stored", []int64{1, 2, 3, 4}, []int64{1, 2, 4}, 0, 0, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dup, order, missing, unknown := compareSeqs(tt.got, tt.want)
			if dup != tt.dup || order != tt.order || missing != tt.missing || unknown != tt.unknown {
				t.Errorf("compareSeqs(%v, %v) = %d dup, %d order, %d missing, %d unknown; want %d, %d, %d, %d",
					tt.got, tt.want, dup, order, missing, unknown, tt.dup, tt.order, tt.missing, tt.unknown)
			}
		})
	}
}

func TestCheckChains(t *testing.T) {
	tests := []struct {
		name   string
		cps    []storedCheckpoint
		broken int
	}{
		{"a line", []storedCheckpoint{{Thread: "t", ID: "1"}, {Thread: "t", ID: "2", Parent: "1"}, {Thread: "t", ID: "3", Parent: "2"}}, 0},
		{"two threads, each a line", []storedCheckpoint{{Thread: "t", ID: "1"}, {Thread: "u", ID: "1"}, {Thread: "u", ID: "2", Parent: "1"}}, 0},
		{"a fork", []storedCheckpoint{{Thread: "t", ID: "1"}, {Thread: "t", ID: "2", Parent: "1"}, {Thread: "t", ID: "3", Parent: "1"}}, 1},
		{"a missing parent", []storedCheckpoint{{Thread: "t", ID: "1"}, {Thread: "t", ID: "3", Parent: "2"}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &findings{}
			checkChains(f, tt.cps)
			if len(f.Forked) != tt.broken || f.checked[&f.Forked] != len(tt.cps) {
				t.Errorf("checkChains: %d broken (%v) of %d checked; want %d of %d", len(f.Forked), f.Forked,
					f.checked[&f.Forked], tt.broken, len(tt.cps))
			}
		})
	}
}

func TestTwiceInStream(t *testing.T) {
	update := storedEvent{Event: "updates", Data: []byte(`{"respond":{}}`)}
	cardA := storedEvent{Event: "custom", Data: []byte(`{"type":"ui","id":"c1","name":"stay","props":{"n":1}}`)}
	cardB := storedEvent{Event: "custom", Data: []byte(`{"type":"ui","id":"c1","name":"stay","props":{"n":2}}`)}
	token := func(s string) storedEvent {
		return storedEvent{Event: "messages", Data: []byte(`[{"id":"m1","content":"` + s + `"},{}]`)}
	}
	values := storedEvent{Event: "values", Data: []byte(`{"messages":[{"id":"m1","type":"ai","content":"hello"}]}`)}
	tests := []struct {
		name   string
		events []storedEvent
		twice  int
	}{
		{"each once", []storedEvent{update, cardA, cardB, token("hel"), token("lo"), values}, 0},
		{"an update twice", []storedEvent{update, update}, 1},
		{"a card twice with the same content", []storedEvent{cardA, cardA}, 1},
		{"a reply twice", []storedEvent{token("hello"), token("hello"), values}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := twiceInStream(tt.events); len(got) != tt.twice {
				t.Errorf("twiceInStream = %v; want %d findings", got, tt.twice)
			}
		})
	}
}

func TestCheckBookings(t *testing.T) {
	s := &stored{
		runs:     map[string]storedRun{"r1": {ID: "r1", Status: "success"}, "r2": {ID: "r2", Status: "success"}},
		bookings: []storedBooking{{ID: "b1", Key: "k1"}, {ID: "b2", Key: "k2"}, {ID: "b3", Key: "k2"}},
	}
	recs := []*runRecord{
		{Run: "r1", Kind: "confirm", Key: "k1", Booked: bookedCard{Status: "booked", BookingID: "b1"}},
		{Run: "r2", Kind: "confirm", Key: "k2", Booked: bookedCard{Status: "booked", BookingID: "b2"}},
	}
	f := &findings{}
	confirmed, booked := checkBookings(f, s, recs)
	if len(f.Bookings) != 1 || booked != 1 || confirmed != 1 {
		t.Errorf("checkBookings: %v, %d confirmed, %d booked; want the key booked twice found, 1 confirmed, 1 booked",
			f.Bookings, confirmed, booked)
	}
}

func TestCheckStreamed(t *testing.T) {
	cps := []storedCheckpoint{{Step: -1, Source: "input"}, {Step: 0, Source: "loop"}, {Step: 1, Source: "loop", Node: "extraction"},
		{Step: 2, Source: "loop", Node: "callTools"}} // the pending input has no values of its own
	values := storedEvent{Event: "values"}
	custom := storedEvent{Event: "custom"}
	tests := []struct {
		name   string
		events []storedEvent
		broken int
	}{
		{"each checkpoint streamed", []storedEvent{values, custom, values, custom, values}, 0},
		{"the last step's state never streamed", []storedEvent{values, custom, values, custom}, 1},
		{"nothing streamed", nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &findings{}
			checkStreamed(f, storedRun{ID: "r", Status: "success", Attempts: 2}, tt.events, cps)
			if len(f.Unstreamed) != tt.broken {
				t.Errorf("checkStreamed: %v; want %d findings", f.Unstreamed, tt.broken)
			}
		})
	}
}
