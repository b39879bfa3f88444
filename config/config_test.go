package config

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the README's table of settings from Markdown()")

const (
	tableStart = "<!-- settings: made by go test ./config -update; do not edit -->\n"
	tableEnd   = "<!-- end of settings -->\n"
)

// The README lists exactly the settings of Config, with their defaults.
func TestREADMETableIsTheConfiguration(t *testing.T) {
	path := filepath.Join("..", "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	start, end := strings.Index(readme, tableStart), strings.Index(readme, tableEnd)
	if start < 0 || end < start {
		t.Fatalf("README.md has no table between %q and %q", tableStart, tableEnd)
	}
	start += len(tableStart)
	if *update {
		readme = readme[:start] + Markdown() + readme[end:]
		if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := readme[start:end]; got != Markdown() {
		t.Errorf("README.md's table of settings differs from the configuration; run go test ./config -update\n--- README\n%s\n--- config\n%s", got, Markdown())
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	dotEnv := filepath.Join(dir, ".env")
	if err := os.WriteFile(dotEnv, []byte("# a comment\nexport TRIPGRAPH_WORKERS=7\nTRIPGRAPH_MODEL='openai:gpt-4o-mini'\n\nTRIPGRAPH_ADDR=0.0.0.0:9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load([]string{"TRIPGRAPH_ADDR=127.0.0.1:9999", "TRIPGRAPH_RUN_LEASE=", "UNRELATED=x"}, dotEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Runner.Workers != 7 || c.Model.Spec != "openai:gpt-4o-mini" {
		t.Errorf(".env values not read: workers %d, model %q", c.Runner.Workers, c.Model.Spec)
	}
	if c.HTTP.Addr != "127.0.0.1:9999" {
		t.Errorf("the environment must win over .env: addr %q", c.HTTP.Addr)
	}
	if c.Runner.Lease != Default().Runner.Lease {
		t.Errorf("an empty variable must count as unset: lease %s", c.Runner.Lease)
	}
	if _, err := Load(nil, filepath.Join(dir, "missing")); err != nil {
		t.Errorf("a missing .env is none: %v", err)
	}
	if err := os.WriteFile(dotEnv, []byte("NOT A SETTING\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(nil, dotEnv); err == nil || !strings.Contains(err.Error(), ".env:1") {
		t.Errorf("a malformed .env line: %v, want an error naming the line", err)
	}
}

func TestValues(t *testing.T) {
	c, err := FromMap(map[string]string{
		"MCP_MAX_SESSIONS": "7", "MCP_SESSION_TIMEOUT": "90s", "TRIPGRAPH_CHECKPOINT_CACHE_BYTES": "16MiB",
		"TRIPGRAPH_MCP_ALLOW_HOSTS": " mcp.internal , 10.9.0.0/16,", "TRIPGRAPH_RATE_LIMIT": "2.5",
		"TRIPGRAPH_SHUTDOWN_GRACE": "0s", "TRIPGRAPH_DB_POOL": "32", "TRIPGRAPH_THREAD_TTL": "720h",
		"TRIPGRAPH_MAX_STORE_BYTES": "5MiB", "TRIPGRAPH_CRON_MIN_INTERVAL": "5m", "TRIPGRAPH_RUN_EVENTS_TTL": "0",
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, check := range []struct {
		what      string
		got, want any
	}{
		{"MCP_MAX_SESSIONS", c.MCP.MaxSessions, 7},
		{"MCP_SESSION_TIMEOUT", c.MCP.SessionTimeout, 90 * time.Second},
		{"TRIPGRAPH_CHECKPOINT_CACHE_BYTES", c.Storage.CheckpointCache, ByteSize(16 << 20)},
		{"TRIPGRAPH_MCP_ALLOW_HOSTS", strings.Join(c.Servers.AllowHosts, "|"), "mcp.internal|10.9.0.0/16"},
		{"TRIPGRAPH_RATE_LIMIT", c.Limits.RatePerSec, 2.5},
		{"TRIPGRAPH_SHUTDOWN_GRACE", c.Runner.ShutdownGrace, time.Duration(0)},
		{"TRIPGRAPH_THREAD_TTL", c.Storage.ThreadTTL, 720 * time.Hour},
		{"TRIPGRAPH_RUN_EVENTS_TTL", c.Storage.RunEventsTTL, time.Duration(0)},
		{"TRIPGRAPH_RUN_EVENTS_TTL by default", Default().Storage.RunEventsTTL, 7 * 24 * time.Hour},
		{"TRIPGRAPH_MAX_STORE_BYTES", c.Quota.MaxStoreBytes, ByteSize(5 << 20)},
		{"TRIPGRAPH_CRON_MIN_INTERVAL", c.Quota.CronMinInterval, 5 * time.Minute},
		{"DBPool", c.DBPool(7), int32(32)},
		{"DBPool by default", Default().DBPool(2), int32(4)},
	} {
		if check.got != check.want {
			t.Errorf("%s = %v, want %v", check.what, check.got, check.want)
		}
	}
}

// Every bad value is reported at once, each naming its variable.
func TestBadValuesNameTheirVariables(t *testing.T) {
	bad := map[string]string{
		"TRIPGRAPH_WORKERS":                "-1",
		"TRIPGRAPH_RUN_LEASE":              "500ms",
		"TRIPGRAPH_SHUTDOWN_GRACE":         "-1s",
		"TRIPGRAPH_SESSION_TTL":            "-1h",
		"TRIPGRAPH_DB_POOL":                "1",
		"MCP_MAX_BATCH":                    "-1",
		"MCP_SECRET":                       "short",
		"TRIPGRAPH_RATE_BURST":             "0",
		"TRIPGRAPH_MAX_BODY_BYTES":         "0",
		"TRIPGRAPH_THREAD_TTL":             "-5h",
		"TRIPGRAPH_CHECKPOINT_CACHE_BYTES": "0",
		"TRIPGRAPH_CRON_MIN_INTERVAL":      "30s",
		"TRIPGRAPH_MAX_ACTIVE_RUNS":        "0",
	}
	_, err := FromMap(bad)
	if err == nil {
		t.Fatal("bad values were accepted")
	}
	for name, v := range bad {
		if name == "TRIPGRAPH_CHECKPOINT_CACHE_BYTES" {
			continue // 0 is allowed: no cache
		}
		if !strings.Contains(err.Error(), name+"=") {
			t.Errorf("%s=%s is not named in: %v", name, v, err)
		}
	}
	for _, unparsable := range []map[string]string{
		{"MCP_BODY_TIMEOUT": "soon"}, {"TRIPGRAPH_WORKERS": "many"}, {"TRIPGRAPH_CHECKPOINT_CACHE_BYTES": "8 megs"},
	} {
		_, err := FromMap(unparsable)
		for name := range unparsable {
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Errorf("%v: %v, want an error naming %s", unparsable, err, name)
			}
		}
	}
}

func TestByteSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ByteSize
		text string
	}{{"8388608", 8 << 20, "8MiB"}, {"8192KiB", 8 << 20, "8MiB"}, {"3 GiB", 3 << 30, "3GiB"}, {"1000", 1000, "1000"}, {"0", 0, "0"}} {
		var b ByteSize
		if err := b.UnmarshalText([]byte(tc.in)); err != nil || b != tc.want || b.String() != tc.text {
			t.Errorf("%q: %d (%s), %v; want %d (%s)", tc.in, b, b, err, tc.want, tc.text)
		}
	}
	for _, bad := range []string{"-1", "8MB", "", "9999999999GiB"} {
		var b ByteSize
		if b.UnmarshalText([]byte(bad)) == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

// readable names a variable by its Go field, so field names must not repeat.
func TestFieldNamesAreUnique(t *testing.T) {
	seen := map[string]string{}
	for _, s := range Settings() {
		if other, dup := seen[s.field]; dup {
			t.Errorf("%s and %s are both read into a field named %s", other, s.Name, s.field)
		}
		seen[s.field] = s.Name
	}
}

// Tracing is off by default and on once an OTLP endpoint is set, from
// OpenTelemetry's own variables; headers and resource attributes are read
// as the specification writes them, and a bad header names its key, never
// its value.
func TestTracing(t *testing.T) {
	if Default().Tracing.On() {
		t.Error("tracing must be off by default")
	}
	c, err := FromMap(map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
		"OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Basic%20c2VjcmV0, x-tenant = trips ",
		"OTEL_SERVICE_NAME":          "trips-eu", "OTEL_TRACES_SAMPLER_ARG": "0.25",
		"OTEL_RESOURCE_ATTRIBUTES": "deployment.environment.name=staging", "TRIPGRAPH_TRACE_CONTENTS": "true",
	})
	if err != nil {
		t.Fatal(err)
	}
	tr := c.Tracing
	if !tr.On() || tr.Protocol != "grpc" || tr.ServiceName != "trips-eu" || tr.SampleRatio != 0.25 || !tr.Contents || tr.ContentBytes != 4096 {
		t.Errorf("tracing read as %+v", tr)
	}
	if tr.Headers["Authorization"] != "Basic c2VjcmV0" || tr.Headers["x-tenant"] != "trips" || tr.Resource["deployment.environment.name"] != "staging" {
		t.Errorf("headers %v, resource %v", tr.Headers, tr.Resource)
	}
	if s := tr.Headers.String(); strings.Contains(s, "c2VjcmV0") {
		t.Errorf("headers written with their values: %s", s)
	}
	off, err := FromMap(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "true"})
	if err != nil || off.Tracing.On() {
		t.Errorf("OTEL_SDK_DISABLED=true must turn tracing off: %v", err)
	}
	for name, v := range map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_TRACES_SAMPLER_ARG": "2",
		"OTEL_EXPORTER_OTLP_HEADERS": "=sekrit", "TRIPGRAPH_TRACE_CONTENT_BYTES": "0"} {
		_, err := FromMap(map[string]string{name: v})
		if err == nil || !strings.Contains(err.Error(), name) || strings.Contains(err.Error(), "sekrit") {
			t.Errorf("%s=%s: %v, want an error naming the variable and not the secret", name, v, err)
		}
	}
}
