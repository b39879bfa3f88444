package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// serveProc is one `tripgraph serve` of the campaign, on a fixed loopback
// address, started again after each fault that ends it.
type serveProc struct {
	name string // A or B
	addr string
	bin  string
	env  []string
	dir  string // its working directory, which holds its logs

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{} // closed when cmd has ended
	err    error         // cmd's exit error, once exited is closed
	starts int
	logs   []string
}

// start starts the process and waits until it answers /readyz 200, for at
// most a minute.
func (p *serveProc) start(ctx context.Context) error {
	p.mu.Lock()
	p.starts++
	log := filepath.Join(p.dir, fmt.Sprintf("serve-%s.%d.log", p.name, p.starts))
	p.logs = append(p.logs, log)
	p.mu.Unlock()
	f, err := os.Create(log)
	if err != nil {
		return fmt.Errorf("creating the log of serve %s: %w", p.name, err)
	}
	cmd := exec.Command(p.bin, "serve", "--addr", p.addr)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = p.dir, p.env, f, f
	// If the campaign dies, its serve processes die with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		f.Close()
		return fmt.Errorf("starting serve %s: %w", p.name, err)
	}
	exited := make(chan struct{})
	p.mu.Lock()
	p.cmd, p.exited = cmd, exited
	p.mu.Unlock()
	go func() {
		err := cmd.Wait()
		f.Close()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(exited)
	}()
	return p.waitReady(ctx, exited)
}

func (p *serveProc) waitReady(ctx context.Context, exited chan struct{}) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+p.addr+"/readyz", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-exited:
			return fmt.Errorf("serve %s exited before it was ready (see %s)", p.name, p.lastLog())
		case <-ctx.Done():
			return fmt.Errorf("serve %s was not ready within a minute (see %s): %w", p.name, p.lastLog(), ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (p *serveProc) lastLog() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.logs[len(p.logs)-1]
}

// signal sends sig to the running process, and reports how long it took
// to exit, up to within: false when it is still running then.
func (p *serveProc) signal(sig syscall.Signal, within time.Duration) (time.Duration, bool) {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	if cmd == nil {
		return 0, true
	}
	began := time.Now()
	cmd.Process.Signal(sig)
	select {
	case <-exited:
		return time.Since(began), true
	case <-time.After(within):
		return within, false
	}
}

// exitError is the error the last process exited with (nil for status 0).
func (p *serveProc) exitError() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// stop ends the process for good: SIGTERM, then SIGKILL 30 s later.
func (p *serveProc) stop() {
	if _, ok := p.signal(syscall.SIGTERM, 30*time.Second); !ok {
		p.signal(syscall.SIGKILL, 10*time.Second)
	}
}

// logFindings reads every log of the process: its error lines, any
// panic or data race it wrote, and any other line that is not a JSON
// record (every log line must be one).
func (p *serveProc) logFindings() (errorLines int, fatal, plain []string, err error) {
	p.mu.Lock()
	logs := append([]string(nil), p.logs...)
	p.mu.Unlock()
	for _, name := range logs {
		f, openErr := os.Open(name)
		if openErr != nil {
			err = errors.Join(err, openErr)
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.Contains(line, `"level":"ERROR"`):
				errorLines++
			case strings.HasPrefix(line, "panic:"), strings.HasPrefix(line, "fatal error:"), strings.Contains(line, "DATA RACE"):
				fatal = append(fatal, filepath.Base(name)+": "+line)
			case line != "" && !strings.HasPrefix(line, "{"):
				plain = append(plain, filepath.Base(name)+": "+line)
			}
		}
		f.Close()
	}
	return errorLines, fatal, plain, err
}
