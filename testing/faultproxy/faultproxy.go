// Package faultproxy is a TCP proxy on loopback that tests put between a
// program and its database, to make the database go away and come back at
// will, as an outage or a network partition would, or answer late, as a
// database across a network does, without touching the database server
// itself.
package faultproxy

import (
	"errors"
	"io"
	"net"
	"net/url"
	"sync"
	"time"
)

// Proxy forwards every connection made to Addr to its target, until Cut.
type Proxy struct {
	target string
	ln     net.Listener
	wg     sync.WaitGroup

	mu    sync.Mutex
	cut   bool
	delay time.Duration         // before each piece of what the target sends is passed on
	conns map[net.Conn]struct{} // both ends of every open connection
}

// Start listens on a free loopback port and forwards to target
// ("host:port").
func Start(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{target: target, ln: ln, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the address to connect to instead of the target.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Through returns a database URL (postgres://…) with its host and port
// replaced by the proxy's, so that its connections pass through the proxy;
// the target must be the URL's own host and port.
func (p *Proxy) Through(databaseURL string) (string, error) {
	u, err := url.Parse(databaseURL)
	if err != nil {
		return "", err
	}
	if u.Host != p.target {
		return "", errors.New("faultproxy: the URL's host is not the proxy's target")
	}
	u.Host = p.Addr()
	return u.String(), nil
}

// Cut drops every open connection at once and refuses new ones (each is
// closed as soon as it is accepted) until Restore.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// Delay holds each piece of what the target sends back for d before it is
// passed on, from now on: every round trip through the proxy takes about
// d longer. 0 passes it on at once.
func (p *Proxy) Delay(d time.Duration) {
	p.mu.Lock()
	p.delay = d
	p.mu.Unlock()
}

// delayed is the delay Delay set.
func (p *Proxy) delayed() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.delay
}

// Restore lets connections through again; those Cut dropped stay dropped.
func (p *Proxy) Restore() {
	p.mu.Lock()
	p.cut = false
	p.mu.Unlock()
}

// Close stops the proxy, drops its connections and waits for its
// goroutines.
func (p *Proxy) Close() error {
	err := p.ln.Close()
	p.Cut()
	p.wg.Wait()
	return err
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.forward(client)
		}()
	}
}

// forward joins client to a new connection to the target, unless the
// proxy is cut, and copies both ways until either side closes.
func (p *Proxy) forward(client net.Conn) {
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		client.Close()
		return
	}
	if !p.track(client, server) {
		client.Close()
		server.Close()
		return
	}
	defer p.untrack(client, server)
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn, copy func(dst, src net.Conn)) {
		copy(dst, src)
		dst.Close()
		src.Close()
		done <- struct{}{}
	}
	go pipe(server, client, func(dst, src net.Conn) { io.Copy(dst, src) })
	go pipe(client, server, p.copyLate)
	<-done
	<-done
}

// copyLate copies src to dst until either fails, each piece read held
// for the proxy's delay first.
func (p *Proxy) copyLate(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if d := p.delayed(); d > 0 {
				time.Sleep(d)
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// track records a connection's two ends, unless the proxy is cut.
func (p *Proxy) track(ends ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cut {
		return false
	}
	for _, c := range ends {
		p.conns[c] = struct{}{}
	}
	return true
}

func (p *Proxy) untrack(ends ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range ends {
		delete(p.conns, c)
	}
}
