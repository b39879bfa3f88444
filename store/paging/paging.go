// Package paging is the one rule for the pages of the store's lists: how
// many rows a page holds when the caller does not say, and at most.
package paging

// Max is the most rows one page holds.
const Max = 1000

// Clamp returns a list's limit and offset from a caller's: def when the
// limit is 0 or less, at most Max; the offset at least 0.
func Clamp(limit, offset, def int) (int, int) {
	switch {
	case limit <= 0:
		limit = def
	case limit > Max:
		limit = Max
	}
	return limit, max(offset, 0)
}
