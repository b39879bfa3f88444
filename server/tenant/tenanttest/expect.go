package tenanttest

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/tripgraph/tripgraph/errcode"
)

// The checks the parts of the suite share.

// subtest is one test of an area of the suite.
type subtest struct {
	name string
	fn   func(*testing.T, Backend)
}

// subtests runs an area's tests, each as a subtest on b.
func subtests(t *testing.T, b Backend, tests []subtest) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, b) })
	}
}

// wantCode reports an error unless err carries code.
func wantCode(t *testing.T, what string, err error, code errcode.Code) bool {
	t.Helper()
	if err == nil || errcode.Of(err) != code {
		t.Errorf("%s: %v, want %s", what, err, code)
		return false
	}
	return true
}

// sameJSON reports whether two JSON texts hold the same value, whatever
// their spacing and the order of their members (numbers by value).
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// ptr is a pointer to v.
func ptr[T any](v T) *T { return &v }

// second is the error of a call that returns a value too.
func second[T any](_ T, err error) error { return err }

// reversed is a reversed copy of list.
func reversed[T any](list []T) []T {
	out := slices.Clone(list)
	slices.Reverse(out)
	return out
}
