package offline

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

// A kept reading is handed out as a copy: what a caller does to one does
// not change the next; and the cache keeps at most maxReadings.
func TestReadingsAreCopiesAndBounded(t *testing.T) {
	today := time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
	turns := []string{"Lisbon then Porto, 3 nights each, from May 2, 2 of us", "we are vegetarian, a quiet place with a pool"}
	first := Understand(turns, today)
	if len(first.Legs) == 0 || len(first.Diets) == 0 {
		t.Fatalf("the reading to test with has no legs or diets: %+v", first)
	}
	want := understand(turns, today)
	first.Legs[0].Location, first.Diets[0] = "Nowhere", "none"
	first.Legs = append(first.Legs, Leg{Location: "Extra"})
	if again := Understand(turns, today); !reflect.DeepEqual(again, want) {
		t.Fatalf("a kept reading changed with what a caller did:\n got %+v\nwant %+v", again, want)
	}

	for i := range maxReadings + 10 {
		Understand([]string{fmt.Sprintf("%d nights in Lisbon", i%20+1), fmt.Sprint(i)}, today)
	}
	readings.mu.Lock()
	n, order := len(readings.byKey), len(readings.order)
	readings.mu.Unlock()
	if n > maxReadings || n != order {
		t.Fatalf("the cache holds %d readings (%d in order), want at most %d", n, order, maxReadings)
	}
}
