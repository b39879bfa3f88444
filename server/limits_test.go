package server

import (
	"testing"
	"time"
)

func TestLimitsFromEnv(t *testing.T) {
	cases := []struct {
		name    string
		env     map[string]string
		want    Limits
		wantErr bool
	}{
		{"defaults", nil, DefaultLimits, false},
		{"all set", map[string]string{"TRIPGRAPH_MAX_BODY_BYTES": "2048", "TRIPGRAPH_BODY_TIMEOUT": "3s",
			"TRIPGRAPH_WRITE_TIMEOUT": "1m", "TRIPGRAPH_RATE_LIMIT": "2.5", "TRIPGRAPH_RATE_BURST": "5"},
			Limits{MaxBodyBytes: 2048, BodyTimeout: 3 * time.Second, WriteTimeout: time.Minute, RatePerSec: 2.5, RateBurst: 5}, false},
		{"not a number", map[string]string{"TRIPGRAPH_MAX_BODY_BYTES": "1MB"}, Limits{}, true},
		{"zero rate", map[string]string{"TRIPGRAPH_RATE_LIMIT": "0"}, Limits{}, true},
		{"negative burst", map[string]string{"TRIPGRAPH_RATE_BURST": "-1"}, Limits{}, true},
		{"not a duration", map[string]string{"TRIPGRAPH_BODY_TIMEOUT": "10"}, Limits{}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, k := range []string{"TRIPGRAPH_MAX_BODY_BYTES", "TRIPGRAPH_BODY_TIMEOUT", "TRIPGRAPH_WRITE_TIMEOUT", "TRIPGRAPH_RATE_LIMIT", "TRIPGRAPH_RATE_BURST"} {
				t.Setenv(k, c.env[k])
			}
			got, err := LimitsFromEnv()
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want an error: %v", err, c.wantErr)
			}
			if !c.wantErr && got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}
