package store

import (
	"context"
	"testing"
)

// The announcements of the store's channels are read by the releases on
// either side of this one. A payload is a key (a run's id, or nothing on
// the queue), then details after a colon that a reader which does not
// know them passes over: the queue's watchers wake on any announcement,
// and a run's followers read the table for one they cannot read.
func TestAnnouncementsWithDetailsToComeAreHeard(t *testing.T) {
	h := &hub{subs: map[subKey]map[*subscription]struct{}{}, listening: map[string]chan struct{}{}, done: make(chan struct{})}
	for _, ch := range hubChannels {
		h.listening[ch] = make(chan struct{})
		close(h.listening[ch])
	}
	ctx := context.Background()
	const run = "00000000-0000-4000-8000-000000000001"
	for _, tc := range []struct{ channel, key, payload string }{
		{RunQueueChannel, "", ""},
		{RunQueueChannel, "", "v2:" + run},
		{RunCancelChannel, run, run + ":v2"},
		{RunEventsChannel, run, run + ":v2"},
	} {
		sub, unsubscribe, err := h.subscribe(ctx, tc.channel, tc.key)
		if err != nil {
			t.Fatal(err)
		}
		h.deliver(tc.channel, tc.payload)
		select {
		case <-sub.wake:
		default:
			t.Errorf("%s: the announcement %q woke nobody", tc.channel, tc.payload)
		}
		if tc.channel == RunEventsChannel && !sub.take().mustRead {
			t.Errorf("%s: the announcement %q, which this release cannot read, did not make its follower read the table", tc.channel, tc.payload)
		}
		unsubscribe()
	}
}
