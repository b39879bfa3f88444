package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/testing/faultproxy"
)

// database is the campaign's database in its cluster, made anew each time.
const database = "chaos"

// campaign runs one campaign and reports whether every invariant held.
// Whatever happens, it ends the processes it started and stops its
// cluster before it returns.
func campaign(ctx context.Context, o options) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, o.duration+o.settle+4*time.Minute)
	defer cancel()
	began := time.Now()
	dir, err := runDir(o)
	if err != nil {
		return false, err
	}
	logf("seed %d: %d clients, %s of faults, logs in %s", o.seed, o.clients, o.duration, dir)
	abs, _ := filepath.Abs(o.dir)
	cl, err := startCluster(ctx, abs)
	if err != nil {
		return false, err
	}
	defer func() {
		if err := cl.stop(); err != nil {
			logf("stopping the campaign's cluster: %v", err)
		}
	}()
	if err := cl.freshDatabase(ctx, database); err != nil {
		return false, err
	}
	dbURL := cl.dbURL(database)
	keys, places, err := prepare(ctx, dbURL, o.clients)
	if err != nil {
		return false, err
	}
	proxy, err := faultproxy.Start(cl.addr)
	if err != nil {
		return false, fmt.Errorf("starting the database proxy: %w", err)
	}
	defer proxy.Close()
	viaProxy, err := proxy.Through(dbURL)
	if err != nil {
		return false, err
	}
	mcp, err := startUserMCP()
	if err != nil {
		return false, err
	}
	defer mcp.close()

	var serves []*serveProc
	defer func() {
		for _, p := range serves {
			p.stop()
		}
	}()
	for _, name := range []string{"A", "B"} {
		addr, err := freeAddr()
		if err != nil {
			return false, err
		}
		p := &serveProc{name: name, addr: addr, bin: o.bin, dir: dir, env: serveEnv(o, viaProxy, filepath.Join(dir, "media"))}
		serves = append(serves, p)
		if err := p.start(ctx); err != nil {
			return false, err
		}
	}
	var urls []string
	for _, p := range serves {
		urls = append(urls, "http://"+p.addr)
	}
	stays := &stayCounter{places: places}
	clients := make([]*client, o.clients)
	for i := range clients {
		clients[i] = &client{id: i + 1, key: keys[i], servers: urls, rng: newRand(o.seed, uint64(i+1)),
			http: httpClient(), nextStay: stays.next, known: map[string]bool{}}
	}
	// Half the travellers have the misbehaving MCP server as their own,
	// with enrichment on: each of their runs calls it.
	for _, c := range clients {
		if c.id%2 == 0 {
			if err := registerMCP(ctx, c, mcp.url()); err != nil {
				return false, err
			}
		}
	}
	setup := time.Since(began)

	// The campaign proper: clients do turns while faults come.
	logf("set up in %.1fs; clients start, faults come for %s", setup.Seconds(), o.duration)
	stopping := make(chan struct{})
	settleBy := time.Now().Add(o.duration + o.settle)
	clientCtx, cancelClients := context.WithDeadline(ctx, settleBy)
	defer cancelClients()
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Go(func() { c.loop(clientCtx, stopping) })
	}
	f := &faults{rng: newRand(o.seed, 0), serves: serves, cluster: cl, proxy: proxy, mcp: mcp, grace: o.grace,
		began: time.Now(), log: logf}
	faultCtx, stopFaults := context.WithTimeout(ctx, o.duration)
	defer stopFaults()
	if o.noFaults {
		<-faultCtx.Done()
	} else {
		f.run(faultCtx)
	}

	// Settle: everything up again, clients finish their turn, runs end.
	close(stopping)
	settling := time.Now()
	mcp.set(mcpWell)
	proxy.Restore()
	for _, p := range serves {
		if !p.running() {
			if err := p.start(ctx); err != nil {
				logf("starting serve %s for the settle: %v", p.name, err)
			}
		}
	}
	logf("faults over; waiting at most %s for the clients' last turns and the last runs", time.Until(settleBy).Round(time.Second))
	wg.Wait()
	active, err := waitIdle(ctx, dbURL, settleBy)
	if err != nil {
		return false, err
	}
	settle := time.Since(settling)
	if active > 0 {
		logf("%d runs still active after the settle time", active)
	}

	checking := time.Now()
	s, err := load(ctx, dbURL)
	if err != nil {
		return false, err
	}
	var recs []*runRecord
	for _, c := range clients {
		recs = append(recs, c.runs...)
	}
	fd := &findings{}
	checkRuns(fd, s, recs)
	for _, rec := range recs {
		if rec.Run != "" && final(rec.Status) {
			checkStream(fd, rec, s.events[rec.Run])
		}
	}
	byRun := map[string][]storedCheckpoint{}
	for _, c := range s.checkpoints {
		byRun[c.Run] = append(byRun[c.Run], c)
	}
	for id, r := range s.runs {
		checkOnce(fd, r, s.events[id], byRun[id])
		checkStreamed(fd, r, s.events[id], byRun[id])
	}
	checkChains(fd, s.checkpoints)
	confirmed, booked := checkBookings(fd, s, recs)
	if err := checkStates(ctx, fd, clients); err != nil {
		return false, err
	}
	var logErrors int
	var fatal []string
	for _, p := range serves {
		n, lines, plain, err := p.logFindings()
		if err != nil {
			return false, err
		}
		logErrors += n
		fatal = append(fatal, lines...)
		fd.PlainLog = append(fd.PlainLog, plain...)
		fd.check(&fd.PlainLog)
	}
	r := report{o: o, dir: dir, s: s, recs: recs, clients: clients, faults: f.done, serves: serves, f: fd,
		confirmed: confirmed, booked: booked, logErrors: logErrors, fatal: fatal,
		setup: setup, settle: settle, check: time.Since(checking), total: time.Since(began)}
	r.print(os.Stdout)
	return !fd.failed() && len(fatal) == 0, nil
}

// prepare migrates the database, seeds a two-city catalog, makes one
// user with an API key per client, and returns the keys and the ids of
// the places the clients book.
func prepare(ctx context.Context, dbURL string, clients int) (keys, places []string, err error) {
	if err := migrations.Up(ctx, dbURL); err != nil {
		return nil, nil, fmt.Errorf("migrating the campaign's database: %w", err)
	}
	st, err := store.Open(ctx, dbURL)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the campaign's database: %w", err)
	}
	defer st.Close()
	cities := []seed.City{
		{Name: "Lisbon", GeoName: "Lisboa", Country: "PT", Population: 550_000, Lat: 38.72, Lng: -9.14},
		{Name: "Porto", GeoName: "Porto", Country: "PT", Population: 230_000, Lat: 41.15, Lng: -8.61},
	}
	if err := seed.Run(ctx, st, seed.Options{Cities: cities}); err != nil {
		return nil, nil, fmt.Errorf("seeding the campaign's catalog: %w", err)
	}
	for i := range clients {
		u, err := st.Accounts.EnsureUser(ctx, fmt.Sprintf("traveller-%02d", i+1))
		if err != nil {
			return nil, nil, fmt.Errorf("making the campaign's users: %w", err)
		}
		k, _, err := st.Accounts.CreateAPIKey(ctx, accounts.NewKey{UserID: u.ID, Label: "chaos"})
		if err != nil {
			return nil, nil, fmt.Errorf("making the campaign's API keys: %w", err)
		}
		keys = append(keys, k)
	}
	rows, _ := st.Pool.Query(ctx, `SELECT id::text FROM accommodations ORDER BY id`)
	places, err = pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(places) == 0 {
		return nil, nil, fmt.Errorf("reading the places to book (%d): %w", len(places), err)
	}
	return keys, places, nil
}

// registerMCP adds the misbehaving MCP server as the client's own and
// turns enrichment on.
func registerMCP(ctx context.Context, c *client, url string) error {
	body, _ := json.Marshal(map[string]any{"name": "crm", "url": url, "timeoutMs": 2000})
	resp, err := c.do(ctx, c.servers[0], http.MethodPost, "/mcp-servers", body, nil)
	if err != nil {
		return fmt.Errorf("registering client %d's MCP server: %w", c.id, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("registering client %d's MCP server: %d", c.id, resp.StatusCode)
	}
	resp, err = c.do(ctx, c.servers[0], http.MethodPut, "/mcp-servers/settings", []byte(`{"toolMcp":true}`), nil)
	if err != nil {
		return fmt.Errorf("turning client %d's enrichment on: %w", c.id, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("turning client %d's enrichment on: %d", c.id, resp.StatusCode)
	}
	return nil
}

// waitIdle waits until no run is pending or running, or until by; it
// returns how many still are.
func waitIdle(ctx context.Context, dbURL string, by time.Time) (int, error) {
	for {
		var active int
		err := func() error {
			c, err := pgx.Connect(ctx, dbURL)
			if err != nil {
				return err
			}
			defer c.Close(ctx)
			return c.QueryRow(ctx, `SELECT count(*) FROM runs WHERE status IN ('queued', 'pending', 'running')`).Scan(&active)
		}()
		if err != nil {
			return 0, fmt.Errorf("counting the active runs: %w", err)
		}
		if active == 0 || time.Now().After(by) {
			return active, nil
		}
		sleep(ctx, 500*time.Millisecond)
	}
}

// checkStates reads each thread's final state as its traveller and checks
// it holds each message once.
func checkStates(ctx context.Context, f *findings, clients []*client) error {
	for _, c := range clients {
		messageRuns := map[string]int{}
		for _, r := range c.runs {
			if r.Run != "" && (r.Kind == "turn" || r.Kind == "ask") {
				messageRuns[r.Thread]++
			}
		}
		for _, t := range c.threads {
			var st threadState
			if err := c.getJSON(ctx, "/threads/"+t+"/state", time.Now().Add(30*time.Second), &st); err != nil {
				return fmt.Errorf("reading the state of thread %s: %w", t, err)
			}
			checkState(f, t, st, messageRuns[t])
		}
	}
	return nil
}

// running reports whether the process is up.
func (p *serveProc) running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.exited == nil {
		return false
	}
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}
