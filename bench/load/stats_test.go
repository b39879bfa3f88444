package main

import (
	"strings"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		out := make([]time.Duration, len(ns))
		for i, n := range ns {
			out[i] = time.Duration(n) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = i + 1
	}
	tests := []struct {
		name string
		xs   []time.Duration
		p    float64
		want time.Duration
	}{
		{"empty", nil, 50, 0},
		{"one value", ms(7), 99, 7 * time.Millisecond},
		{"median of four is the second", ms(1, 2, 3, 4), 50, 2 * time.Millisecond},
		{"median of five is the third", ms(1, 2, 3, 4, 5), 50, 3 * time.Millisecond},
		{"p99 of 1..100 is 99", ms(hundred...), 99, 99 * time.Millisecond},
		{"p99 of ten is the largest", ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 99, 10 * time.Millisecond},
		{"p100 is the largest", ms(1, 2, 3), 100, 3 * time.Millisecond},
		{"unsorted input is sorted first", ms(5, 1, 4, 2, 3), 20, 1 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			xs := append([]time.Duration(nil), tt.xs...)
			sortDurations(xs)
			if got := percentile(xs, tt.p); got != tt.want {
				t.Errorf("percentile(%v, %v) = %v, want %v", tt.xs, tt.p, got, tt.want)
			}
		})
	}
}

func TestReadFrames(t *testing.T) {
	stream := "event: metadata\ndata: {\"run_id\":\"r\"}\n\n" +
		": keep-alive\n\n" +
		"event: custom\nid: 3\ndata: {\"a\":\ndata: 1}\n\n" +
		"event: end\ndata: null\n\n" +
		"event: after-end\ndata: x\n\n"
	tests := []struct {
		name   string
		stopAt string
		want   []frame
	}{
		{"reads every frame, skipping comments", "", []frame{
			{"metadata", `{"run_id":"r"}`}, {"custom", "{\"a\":\n1}"}, {"end", "null"}, {"after-end", "x"}}},
		{"stops when told", "end", []frame{
			{"metadata", `{"run_id":"r"}`}, {"custom", "{\"a\":\n1}"}, {"end", "null"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []frame
			err := readFrames(strings.NewReader(stream), func(f frame) bool {
				got = append(got, f)
				return f.event != tt.stopAt
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d frames %q, want %q", len(got), got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("frame %d = %q, want %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestVmHWM(t *testing.T) {
	tests := []struct {
		name    string
		status  string
		want    int64
		wantErr bool
	}{
		{"the peak line", "Name:\ttripgraph\nVmPeak:\t  900000 kB\nVmHWM:\t   81820 kB\nVmRSS:\t   70000 kB\n", 81820, false},
		{"no such line", "Name:\ttripgraph\nVmRSS:\t 70000 kB\n", 0, true},
		{"not a number", "VmHWM:\t lots kB\n", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := vmHWM(strings.NewReader(tt.status))
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("vmHWM = %d, %v; want %d, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestSummariseLog(t *testing.T) {
	log := `{"level":"INFO","msg":"listening","addr":"127.0.0.1:1"}
{"level":"INFO","msg":"request","route":"/runs/stream","status":200,"duration_ms":5}
{"level":"INFO","msg":"request","route":"/runs/stream","status":200,"duration_ms":7}
{"level":"WARN","msg":"request","route":"/runs/stream","status":429,"duration_ms":0}
{"level":"INFO","msg":"request","route":"/healthz","status":200,"duration_ms":1}
{"level":"ERROR","msg":"run failed","error":"boom"}
not json
{"level":"ERROR","msg":"again"}
`
	sum, err := summariseLog(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if sum.streams != 3 || sum.byStatus[200] != 2 || sum.byStatus[429] != 1 || len(sum.byStatus) != 2 {
		t.Errorf("streams %d by status %v, want 3: 200×2, 429×1", sum.streams, sum.byStatus)
	}
	if sum.errors != 2 || sum.firstError != "run failed boom" {
		t.Errorf("errors %d, first %q; want 2, %q", sum.errors, sum.firstError, "run failed boom")
	}
}
