package paging

import "testing"

func TestClamp(t *testing.T) {
	for _, tc := range []struct{ limit, offset, wantLimit, wantOffset int }{
		{0, 0, 10, 0}, {-3, -1, 10, 0}, {5, 7, 5, 7}, {Max + 1, 2, Max, 2}, {Max, 0, Max, 0},
	} {
		if l, o := Clamp(tc.limit, tc.offset, 10); l != tc.wantLimit || o != tc.wantOffset {
			t.Errorf("Clamp(%d, %d, 10) = %d, %d; want %d, %d", tc.limit, tc.offset, l, o, tc.wantLimit, tc.wantOffset)
		}
	}
}
