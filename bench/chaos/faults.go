package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"syscall"
	"time"

	"github.com/tripgraph/tripgraph/testing/faultproxy"
)

// The faults the campaign injects, one at a time.
const (
	faultKill      = "serve SIGKILL, restarted"
	faultTerm      = "serve SIGTERM, restarted"
	faultPGStop    = "PostgreSQL immediate stop, restarted"
	faultPGCut     = "PostgreSQL unreachable (connections cut)"
	faultMCPHang   = "user MCP server hangs"
	faultMCPNoInit = "user MCP server never answers initialize"
	faultMCPJunk   = "user MCP server answers garbage"
	faultMCPCut    = "user MCP server answers truncated"
	faultMCPHuge   = "user MCP server answers 50 MB"
)

// faultKinds are drawn as a shuffled deck, so that every kind comes once
// before any comes again.
var faultKinds = []string{faultKill, faultTerm, faultPGStop, faultPGCut, faultMCPHang, faultMCPNoInit, faultMCPJunk, faultMCPCut, faultMCPHuge}

// injected is one fault as it happened.
type injected struct {
	Kind   string
	Target string // the serve process, when it is one
	At     time.Duration
	Lasted time.Duration // from the fault to the end of the recovery
	Note   string        // what went wrong while injecting or recovering
}

// faults injects faults until ctx ends, one at a time, each followed by
// its recovery and a quiet gap.
type faults struct {
	rng     *rand.Rand
	serves  []*serveProc
	cluster *cluster
	proxy   *faultproxy.Proxy
	mcp     *userMCP
	grace   time.Duration // the serve processes' shutdown grace
	began   time.Time
	log     func(format string, args ...any)
	done    []injected
}

// run injects faults until ctx ends. A recovery started before ctx ended
// is finished whatever ctx says, with its own bounds.
func (f *faults) run(ctx context.Context) {
	var deck []string
	for {
		gap := time.Duration(3000+f.rng.IntN(5000)) * time.Millisecond
		select {
		case <-ctx.Done():
			return
		case <-time.After(gap):
		}
		if len(deck) == 0 {
			deck = append([]string(nil), faultKinds...)
			f.rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		}
		kind := deck[0]
		deck = deck[1:]
		in := injected{Kind: kind, At: time.Since(f.began)}
		start := time.Now()
		in.Target, in.Note = f.inject(kind)
		in.Lasted = time.Since(start)
		f.done = append(f.done, in)
		note := ""
		if in.Note != "" {
			note = " (" + in.Note + ")"
		}
		f.log("fault at %6.1fs: %s %s, %.1fs%s", in.At.Seconds(), kind, in.Target, in.Lasted.Seconds(), note)
	}
}

// inject does one fault and its recovery, and says what it hit and what
// went wrong, if anything. Every wait in it is bounded.
func (f *faults) inject(kind string) (target, note string) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	hold := func(minMS, spanMS int) { time.Sleep(time.Duration(minMS+f.rng.IntN(spanMS)) * time.Millisecond) }
	switch kind {
	case faultKill, faultTerm:
		p := f.serves[f.rng.IntN(len(f.serves))]
		if kind == faultKill {
			p.signal(syscall.SIGKILL, 10*time.Second)
		} else {
			within := f.grace + 30*time.Second
			took, ok := p.signal(syscall.SIGTERM, within)
			switch {
			case !ok:
				note = fmt.Sprintf("still running %s after SIGTERM: killed", within)
				p.signal(syscall.SIGKILL, 10*time.Second)
			case p.exitError() != nil:
				note = fmt.Sprintf("exited with %v after SIGTERM", p.exitError())
			case took > f.grace+15*time.Second:
				note = fmt.Sprintf("took %s to exit after SIGTERM", took.Round(time.Millisecond))
			}
		}
		hold(500, 2000)
		if err := p.start(ctx); err != nil {
			note = join(note, "restart failed: "+err.Error())
		}
		return p.name, note
	case faultPGStop:
		if err := f.cluster.stopNow(ctx); err != nil {
			return "", err.Error()
		}
		hold(1000, 4000)
		if err := f.cluster.start(ctx); err != nil {
			return "", "restart failed: " + err.Error()
		}
		return "", ""
	case faultPGCut:
		f.proxy.Cut()
		hold(1000, 5000)
		f.proxy.Restore()
		return "", ""
	}
	mode := map[string]mcpMode{faultMCPHang: mcpHang, faultMCPNoInit: mcpNoInit, faultMCPJunk: mcpGarbage,
		faultMCPCut: mcpTruncated, faultMCPHuge: mcpHuge}[kind]
	f.mcp.set(mode)
	hold(4000, 8000)
	f.mcp.set(mcpWell)
	return "", ""
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
