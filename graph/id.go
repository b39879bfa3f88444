package graph

import (
	"crypto/rand"
	"sync"
	"time"
)

// newID returns a new UUIDv7 (RFC 9562) in canonical form: 48 bits of Unix
// time in milliseconds, 12 bits that order the ids made within one
// millisecond, and 62 random bits. It makes the ids github.com/google/uuid's
// NewV7 makes, with one allocation (the string) where NewV7 and String
// make two: NewV7's array escapes through the io.Reader it is read from,
// while crypto/rand.Read keeps its argument on the stack.
func newID() string { return newIDAt(time.Now()) }

// newIDAt is newID made at now.
func newIDAt(now time.Time) string {
	var u [16]byte
	ms, seq := v7Time(now)
	u[0], u[1], u[2], u[3], u[4], u[5] = byte(ms>>40), byte(ms>>32), byte(ms>>24), byte(ms>>16), byte(ms>>8), byte(ms)
	// crypto/rand.Read never fails (see its documentation).
	rand.Read(u[6:])
	u[6] = 0x70 | byte(seq>>8)&0x0f // version 7
	u[7] = byte(seq)
	u[8] = 0x80 | u[8]&0x3f // the RFC 9562 variant
	return formatID(&u)
}

// lastV7 is the time of the newest id this process made, in units of
// 1/4096 ms: milliseconds in the high bits, the 12 bits after them the
// fraction of the millisecond.
var lastV7 struct {
	sync.Mutex
	t int64
}

// v7Time returns the time of a new id made at now: its millisecond, and the
// fraction of it in 1/4096 ms, as NewV7 counts them. An id made in the same
// fraction as the one before, or while the clock steps back, takes the
// next value after that one's, so that this process's ids sort in the
// order they were made.
func v7Time(now time.Time) (ms, seq int64) {
	t := v7Units(now) // the fraction in units of 256 ns: at most 3906, which fits in 12 bits
	lastV7.Lock()
	if t <= lastV7.t {
		t = lastV7.t + 1
	}
	lastV7.t = t
	lastV7.Unlock()
	return t >> 12, t & 0xfff
}

// formatID writes u as a canonical UUID: lowercase hex, hyphenated.
func formatID(u *[16]byte) string {
	const hex = "0123456789abcdef"
	var b [36]byte
	j := 0
	for i, c := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b[j] = '-'
			j++
		}
		b[j], b[j+1] = hex[c>>4], hex[c&0x0f]
		j += 2
	}
	return string(b[:])
}

// parseID reads a canonical UUID (see CheckID).
func parseID(s string) ([16]byte, bool) {
	var u [16]byte
	if !canonicalUUID(s) {
		return u, false
	}
	j := 0
	for i := range u {
		if s[j] == '-' {
			j++
		}
		u[i] = unhex(s[j])<<4 | unhex(s[j+1])
		j += 2
	}
	return u, true
}

// idTime returns the time a UUIDv7 was made at, in units of 1/4096 ms
// (see v7Time): its 48 bits of milliseconds and the 12 bits after them.
func idTime(id string) (int64, bool) {
	u, ok := parseID(id)
	if !ok {
		return 0, false
	}
	var t int64
	for _, b := range u[:6] {
		t = t<<8 | int64(b)
	}
	return t<<12 | int64(u[6]&0x0f)<<8 | int64(u[7]), true
}

// v7Now returns the time of an id made now, in idTime's units: every id
// this process made before has an earlier time, every one it makes after
// a later one.
func v7Now() int64 {
	ms, seq := v7Time(time.Now())
	return ms<<12 | seq
}

// v7Units is now in idTime's units.
func v7Units(now time.Time) int64 {
	nano := now.UnixNano()
	ms := nano / 1e6
	return ms<<12 + (nano-ms*1e6)>>8
}

// unhex is the value of a lowercase hex digit.
func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'a' + 10
}

// idAfter returns a new UUIDv7, made at now, that sorts after floor, even
// when floor was made by a process whose clock is ahead of ours: then it is
// floor with its random bits incremented.
func idAfter(floor string, now time.Time) string {
	id := newIDAt(now)
	if id > floor {
		return id
	}
	u, ok := parseID(floor)
	if !ok {
		return id
	}
	for i := 15; i >= 9; i-- { // bytes 9 to 15 are random; byte 8 holds the variant
		if u[i]++; u[i] != 0 {
			return formatID(&u)
		}
	}
	return id
}
