package graph

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"
)

// appending is a state that encodes itself, marking what it writes.
type appending struct {
	N    int
	Pad  [24]int // big enough that copying it to the heap would show
	Note string
}

func (a appending) AppendJSON(b []byte) ([]byte, error) {
	b = append(slices.Grow(b, 64), `{"N":`...)
	b = strconv.AppendInt(b, int64(a.N), 10)
	return append(b, `,"by":"AppendJSON"}`...), nil
}

// The engine encodes a JSONAppender with its AppendJSON, calling it as the
// type's method: the only allocation is the JSON's. Anything else goes
// through encoding/json, and so does an interface type's value that is
// not a JSONAppender.
func TestEncoderUsesAppendJSON(t *testing.T) {
	enc := encoderOf[appending]()
	got, err := enc(appending{N: 7})
	if err != nil || string(got) != `{"N":7,"by":"AppendJSON"}` {
		t.Fatalf("encoded %s, %v; want AppendJSON's", got, err)
	}
	if n := testing.AllocsPerRun(100, func() { enc(appending{N: 7}) }); n != 1 && !raceEnabled {
		t.Errorf("encoding a JSONAppender allocated %v times, want once (its JSON)", n)
	}
	viaAny := encoderOf[any]()
	for v, want := range map[any]string{appending{N: 1}: `{"N":1,"by":"AppendJSON"}`, "plain": `"plain"`} {
		if got, err := viaAny(v); err != nil || string(got) != want {
			t.Errorf("encoding %v as any: %s, %v; want %s", v, got, err, want)
		}
	}
	plain, _ := json.Marshal(tstate{Log: []string{"a"}})
	if got, err := encoderOf[tstate]()(tstate{Log: []string{"a"}}); err != nil || string(got) != string(plain) {
		t.Errorf("encoding a plain state: %s, %v; want encoding/json's %s", got, err, plain)
	}
}
