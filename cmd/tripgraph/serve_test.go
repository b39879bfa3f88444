package main

import "testing"

func TestDBPoolFromEnv(t *testing.T) {
	for _, tc := range []struct {
		value   string
		workers int
		want    int32
		wantErr bool
	}{
		{"", 4, 2*4 + dbPoolExtra, false},
		{"", 1, 2*1 + dbPoolExtra, false},
		{"32", 4, 32, false},
		{"1", 4, 0, true},
		{"many", 4, 0, true},
	} {
		t.Run(tc.value, func(t *testing.T) {
			t.Setenv("TRIPGRAPH_DB_POOL", tc.value)
			got, err := dbPoolFromEnv(tc.workers)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Fatalf("%d workers: got %d, %v; want %d, error %v", tc.workers, got, err, tc.want, tc.wantErr)
			}
		})
	}
}
