//go:build race

package graph

// raceEnabled says that the race detector is on: it adds allocations of
// its own, so tests that count allocations skip the count.
const raceEnabled = true
