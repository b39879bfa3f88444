// Command load streams trip-planner runs from many concurrent clients
// against one tripgraph server on loopback and reports runs per second,
// time to first event, run time, errors and the server's peak memory;
// for a server it started, also the CPU time per run of the server and of
// its PostgreSQL cluster, and, with -turns, what the runs left stored.
//
// By default it creates a scratch database (on DATABASE_URL's server or
// the local cluster), starts `tripgraph serve` on it with the offline
// model and a raised rate limit, mints an API key through the welcome
// line, runs the clients for a bounded time, stops the server it started
// and drops the database. With -url it drives a running server instead.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// requests is the fixed list the clients draw from, in turn.
var requests = []string{
	"4 nights in Lisbon in May, 3 of us",
	"A week in Porto for two in September",
	"Hotels in Madrid next weekend for 2 adults",
	"Where can we stay in Rome from June 10 to June 14? We are four",
	"Quero ir a Lisboa em maio, 3 noites, somos 2",
	"Uma semana no Rio de Janeiro em dezembro para 4 pessoas",
	"Hotéis em Salvador para o carnaval, 2 adultos",
	"Procuro hospedagem em Paris de 3 a 7 de julho para a família",
}

type config struct {
	bin      string
	url      string
	key      string
	pid      int
	clients  int
	duration time.Duration
	maxRuns  int
	workers  int
	logPath  string
	turns    int
	// travellers: each client is an end user of its own, acted for by a
	// backend key, rather than all the demo user.
	travellers bool
}

func main() {
	var c config
	flag.StringVar(&c.bin, "bin", "bin/tripgraph", "the tripgraph binary to start")
	flag.StringVar(&c.url, "url", "", "a running server's base URL (loopback only); then -key is needed and nothing is started")
	flag.StringVar(&c.key, "key", "", "the API key for -url")
	flag.IntVar(&c.pid, "pid", 0, "with -url: the server's pid, to read its peak memory")
	flag.IntVar(&c.clients, "clients", 50, "concurrent clients")
	flag.DurationVar(&c.duration, "duration", 30*time.Second, "how long clients start new runs")
	flag.IntVar(&c.maxRuns, "max-runs", 100000, "at most this many runs in all")
	flag.IntVar(&c.workers, "workers", 0, "TRIPGRAPH_WORKERS for the started server (0: its default)")
	flag.StringVar(&c.logPath, "server-log", "", "where the started server's log goes (default: a temporary file, summarised and removed)")
	flag.BoolVar(&c.travellers, "travellers", false, "each client is a traveller of its own (an end user a backend key acts for), not the demo user")
	flag.IntVar(&c.turns, "turns", 0, "0: stateless runs, their threads deleted; N: each client talks on a thread of its own for N runs (turns), then starts another, and the threads are kept and measured")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, c); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, c config) error {
	if c.clients < 1 || c.duration <= 0 || c.duration > 10*time.Minute || c.maxRuns < 1 || c.turns < 0 {
		return errors.New("want -clients ≥ 1, 0 < -duration ≤ 10m, -max-runs ≥ 1 and -turns ≥ 0")
	}
	if c.url != "" {
		if err := checkLoopback(c.url); err != nil {
			return err
		}
		if c.key == "" {
			return errors.New("-url needs -key")
		}
		res := drive(ctx, c.url, c.key, c)
		peak, err := peakKiB(c.pid)
		res.print(os.Stdout, c, peak, err)
		return nil
	}
	return runWithServer(ctx, c)
}

// runWithServer creates the scratch database, starts the server, drives
// it, then stops the server and drops the database.
func runWithServer(ctx context.Context, c config) error {
	setupCtx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	dbURL, drop, err := pgtest.NewDatabase(setupCtx, "tripgraph_load")
	if err != nil {
		return err
	}
	defer drop()
	srv, err := startServer(setupCtx, c, dbURL)
	if err != nil {
		return err
	}
	cpu, err := startCPU(setupCtx, dbURL, srv.cmd.Process.Pid)
	if err != nil {
		srv.stop()
		return err
	}
	res := drive(ctx, srv.base, srv.key, c)
	used, cpuErr := cpu.since()
	peak, peakErr := peakKiB(srv.cmd.Process.Pid)
	srv.stop()
	res.print(os.Stdout, c, peak, peakErr)
	used.print(os.Stdout, res, cpuErr)
	if c.turns > 0 {
		printStorage(ctx, os.Stdout, dbURL, res)
	}
	srv.summarise(os.Stdout)
	return nil
}

func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("parsing -url: %w", err)
	}
	ip := net.ParseIP(u.Hostname())
	if u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("-url must be on loopback, not %q", u.Hostname())
	}
	return nil
}

func peakKiB(pid int) (int64, error) {
	if pid <= 0 {
		return 0, errors.New("no server pid")
	}
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, fmt.Errorf("reading the server's status: %w", err)
	}
	defer f.Close()
	return vmHWM(f)
}

// server is a `tripgraph serve` this program started.
type server struct {
	cmd     *exec.Cmd
	base    string
	key     string
	logPath string
	tmpLog  bool
	done    chan error
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func startServer(ctx context.Context, c config, dbURL string) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &server{base: "http://127.0.0.1:" + strconv.Itoa(port), logPath: c.logPath, done: make(chan error, 1)}
	if s.logPath == "" {
		f, err := os.CreateTemp("", "tripgraph-load-*.log")
		if err != nil {
			return nil, fmt.Errorf("creating the server log: %w", err)
		}
		f.Close()
		s.logPath, s.tmpLog = f.Name(), true
	}
	logFile, err := os.Create(s.logPath)
	if err != nil {
		return nil, fmt.Errorf("creating the server log: %w", err)
	}
	defer logFile.Close()
	s.cmd = exec.Command(c.bin, "serve", "--welcome", "--addr", "127.0.0.1:"+strconv.Itoa(port))
	// Its limits as they are by default, but one: every client runs as the
	// demo user (one key), whose runs queued and running would be refused
	// past TRIPGRAPH_MAX_ACTIVE_RUNS, as a backend key's would.
	s.cmd.Env = append(os.Environ(), "DATABASE_URL="+dbURL, "TRIPGRAPH_MODEL=offline", "TRIPGRAPH_MAX_ACTIVE_RUNS=100000",
		"TRIPGRAPH_ACT_FOR_END_USERS="+strconv.FormatBool(c.travellers))
	if c.workers > 0 {
		s.cmd.Env = append(s.cmd.Env, "TRIPGRAPH_WORKERS="+strconv.Itoa(c.workers))
	}
	s.cmd.Stderr = logFile
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("piping the server's output: %w", err)
	}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", c.bin, err)
	}
	keyc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if k, ok := strings.CutPrefix(sc.Text(), "A new API key for the demo user: "); ok {
				keyc <- strings.TrimSpace(k)
			}
		}
		io.Copy(io.Discard, out)
	}()
	go func() { s.done <- s.cmd.Wait() }()
	select {
	case s.key = <-keyc:
	case err := <-s.done:
		s.done <- err
		return nil, fmt.Errorf("the server exited before it served (see %s): %v", s.logPath, err)
	case <-ctx.Done():
		s.stop()
		return nil, fmt.Errorf("waiting for the server's API key: %w", ctx.Err())
	}
	if err := s.waitHealthy(ctx); err != nil {
		s.stop()
		return nil, err
	}
	if c.travellers {
		if s.key, err = backendKey(ctx, c.bin, dbURL); err != nil {
			s.stop()
			return nil, err
		}
	}
	return s, nil
}

// backendKey makes a key of the backend role for the demo user, which may
// act for end users.
func backendKey(ctx context.Context, bin, dbURL string) (string, error) {
	cmd := exec.CommandContext(ctx, bin, "apikey", "create", "--user", "demo", "--role", "backend", "--label", "load")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dbURL)
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("making a backend key: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

func (s *server) waitHealthy(ctx context.Context) error {
	for {
		resp, err := http.Get(s.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s/healthz: %w", s.base, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// stop interrupts the server this program started, by its pid, and kills
// it if it has not stopped 20 s later.
func (s *server) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
}

// summarise prints what the server's log says: requests by status and
// error lines, and its own median and p99 of the stream routes' durations.
func (s *server) summarise(w io.Writer) {
	if s.tmpLog {
		defer os.Remove(s.logPath)
	}
	f, err := os.Open(s.logPath)
	if err != nil {
		fmt.Fprintln(w, "server log:", err)
		return
	}
	defer f.Close()
	sum, err := summariseLog(f)
	if err != nil {
		fmt.Fprintln(w, "server log:", err)
		return
	}
	fmt.Fprintf(w, "server log: %d requests to /runs/stream by status %v; %d lines at level ERROR", sum.streams, sum.byStatus, sum.errors)
	if sum.firstError != "" {
		fmt.Fprintf(w, " (first: %s)", sum.firstError)
	}
	fmt.Fprintln(w)
	if !s.tmpLog {
		fmt.Fprintln(w, "server log kept in", s.logPath)
	}
}

// logSummary is what summariseLog counts in the server's JSON log.
type logSummary struct {
	streams    int
	byStatus   map[int]int
	errors     int
	firstError string
}

func summariseLog(r io.Reader) (logSummary, error) {
	sum := logSummary{byStatus: map[int]int{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var line struct {
			Level  string `json:"level"`
			Msg    string `json:"msg"`
			Route  string `json:"route"`
			Status int    `json:"status"`
			Error  string `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		if line.Level == "ERROR" {
			sum.errors++
			if sum.firstError == "" {
				sum.firstError = strings.TrimSpace(line.Msg + " " + line.Error)
			}
		}
		if strings.HasSuffix(line.Route, "/runs/stream") {
			sum.streams++
			sum.byStatus[line.Status]++
		}
	}
	if err := sc.Err(); err != nil {
		return sum, fmt.Errorf("reading the server log: %w", err)
	}
	return sum, nil
}

// result is what the clients measured.
type result struct {
	elapsed    time.Duration
	runs       int
	loadStart  string // the load average when the clients started
	firstEvent []time.Duration
	firstNode  []time.Duration // to the first node's output: extraction's update, the trip details
	serverWait []time.Duration
	laterFirst []time.Duration // time to first event of each client's second and later runs
	runTime    []time.Duration
	frames     int // frames of the runs that succeeded
	errors     map[string]int
}

// drive runs c.clients clients, each streaming runs one after another
// until c.duration has passed or c.maxRuns runs have started; a run still
// streaming 60 s after the end is abandoned and counted as an error.
func drive(ctx context.Context, base, key string, c config) result {
	ctx, cancel := context.WithTimeout(ctx, c.duration+60*time.Second)
	defer cancel()
	client := &http.Client{Transport: &http.Transport{
		MaxIdleConns: c.clients, MaxIdleConnsPerHost: c.clients, IdleConnTimeout: time.Minute,
	}}
	defer client.CloseIdleConnections()
	var (
		mu      sync.Mutex
		res     = result{errors: map[string]int{}, loadStart: loadAverage()}
		started int
		wg      sync.WaitGroup
	)
	deadline := time.Now().Add(c.duration)
	begin := time.Now()
	for i := range c.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := "/runs/stream" // stateless
			for n := 0; ; n++ {
				mu.Lock()
				if time.Now().After(deadline) || started >= c.maxRuns || ctx.Err() != nil {
					mu.Unlock()
					return
				}
				started++
				mu.Unlock()
				var m measurement
				who := caller{key: key}
				if c.travellers {
					who.endUser = "traveller-" + strconv.Itoa(i)
				}
				if c.turns > 0 && n%c.turns == 0 {
					thread, err := createThread(ctx, client, base, who)
					if err != nil {
						m.err = err.Error()
					}
					path = "/threads/" + thread + "/runs/stream"
				}
				if m.err == "" {
					m = streamRun(ctx, client, base, who, path, requests[(i+n)%len(requests)])
				}
				mu.Lock()
				res.runs++
				if m.err != "" {
					res.errors[m.err]++
				} else {
					res.firstEvent = append(res.firstEvent, m.firstEvent)
					if m.firstNode > 0 {
						res.firstNode = append(res.firstNode, m.firstNode)
					}
					res.serverWait = append(res.serverWait, m.serverWait)
					if n > 0 {
						res.laterFirst = append(res.laterFirst, m.firstEvent)
					}
					res.runTime = append(res.runTime, m.total)
					res.frames += m.frames
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(begin)
	return res
}

// measurement is one run seen by a client; err is a short class of what
// went wrong, empty for a run that streamed through to `end` without an
// `error` frame.
type measurement struct {
	firstEvent time.Duration
	firstNode  time.Duration // to the first updates frame of the extraction node
	serverWait time.Duration // from the request written to the answer's first byte
	total      time.Duration
	frames     int
	err        string
}

// caller is who a client's requests are from: a key, and the end user it
// acts for, if any.
type caller struct{ key, endUser string }

func (c caller) sign(req *http.Request) {
	req.Header.Set("x-api-key", c.key)
	if c.endUser != "" {
		req.Header.Set("X-Tripgraph-End-User", c.endUser)
	}
}

// createThread makes a thread and returns its id.
func createThread(ctx context.Context, client *http.Client, base string, who caller) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/threads", strings.NewReader(`{}`))
	if err != nil {
		return "", errors.New("building the request")
	}
	req.Header.Set("Content-Type", "application/json")
	who.sign(req)
	resp, err := client.Do(req)
	if err != nil {
		return "", errors.New("creating a thread: transport: " + errClass(err))
	}
	defer resp.Body.Close()
	var th struct {
		ID string `json:"thread_id"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&th) != nil || th.ID == "" {
		return "", errors.New("creating a thread: status " + strconv.Itoa(resp.StatusCode))
	}
	return th.ID, nil
}

// streamRun streams one run of message at path (stateless, or a thread's).
func streamRun(ctx context.Context, client *http.Client, base string, who caller, path, message string) measurement {
	body, _ := json.Marshal(map[string]any{
		"assistant_id": "trip-planner",
		"input":        map[string]any{"messages": []map[string]string{{"role": "user", "content": message}}},
		"stream_mode":  []string{"updates", "custom", "messages-tuple"},
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+path, bytes.NewReader(body))
	if err != nil {
		return measurement{err: "building the request"}
	}
	req.Header.Set("Content-Type", "application/json")
	who.sign(req)
	var wrote, firstByte time.Time
	req = req.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		WroteRequest:         func(httptrace.WroteRequestInfo) { wrote = time.Now() },
		GotFirstResponseByte: func() { firstByte = time.Now() },
	}))
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return measurement{err: "transport: " + errClass(err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, resp.Body)
		return measurement{err: "status " + strconv.Itoa(resp.StatusCode)}
	}
	m := measurement{serverWait: firstByte.Sub(wrote)}
	// The server closes a stream after its last frame, as LangGraph's
	// does; a body cut short is a read error, a failed run an error frame.
	var sawError bool
	err = readFrames(resp.Body, func(f frame) bool {
		if m.firstEvent == 0 {
			m.firstEvent = time.Since(start)
		}
		if m.firstNode == 0 && f.event == "updates" && strings.HasPrefix(f.data, `{"extraction"`) {
			m.firstNode = time.Since(start)
		}
		m.frames++
		sawError = sawError || f.event == "error"
		return true
	})
	m.total = time.Since(start)
	switch {
	case err != nil:
		m.err = "reading: " + errClass(err)
	case sawError:
		m.err = "an error frame"
	}
	return m
}

// errClass names an error without its addresses, so that errors group.
func errClass(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "unexpected EOF"
	}
	return err.Error()
}

// ok is the number of runs that streamed through without an error.
func (r result) ok() int {
	n := r.runs
	for _, e := range r.errors {
		n -= e
	}
	return n
}

func (r result) print(w io.Writer, c config, peakKiB int64, peakErr error) {
	sortDurations(r.firstEvent)
	sortDurations(r.firstNode)
	sortDurations(r.runTime)
	sortDurations(r.serverWait)
	sortDurations(r.laterFirst)
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	nerr := r.runs - r.ok()
	fmt.Fprintf(w, "clients %d, %s: %d runs, %d ok, %.1f runs/s\n", c.clients, r.elapsed.Round(time.Millisecond),
		r.runs, r.runs-nerr, float64(r.runs-nerr)/r.elapsed.Seconds())
	fmt.Fprintf(w, "time to first event: p50 %s, p99 %s, max %s\n", ms(percentile(r.firstEvent, 50)),
		ms(percentile(r.firstEvent, 99)), ms(percentile(r.firstEvent, 100)))
	fmt.Fprintf(w, "  of which from the request sent to the answer's first byte: p50 %s, p99 %s\n",
		ms(percentile(r.serverWait, 50)), ms(percentile(r.serverWait, 99)))
	fmt.Fprintf(w, "  without each client's first run (the opening burst): p50 %s, p99 %s\n",
		ms(percentile(r.laterFirst, 50)), ms(percentile(r.laterFirst, 99)))
	fmt.Fprintf(w, "time to the first node's output (extraction's update, %d runs): p50 %s, p99 %s\n", len(r.firstNode),
		ms(percentile(r.firstNode, 50)), ms(percentile(r.firstNode, 99)))
	fmt.Fprintf(w, "run time: p50 %s, p99 %s, max %s\n", ms(percentile(r.runTime, 50)),
		ms(percentile(r.runTime, 99)), ms(percentile(r.runTime, 100)))
	if ok := len(r.runTime); ok > 0 {
		fmt.Fprintf(w, "frames per run: %.1f\n", float64(r.frames)/float64(ok))
	}
	fmt.Fprintf(w, "errors: %d %v\n", nerr, r.errors)
	if peakErr != nil {
		fmt.Fprintln(w, "server peak RSS: unknown:", peakErr)
	} else {
		fmt.Fprintf(w, "server peak RSS (VmHWM): %.1f MiB\n", float64(peakKiB)/1024)
	}
	fmt.Fprintf(w, "load average at the start: %s; at the end: %s\n", r.loadStart, loadAverage())
}
