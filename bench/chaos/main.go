// Command chaos is a bounded fault campaign against two `tripgraph serve`
// processes sharing one database (make chaos; bench/README.md, "Chaos").
//
// It starts a PostgreSQL cluster of its own (under .data/chaos), a fresh
// database on it, a loopback proxy in front of it, a misbehaving MCP
// server that every traveller registers as their own, and two serve
// processes with short run leases. Clients, one traveller each, then do
// turns for -duration: they stream runs, drop streams and join them again
// with Last-Event-ID, and book stays and confirm them. Meanwhile faults
// come one at a time, drawn from a deck shuffled by -seed: a serve
// process killed (SIGKILL) or stopped (SIGTERM) and started again,
// PostgreSQL stopped at once and started again, its connections cut for a
// few seconds, and the MCP server hanging, never answering initialize,
// answering garbage, answers cut short or 50 MB answers.
//
// When the time is up the faults stop, both processes are brought up, the
// clients finish the turn they are in, and the campaign waits (at most
// -settle) for every run to end. Then it checks, from the database and
// from what the clients received: every run final, none lost, none that
// executed a step, a card or a reply twice, every stream (joined again or
// not) carrying each stored event once and in order, each run's stream
// holding the state of every step it checkpointed, checkpoint chains
// linear, bookings made exactly once per confirmation, every serve log
// line a JSON record. It prints a summary, and exits 1 when an invariant
// broke.
//
// The seed is printed; -seed replays the same draw of faults, gaps and
// client choices (the timing of processes is not replayed).
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// options are the campaign's flags.
type options struct {
	bin      string
	dir      string
	seed     uint64
	clients  int
	duration time.Duration
	settle   time.Duration
	lease    time.Duration
	grace    time.Duration
	noFaults bool
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "bin/tripgraph", "the tripgraph binary")
	flag.StringVar(&o.dir, "dir", ".data/chaos", "where the campaign's cluster and logs live")
	flag.Uint64Var(&o.seed, "seed", 0, "the seed of the faults and the clients' choices (0: from the clock)")
	flag.IntVar(&o.clients, "clients", 20, "concurrent clients, one traveller each")
	flag.DurationVar(&o.duration, "duration", 4*time.Minute, "how long clients start turns while faults come")
	flag.DurationVar(&o.settle, "settle", 2*time.Minute, "at most this long for the last runs to end afterwards")
	flag.DurationVar(&o.lease, "lease", 2*time.Second, "TRIPGRAPH_RUN_LEASE of the serve processes")
	flag.DurationVar(&o.grace, "grace", 3*time.Second, "TRIPGRAPH_SHUTDOWN_GRACE of the serve processes")
	flag.BoolVar(&o.noFaults, "no-faults", false, "inject no faults (a baseline of the same load)")
	flag.Parse()
	if abs, err := filepath.Abs(o.bin); err == nil {
		o.bin = abs // the serve processes run in the campaign's directory
	}
	if o.seed == 0 {
		o.seed = uint64(time.Now().UnixNano()) % 1_000_000_000
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ok, err := campaign(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chaos:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// logf prints a line of the campaign's progress.
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "chaos %s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// freeAddr is a loopback address nothing listens on now.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("finding a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// serveEnv is the environment of the serve processes: the campaign's own
// settings, and nothing of the developer's but PATH and HOME.
func serveEnv(o options, dbURL, mediaRoot string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"),
		"DATABASE_URL=" + dbURL,
		"TRIPGRAPH_MODEL=offline",
		"TRIPGRAPH_MEDIA_ROOT=" + mediaRoot,
		"TRIPGRAPH_RUN_LEASE=" + o.lease.String(),
		"TRIPGRAPH_SHUTDOWN_GRACE=" + o.grace.String(),
		"TRIPGRAPH_RATE_LIMIT=100000", "TRIPGRAPH_RATE_BURST=100000",
		// The users' MCP server is on loopback, which the SSRF guard
		// refuses unless the operator allows it: here, and only here.
		"TRIPGRAPH_MCP_ALLOW_HOSTS=127.0.0.1",
	}
}

// httpClient is the clients' HTTP client: bounded dials and headers, no
// bound on a stream's body (the clients bound their waits for frames).
func httpClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 3 * time.Second}).DialContext,
		ResponseHeaderTimeout: 30 * time.Second,
		MaxIdleConnsPerHost:   8,
	}}
}

// runDir is the campaign's directory for this seed's logs.
func runDir(o options) (string, error) {
	abs, err := filepath.Abs(o.dir)
	if err != nil {
		return "", fmt.Errorf("finding the campaign's directory: %w", err)
	}
	d := filepath.Join(abs, "runs", time.Now().Format("20060102-150405")+"-seed-"+strconv.FormatUint(o.seed, 10))
	if err := os.MkdirAll(d, 0o755); err != nil {
		return "", fmt.Errorf("creating the campaign's log directory: %w", err)
	}
	return d, nil
}

// newRand is a generator drawn from the seed and a stream number.
func newRand(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }
