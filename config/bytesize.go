package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ByteSize is a count of bytes, written as a number with an optional KiB,
// MiB or GiB suffix (8388608, 8192KiB, 8MiB).
type ByteSize int64

var units = []struct {
	suffix string
	size   int64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}}

// UnmarshalText reads a ByteSize.
func (b *ByteSize) UnmarshalText(text []byte) error {
	v := strings.TrimSpace(string(text))
	unit := int64(1)
	for _, u := range units {
		if s, ok := strings.CutSuffix(v, u.suffix); ok {
			v, unit = strings.TrimSpace(s), u.size
			break
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/unit {
		return fmt.Errorf("%q is not a count of bytes (such as 8388608 or 8MiB)", string(text))
	}
	*b = ByteSize(n * unit)
	return nil
}

// String writes b with the largest unit that divides it.
func (b ByteSize) String() string {
	for _, u := range units {
		if b != 0 && int64(b)%u.size == 0 {
			return strconv.FormatInt(int64(b)/u.size, 10) + u.suffix
		}
	}
	return strconv.FormatInt(int64(b), 10)
}
