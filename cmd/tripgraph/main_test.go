package main

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/runner"
	"github.com/tripgraph/tripgraph/server/web"
	"github.com/tripgraph/tripgraph/store/checkpoint"
	"github.com/tripgraph/tripgraph/store/quota"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// testURL is a fresh database for the commands that need one.
var testURL string

// asTripgraph, set in a process's environment, makes the test binary
// run as tripgraph itself, with the arguments after its name: the tests
// that watch the whole process (its exit status, what it writes where)
// run it so, without building the binary again.
const asTripgraph = "TRIPGRAPH_TEST_RUN_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asTripgraph) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(pgtest.Run(m, "cmd", &testURL))
}

// tripgraphCommand is the command that runs tripgraph with args, as the
// test binary itself.
func tripgraphCommand(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), asTripgraph+"=1")
	return cmd
}

// envConfig is the configuration the environment gives, as main reads it.
func envConfig(t testing.TB) config.Config {
	t.Helper()
	cfg, err := config.Load(os.Environ(), "")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The configuration's defaults are the packages' own defaults for a zero
// value, so that a setting left unset means the same either way.
func TestConfigDefaultsAreThePackagesDefaults(t *testing.T) {
	d := config.Default()
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"MCP_MAX_SESSIONS", d.MCP.MaxSessions, mcpserver.DefaultMaxSessions},
		{"MCP_SESSION_TIMEOUT", d.MCP.SessionTimeout, mcpserver.DefaultSessionTimeout},
		{"MCP_MAX_BATCH", d.MCP.MaxBatch, mcpserver.DefaultMaxBatch},
		{"MCP_MAX_BATCH_RESULT_BYTES", d.MCP.MaxBatchResultBytes, int64(mcpserver.DefaultMaxBatchResultBytes)},
		{"MCP_MAX_BODY_BYTES", d.MCP.MaxRequestBytes, int64(mcpserver.DefaultMaxBodyBytes)},
		{"MCP_BODY_TIMEOUT", d.MCP.RequestBodyTimeout, mcpserver.DefaultBodyTimeout},
		{"TRIPGRAPH_CHECKPOINT_CACHE_BYTES", int64(d.Storage.CheckpointCache), int64(checkpoint.DefaultCacheBytes)},
		{"TRIPGRAPH_MAX_BODY_BYTES", d.Limits.MaxBodyBytes, httpx.DefaultLimits.MaxBodyBytes},
		{"TRIPGRAPH_BODY_TIMEOUT", d.Limits.BodyTimeout, httpx.DefaultLimits.BodyTimeout},
		{"TRIPGRAPH_WRITE_TIMEOUT", d.Limits.WriteTimeout, httpx.DefaultLimits.WriteTimeout},
		{"TRIPGRAPH_RATE_LIMIT", d.Limits.RatePerSec, httpx.DefaultLimits.RatePerSec},
		{"TRIPGRAPH_RATE_BURST", d.Limits.RateBurst, httpx.DefaultLimits.RateBurst},
		{"TRIPGRAPH_MAX_STREAMS", d.Limits.MaxStreams, httpx.DefaultLimits.MaxStreams},
		{"TRIPGRAPH_SESSION_TTL", d.Limits.SessionTTL, web.DefaultSessionTTL},
		{"TRIPGRAPH_MAX_CRONS", d.Quota.MaxCrons, quota.Default.Crons},
		{"TRIPGRAPH_CRON_MIN_INTERVAL", d.Quota.CronMinInterval, quota.Default.CronInterval},
		{"TRIPGRAPH_MAX_STORE_ITEMS", d.Quota.MaxStoreItems, quota.Default.Items},
		{"TRIPGRAPH_MAX_STORE_BYTES", int64(d.Quota.MaxStoreBytes), quota.Default.ItemBytes},
		{"TRIPGRAPH_MAX_ACTIVE_RUNS", d.Quota.MaxActiveRuns, quota.Default.ActiveRuns},
		{"TRIPGRAPH_WORKERS", d.Runner.Workers, 0}, // the runner's DefaultWorkers()
		{"TRIPGRAPH_RUN_LEASE", d.Runner.Lease, runner.DefaultLease},
		{"TRIPGRAPH_SHUTDOWN_GRACE", d.Runner.ShutdownGrace, runner.DefaultShutdownGrace},
	} {
		if c.got != c.want {
			t.Errorf("%s: the configuration's default is %v, the package's %v", c.what, c.got, c.want)
		}
	}
	if got := quotaLimits(d.Quota); got != quota.Default {
		t.Errorf("the configuration's default limits are %+v, the store's %+v", got, quota.Default)
	}
}
