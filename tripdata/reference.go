package tripdata

import (
	"encoding/hex"
	"strings"
)

// referenceAlphabet is Crockford's base 32: digits and letters without I,
// L, O and U, which read or sound like others.
const referenceAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// BookingReference is a booking's reference as a person reads it aloud or
// types it: eight characters of Crockford's base 32 in two groups
// ("K7QM-4X2D"), made from the last 40 bits of the booking's UUID (random
// in both backends' ids). It is derived, never stored; "" for an id that
// is not a UUID.
func BookingReference(bookingID string) string {
	raw, err := hex.DecodeString(strings.ReplaceAll(bookingID, "-", ""))
	if err != nil || len(raw) != 16 {
		return ""
	}
	var bits uint64
	for _, b := range raw[11:] {
		bits = bits<<8 | uint64(b)
	}
	var out [9]byte
	for i := 8; i >= 0; i-- {
		if i == 4 {
			out[i] = '-'
			continue
		}
		out[i] = referenceAlphabet[bits&31]
		bits >>= 5
	}
	return string(out[:])
}
