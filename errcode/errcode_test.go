package errcode

import (
	"errors"
	"fmt"
	"testing"
)

func TestOfAndMessage(t *testing.T) {
	cause := errors.New("pq: duplicate key")
	tests := []struct {
		name     string
		err      error
		wantCode Code
		wantMsg  string
	}{
		{"plain", New(NotFound, "album %q not found", "x"), NotFound, `album "x" not found`},
		{"wrapped by fmt", fmt.Errorf("booking: %w", Wrap(Conflict, cause, "dates overlap")), Conflict, "dates overlap"},
		{"foreign error hides detail", fmt.Errorf("query: %w", cause), Internal, "internal error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Of(tt.err); got != tt.wantCode {
				t.Errorf("Of = %s, want %s", got, tt.wantCode)
			}
			if got := Message(tt.err); got != tt.wantMsg {
				t.Errorf("Message = %q, want %q", got, tt.wantMsg)
			}
		})
	}
	if !errors.Is(Wrap(Conflict, cause, "x"), cause) {
		t.Error("Wrap must keep the cause in the chain")
	}
}

func TestHTTPStatusOfEveryCode(t *testing.T) {
	want := map[Code]int{BadRequest: 400, Unauthenticated: 401, Forbidden: 403, NotFound: 404, Conflict: 409,
		UnsupportedMedia: 415, TooManyRequests: 429, LimitExceeded: 422, Unavailable: 503, Internal: 500, Code("SOMETHING_ELSE"): 500}
	for code, status := range want {
		if got := HTTPStatus(code); got != status {
			t.Errorf("HTTPStatus(%s) = %d, want %d", code, got, status)
		}
	}
}
