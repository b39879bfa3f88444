package mcpbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkRoundTrip measures one tool call through the bridge, on a warm
// session: get-accommodation on tripgraph's own server (one PostgreSQL
// query) and add on the test server (no I/O), each over Streamable HTTP on
// loopback and in process, and in process list-accommodations, whose
// result is a page of places, as a trip's first turn calls it. It reports
// the median and the 99th percentile.
func BenchmarkRoundTrip(b *testing.B) {
	o := ourServer(b)
	ctx := context.Background()
	id := firstAccommodation(b, o, ctx)
	get := json.RawMessage(`{"id":"` + id + `"}`)
	list := stayInLisbon(4)
	add := json.RawMessage(`{"a":1,"b":2}`)
	cases := []struct {
		name string
		cfg  ServerConfig
		tool string
		args json.RawMessage
	}{
		{"ours/http", o.http, "get-accommodation", get},
		{"ours/memory", o.memory, "get-accommodation", get},
		{"ours-list/memory", o.memory, "list-accommodations", list},
		{"add/http", newHTTPServer(b, false).config("test"), "add", add},
		{"add/memory", ServerConfig{Name: "test", Transport: Memory, NewServer: newTestServer, Enabled: true}, "add", add},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			br, err := New(Options{Servers: []ServerConfig{c.cfg}, Secret: testSecret})
			if err != nil {
				b.Fatal(err)
			}
			defer br.Close()
			tools := br.For(User{ID: o.demo})
			if _, err := tools.Call(ctx, c.tool, c.args); err != nil { // dial and list once
				b.Fatal(err)
			}
			took := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				if _, err := tools.Call(ctx, c.tool, c.args); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
			}
			reportPercentiles(b, took)
		})
	}
}

// BenchmarkSDKRoundTrip is the same small call as add/memory with the
// go-sdk client alone, without the bridge: the difference is the bridge's
// own cost.
func BenchmarkSDKRoundTrip(b *testing.B) {
	ctx := context.Background()
	clientT, serverT := mcp.NewInMemoryTransports()
	if _, err := newTestServer("").Connect(ctx, serverT, nil); err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, clientT, &mcp.ClientSessionOptions{ProtocolVersion: DefaultProtocolVersion})
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "add", Arguments: json.RawMessage(`{"a":1,"b":2}`)}
	took := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		if _, err := cs.CallTool(ctx, params); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	reportPercentiles(b, took)
}

func reportPercentiles(b *testing.B, took []time.Duration) {
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(took[len(took)*99/100].Nanoseconds())/1e3, "p99-µs")
}

func firstAccommodation(b *testing.B, o *ours, ctx context.Context) string {
	br, err := New(Options{Servers: []ServerConfig{o.memory}})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	res, err := br.For(User{ID: o.demo}).Call(ctx, "list-accommodations", stayInLisbon(2))
	if err != nil {
		b.Fatal(err)
	}
	var out struct {
		Accommodations []struct {
			ID string `json:"id"`
		} `json:"accommodations"`
	}
	if err := json.Unmarshal(res.Full, &out); err != nil || len(out.Accommodations) == 0 {
		b.Fatalf("no accommodation in Lisbon: %s, %v", res.Full, err)
	}
	return out.Accommodations[0].ID
}

// stayInLisbon is list-accommodations' arguments for two guests and a stay
// of nights starting a month from now: the tool refuses dates past, or too
// far ahead.
func stayInLisbon(nights int) json.RawMessage {
	start := time.Now().UTC().AddDate(0, 1, 0)
	return json.RawMessage(fmt.Sprintf(`{"location":"Lisbon","startDate":%q,"endDate":%q,"guests":2}`,
		start.Format(time.DateOnly), start.AddDate(0, 0, nights).Format(time.DateOnly)))
}

// BenchmarkCountItems counts the items of a result shaped as
// list-accommodations answers (an object with twenty stays), walking its
// text (countItems) and decoding it (countDecoded).
func BenchmarkCountItems(b *testing.B) {
	stays := make([]map[string]any, 20)
	for i := range stays {
		stays[i] = map[string]any{"id": fmt.Sprint("stay-", i), "name": "Casa [Alfama], Lisboa", "nightlyPrice": 95.5, "rating": 4.6, "capacity": 4, "url": "https://example.com/stay"}
	}
	data, err := json.Marshal(map[string]any{"location": "Lisbon", "covered": true, "nights": 4, "accommodations": stays, "startDate": "2027-05-01"})
	if err != nil {
		b.Fatal(err)
	}
	for name, count := range map[string]func(json.RawMessage) int{"walked": countItems, "decoded": countDecoded} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if count(data) != len(stays) {
					b.Fatal("miscounted")
				}
			}
		})
	}
}
