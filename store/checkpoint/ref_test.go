package checkpoint

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/graph"
)

const card = `{"id":"call-1","name":"accommodations-list","props":{"location":"Lisbon","accommodations":[` +
	`{"id":"lisbon-1","name":"Lisbon Grand Hotel","nightlyPrice":90,"rating":4.5},` +
	`{"id":"lisbon-2","name":"Lisbon Riverside Apartments","nightlyPrice":115,"rating":4.3}]}}`

func TestRefRoundTrips(t *testing.T) {
	moved := strings.ReplaceAll(strings.ReplaceAll(card, "call-1", "call-9"), "90", "95")
	for _, tc := range []struct {
		name, update, ref string
		atMost            int // the most bytes the copies may take; 0: stored as it is
	}{
		{"the reference again", card, card, 8},
		{"a few values changed", moved, card, len(moved) / 4},
		{"the reference in the middle", `{"ui":[` + card + `]}`, "prefix " + card + " suffix", 24},
		{"nothing in common", `{"timestamp":1772409660002}`, card, 0},
		{"shorter than a copy", `{"a":1}`, `{"a":1}`, 0},
		{"an empty reference", card, "", 0},
	} {
		enc := encodeRef([]byte(tc.update), []byte(tc.ref), new(refScratch))
		if tc.atMost == 0 {
			if enc != nil {
				t.Errorf("%s: stored as %d bytes of copies, want as it is", tc.name, len(enc))
			}
			continue
		}
		if enc == nil || len(enc) > tc.atMost {
			t.Errorf("%s: %d bytes stored as %d bytes of copies, want at most %d", tc.name, len(tc.update), len(enc), tc.atMost)
			continue
		}
		back, err := appendDecodedRef(nil, enc, []byte(tc.ref))
		if err != nil || string(back) != tc.update {
			t.Errorf("%s: read back as %q, %v", tc.name, back, err)
		}
	}
}

// Random edits of a reference read back exactly, however they fall.
func TestRefRoundTripsRandomEdits(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ref := []byte(strings.Repeat(card, 3))
	scratch := new(refScratch) // reused, as the pool does
	for i := range 500 {
		update := bytes.Clone(ref[r.IntN(len(ref)/2):])
		for range r.IntN(20) {
			at := r.IntN(len(update))
			switch r.IntN(3) {
			case 0:
				update[at] = byte('a' + r.IntN(26))
			case 1:
				update = append(update[:at], update[min(len(update), at+r.IntN(30)):]...)
			default:
				update = append(update[:at], append([]byte(fmt.Sprint(r.Int())), update[at:]...)...)
			}
			if len(update) == 0 {
				update = []byte("x")
			}
		}
		enc := encodeRef(update, ref, scratch)
		if enc == nil {
			continue
		}
		if len(enc) >= len(update) {
			t.Fatalf("edit %d: %d bytes stored as %d", i, len(update), len(enc))
		}
		back, err := appendDecodedRef(nil, enc, ref)
		if err != nil || !bytes.Equal(back, update) {
			t.Fatalf("edit %d: %q read back as %q, %v", i, update, back, err)
		}
	}
}

func TestDecodeRefRejectsMalformed(t *testing.T) {
	ref := []byte(card)
	for name, b := range map[string][]byte{
		"a copy past the reference's end": binary.AppendUvarint([]byte{refMarker, 0, 10}, uint64(len(card))),
		"a copy from past the end":        {refMarker, 0, 0xff, 0x7f, 1},
		"literals past the end":           {refMarker, 5, 'a'},
		"a truncated number":              {refMarker, 0x80},
		"a copy without its length":       {refMarker, 1, 'a', 3},
	} {
		if got, err := appendDecodedRef(nil, b, ref); err == nil {
			t.Errorf("%s: read back as %q without an error", name, got)
		}
	}
	parent := &chain{update: ref}
	if got, err := readUpdate([]byte(`{"a":1}`), parent); err != nil || string(got) != `{"a":1}` {
		t.Errorf("an update stored as it is read back as %q, %v", got, err)
	}
	if got, err := readUpdate(storedUpdate([]byte(card), parent), parent); err != nil || string(got) != card {
		t.Errorf("an update stored as copies read back as %q, %v", got, err)
	}
}

// The reference holds the parent's update last, and of each array the
// newest elements, no more than refElems of them.
func TestReference(t *testing.T) {
	state, err := parseObject([]byte(`{"messages":["m1","m2","m3","m4","m5","m6"],"timestamp":7}`))
	if err != nil {
		t.Fatal(err)
	}
	ch := &chain{state: state, update: []byte(`{"messages":["m6"]}`)}
	want := `"m3""m4""m5""m6"7{"messages":["m6"]}`
	if got := string(ch.appendReference(nil)); got != want {
		t.Errorf("reference %s, want %s", got, want)
	}
}

// repeatingTurns returns the checkpoints of turns that each ask for the
// same city's hotels again, as the trip graph saves them: the input pending
// (its update is the input), then applied (the same update), then the card.
func repeatingTurns(t testing.TB, turns int) []graph.Checkpoint {
	r := rand.New(rand.NewPCG(7, 8))
	hotels := accommodationProps(r, "Lisbon")
	var st chatState
	var out []graph.Checkpoint
	save := func(node, source string, u chatUpdate) {
		out = append(out, graph.Checkpoint{Step: len(out), Node: node, State: mustJSON(t, st), Update: mustJSON(t, u),
			Metadata: graph.Metadata{Source: source}, CreatedAt: time.Unix(1_700_000_000, 0).UTC()})
	}
	for turn := range turns {
		input := chatUpdate{Messages: []chatMessage{{ID: fmt.Sprint("h", turn), Role: "human",
			Content: fmt.Sprintf("Hotels in Lisbon for %d guests, please", 1+turn%4)}}}
		save("", graph.SourceInput, input)
		st = reduceChat(st, input)
		save("", graph.SourceLoop, input)
		ai := chatMessage{ID: fmt.Sprint("a", turn), Role: "ai", Content: "Here are 5 places to stay in Lisbon."}
		result := chatUpdate{Messages: []chatMessage{ai},
			UI: []uiRecord{{ID: fmt.Sprint("ui", turn), Name: "accommodations-list", Props: hotels, MessageID: ai.ID}}}
		st = reduceChat(st, result)
		save("callTools", graph.SourceLoop, result)
	}
	return out
}

// A delta row's update is stored as copies from its parent where it
// repeats it (the applied input repeats the pending one; a new card
// repeats the last one), and every way of reading the thread gives it
// back: the saver that wrote it, with its chains cached, a fresh one
// reading each checkpoint alone, and a list.
func TestUpdatesAreStoredAsCopiesOfTheirParent(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	writer, thread, saved := putThread(t, s, "ref-updates", repeatingTurns(t, 6))
	rows, err := s.Pool.Query(ctx, `SELECT length(update_json) FROM checkpoints WHERE thread_id = $1 ORDER BY id`, thread)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		t.Fatal(err)
	}
	for i := 3; i < len(saved); i++ { // the first turn has nothing to repeat
		if stored[i] > len(saved[i].Update)/4 {
			t.Errorf("checkpoint %d's %d-byte update takes %d bytes, want at most a quarter", i, len(saved[i].Update), stored[i])
		}
	}

	fresh := New(s.Pool, Options{})
	list, err := fresh.List(ctx, thread, graph.ListOptions{})
	if err != nil || len(list) != len(saved) {
		t.Fatalf("listed %d checkpoints (%v), want %d", len(list), err, len(saved))
	}
	for i, want := range saved {
		assertCheckpoint(t, list[len(saved)-1-i], want)
		for _, cp := range []*Saver{writer, New(s.Pool, Options{})} {
			got, err := cp.Get(ctx, thread, want.ID)
			if err != nil {
				t.Fatal(err)
			}
			assertCheckpoint(t, got, want)
		}
	}
}

// BenchmarkStoredUpdate measures what storing a step's update as copies
// costs a write: a card's update against a parent with a few cards.
func BenchmarkStoredUpdate(b *testing.B) {
	cps := repeatingTurns(b, 6)
	parentCP, child := cps[len(cps)-2], cps[len(cps)-1]
	state, err := parseObject(parentCP.State)
	if err != nil {
		b.Fatal(err)
	}
	parent := &chain{state: state, update: parentCP.Update}
	b.SetBytes(int64(len(child.Update)))
	for b.Loop() {
		storedUpdate(child.Update, parent)
	}
}
