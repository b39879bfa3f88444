package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os/exec"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// errTooLarge is what a capped reader returns once a response passes its
// limit.
var errTooLarge = errors.New("the response is larger than the limit")

// connState is what the bridge learns about one connection below the SDK:
// whether the server refused the session's credentials or forgot it
// (401, 410, or 404 for a known session), and whether a response passed
// the size cap.
type connState struct {
	renew    atomic.Bool
	tooLarge atomic.Bool
}

// transport returns the SDK transport for one session of user with cfg.
func (b *Bridge) transport(user string, cfg ServerConfig, st *connState) (mcp.Transport, error) {
	limit := cfg.maxResponseBytes()
	switch cfg.Transport {
	case Streamable:
		return &mcp.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: b.httpClient(user, cfg, st)}, nil
	case SSE:
		return &mcp.SSEClientTransport{Endpoint: cfg.URL, HTTPClient: b.httpClient(user, cfg, st)}, nil
	case Stdio:
		return &commandTransport{argv: cfg.Command, limit: limit, state: st}, nil
	case Memory:
		return &memoryTransport{server: cfg.NewServer(user), limit: limit, state: st}, nil
	}
	return nil, fmt.Errorf("server %q: unknown transport %q", cfg.Name, cfg.Transport)
}

// httpClient returns a client whose transport adds the server's headers
// and credentials, watches for 401 and 410, and caps response bodies. It
// has no Timeout: deadlines come from the call's context, so that event
// streams stay open.
func (b *Bridge) httpClient(user string, cfg ServerConfig, st *connState) *http.Client {
	base := b.opts.HTTP.Trusted
	if !cfg.Builtin && !cfg.operator() && b.opts.HTTP.Guarded != nil {
		base = b.opts.HTTP.Guarded
	}
	var rt http.RoundTripper = http.DefaultTransport
	c := &http.Client{}
	if base != nil {
		if base.Transport != nil {
			rt = base.Transport
		}
		c.CheckRedirect, c.Jar = base.CheckRedirect, base.Jar
	}
	tap := &httpTap{base: rt, headers: cfg.Headers, limit: cfg.maxResponseBytes(), state: st}
	if cfg.Builtin && len(b.opts.Secret) > 0 {
		tap.token = func() (string, error) { return b.mintToken(user) }
	}
	c.Transport = tap
	return c
}

// httpTap is one session's http.RoundTripper.
type httpTap struct {
	base    http.RoundTripper
	headers map[string]string
	token   func() (string, error) // a fresh bearer token per request; nil for none
	limit   int64
	state   *connState
}

func (t *httpTap) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	if t.token != nil {
		tok, err := t.token()
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusGone ||
		(resp.StatusCode == http.StatusNotFound && hasSession(req)) {
		t.state.renew.Store(true)
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	resp.Body = &cappedReader{r: resp.Body, limit: t.limit, state: t.state, perEvent: mediaType == "text/event-stream"}
	return resp, nil
}

// hasSession reports whether a request names an MCP session: the
// Streamable HTTP header, or the legacy SSE transport's message URL. A 404
// then means that the server forgot the session.
func hasSession(req *http.Request) bool {
	return req.Header.Get("Mcp-Session-Id") != "" || req.URL.Query().Has("sessionid")
}

// cappedReader fails once more than limit bytes arrive: in one message of
// a newline-delimited stream, in one event of an event stream (perEvent),
// or in the whole body otherwise. Bytes are counted as they are read,
// before anything decodes them.
type cappedReader struct {
	r        io.ReadCloser
	limit    int64
	state    *connState
	perEvent bool // an event stream: count per event (ended by a blank line)
	perLine  bool // newline-delimited JSON: count per line
	n        int64
	last     byte
}

func (c *cappedReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for _, b := range p[:n] {
		c.n++
		switch {
		case c.perLine && b == '\n':
			c.n = 0
		case c.perEvent && b == '\n' && c.last == '\n':
			c.n = 0
		}
		if b != '\r' {
			c.last = b
		}
		if c.n > c.limit {
			c.state.tooLarge.Store(true)
			return 0, errTooLarge
		}
	}
	return n, err
}

func (c *cappedReader) Close() error { return c.r.Close() }

// commandTransport starts a command and speaks newline-delimited JSON-RPC
// over its standard input and output, counting each message's bytes.
type commandTransport struct {
	argv  []string
	limit int64
	state *connState
}

func (t *commandTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	cmd := exec.Command(t.argv[0], t.argv[1:]...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("connecting to the command's output: %w", err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("connecting to the command's input: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the server command: %w", err)
	}
	r := &cappedReader{r: io.NopCloser(stdout), limit: t.limit, state: t.state, perLine: true}
	return (&mcp.IOTransport{Reader: r, Writer: &process{stdin: stdin, cmd: cmd}}).Connect(ctx)
}

// process is a server command's standard input; closing it ends the
// command: stdin is closed, and the command is killed if it has not exited
// within two seconds.
type process struct {
	stdin io.WriteCloser
	cmd   *exec.Cmd
}

func (p *process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

func (p *process) Close() error {
	p.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
	return nil
}
