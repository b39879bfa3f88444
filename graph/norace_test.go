//go:build !race

package graph

// raceEnabled says that the race detector is on (see race_test.go).
const raceEnabled = false
