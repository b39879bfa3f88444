package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The three servers a round can measure.
const (
	tripgraph    = "tripgraph"
	langgraph    = "langgraphjs"
	langgraphPG  = "langgraphjs-postgres"
	templateDB   = "serverpeer_template"
	keyPrefix    = "A new API key for the demo user: "
	listenPrefix = "serverpeer: LangGraph.js API server listening on "
)

// server is one server started for one round.
type server struct {
	cmd  *exec.Cmd
	done chan error
	url  string
	key  string // the API key the clients send; none for LangGraph.js
	db   string // the round's database; none for LangGraph.js in memory
	log  string
}

// roundEnv is what starting a server needs.
type roundEnv struct {
	bin    string // the tripgraph binary
	js     string // bench/serverpeer/js
	cl     *cluster
	logDir string
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// prepareTemplate migrates and seeds a database once, by starting serve on
// it, so that every tripgraph round starts from a copy of the same seeded
// database without paying for the seed.
func prepareTemplate(ctx context.Context, env roundEnv) error {
	if err := env.cl.createDB(ctx, templateDB, ""); err != nil {
		return err
	}
	s, err := startTripgraph(ctx, env, templateDB, "template")
	if err != nil {
		return fmt.Errorf("migrating and seeding the template database: %w", err)
	}
	s.stop()
	return env.cl.analyseSeeded(ctx, templateDB)
}

// tripgraphEnv is the environment serve runs with: the offline model, and
// its defaults otherwise (the per-key limits included: every client
// shares the demo user's key, as an app's backend does), but for the
// limit on one user's runs queued and running, which that one key would
// reach: it is raised as such a backend would raise it.
func tripgraphEnv(dbURL string) []string {
	return append(os.Environ(), "DATABASE_URL="+dbURL, "TRIPGRAPH_MODEL=offline", "TRIPGRAPH_MAX_ACTIVE_RUNS=100000")
}

func startTripgraph(ctx context.Context, env roundEnv, db, label string) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &server{url: "http://127.0.0.1:" + strconv.Itoa(port), db: db}
	s.cmd = exec.Command(env.bin, "serve", "--welcome", "--addr", "127.0.0.1:"+strconv.Itoa(port))
	s.cmd.Env = tripgraphEnv(env.cl.dbURL(db))
	key, err := s.start(ctx, env, label, keyPrefix)
	if err != nil {
		return nil, err
	}
	s.key = key
	if err := s.waitHTTP(ctx, http.MethodGet, "/healthz"); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

func startLangGraph(ctx context.Context, env roundEnv, db, label string) (*server, error) {
	// The in-memory server keeps its state in files under its cwd and
	// loads them when it starts: each round starts without them.
	if err := os.RemoveAll(filepath.Join(env.js, ".langgraph_api")); err != nil {
		return nil, fmt.Errorf("removing the last round's LangGraph.js state: %w", err)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	opts, _ := json.Marshal(map[string]any{
		"port": port, "host": "127.0.0.1", "nWorkers": 10, "cwd": env.js,
		"graphs": map[string]string{"trip-planner": "./graph.mjs:graph"},
	})
	s := &server{url: "http://127.0.0.1:" + strconv.Itoa(port), db: db}
	s.cmd = exec.Command("node", "--import", "./node_modules/@langchain/langgraph-api/dist/preload.mjs", "server.mjs", string(opts))
	s.cmd.Dir = env.js
	s.cmd.Env = append(os.Environ(), "NODE_ENV=development", "LANGGRAPH_API_URL="+s.url)
	if db != "" {
		s.cmd.Env = append(s.cmd.Env, "SERVERPEER_POSTGRES="+env.cl.dbURL(db))
	}
	if _, err := s.start(ctx, env, label, listenPrefix); err != nil {
		return nil, err
	}
	if err := s.waitHTTP(ctx, http.MethodGet, "/ok"); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// start starts the command with its standard error in a log file, and
// waits for the line of its standard output that starts with prefix; it
// returns the rest of that line.
func (s *server) start(ctx context.Context, env roundEnv, label, prefix string) (string, error) {
	s.log = filepath.Join(env.logDir, label+".log")
	logFile, err := os.Create(s.log)
	if err != nil {
		return "", fmt.Errorf("creating the server log: %w", err)
	}
	s.cmd.Stderr = logFile
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return "", fmt.Errorf("piping the server's output: %w", err)
	}
	if err := s.cmd.Start(); err != nil {
		return "", fmt.Errorf("starting %s: %w", s.cmd.Path, err)
	}
	s.done = make(chan error, 1)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			logMu.Lock()
			fmt.Fprintln(logFile, sc.Text())
			logMu.Unlock()
			if rest, ok := strings.CutPrefix(sc.Text(), prefix); ok {
				select {
				case found <- strings.TrimSpace(rest):
				default:
				}
			}
		}
		io.Copy(io.Discard, out)
	}()
	go func() {
		err := s.cmd.Wait()
		logFile.Close()
		s.done <- err
	}()
	wait, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	select {
	case line := <-found:
		return line, nil
	case err := <-s.done:
		s.done <- err
		return "", fmt.Errorf("the server exited before it served (see %s): %v", s.log, err)
	case <-wait.Done():
		s.stop()
		return "", fmt.Errorf("waiting for the server to start (see %s): %w", s.log, wait.Err())
	}
}

func (s *server) waitHTTP(ctx context.Context, method, path string) error {
	wait, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(wait, method, s.url+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-wait.Done():
			return fmt.Errorf("waiting for %s%s: %w", s.url, path, wait.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (s *server) pid() int { return s.cmd.Process.Pid }

// stop interrupts the server, by its pid, and kills it if it has not
// ended 20 s later.
func (s *server) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
}

// logMu orders the lines a server writes to its standard output into its
// log file, which its standard error also goes to.
var logMu sync.Mutex

var errNoResult = errors.New("the load program printed no result")
