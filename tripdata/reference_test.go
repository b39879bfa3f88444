package tripdata

import (
	"regexp"
	"testing"
)

func TestBookingReference(t *testing.T) {
	tests := []struct{ id, want string }{
		{"00000000-0000-4000-8000-000000000000", "0000-0000"},
		{"00000000-0000-4000-8000-000000000001", "0000-0001"},
		{"00000000-0000-4000-8000-00000000001f", "0000-000Z"},
		{"00000000-0000-4000-8000-000000000020", "0000-0010"},
		{"00000000-0000-4000-8000-00ffffffffff", "ZZZZ-ZZZZ"},
		{"0193a6f0-1c2d-7e3f-8a4b-5c6d7e8f9a0b", "DNZ8-Z6GB"},
		{"not a uuid", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := BookingReference(tt.id); got != tt.want {
			t.Errorf("BookingReference(%q) = %q, want %q", tt.id, got, tt.want)
		}
	}
	spoken := regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$`)
	if got := BookingReference("7c9e6679-7425-40de-944b-e07fc1f90ae7"); !spoken.MatchString(got) {
		t.Errorf("reference %q has letters that read like others", got)
	}
}
