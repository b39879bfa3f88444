package faultproxy

import (
	"bufio"
	"net"
	"testing"
	"time"
)

// echoServer answers every line with the same line.
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					c.Write([]byte(line))
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// roundTrip sends a line through addr and reports whether it came back.
func roundTrip(c net.Conn) bool {
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte("hello\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && line == "hello\n"
}

func TestCutAndRestore(t *testing.T) {
	p, err := Start(echoServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	before, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer before.Close()
	if !roundTrip(before) {
		t.Fatal("nothing came back through the proxy")
	}
	p.Cut()
	if roundTrip(before) {
		t.Error("an open connection still works after Cut")
	}
	during, err := net.Dial("tcp", p.Addr())
	if err == nil {
		if roundTrip(during) {
			t.Error("a new connection works while cut")
		}
		during.Close()
	}
	p.Restore()
	after, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer after.Close()
	if !roundTrip(after) {
		t.Error("a new connection does not work after Restore")
	}
}

func TestThrough(t *testing.T) {
	p, err := Start("127.0.0.1:5432")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	got, err := p.Through("postgres://u@127.0.0.1:5432/db?sslmode=disable")
	if err != nil || got != "postgres://u@"+p.Addr()+"/db?sslmode=disable" {
		t.Errorf("Through = %q, %v", got, err)
	}
	if _, err := p.Through("postgres://u@10.0.0.1:5432/db"); err == nil {
		t.Error("a URL of another host was rewritten")
	}
}

// A delay holds what the target answers for at least that long; the
// answer still arrives whole.
func TestDelay(t *testing.T) {
	p, err := Start(echoServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	const d = 100 * time.Millisecond
	p.Delay(d)
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	if !roundTrip(c) {
		t.Fatal("the round trip through a delaying proxy failed")
	}
	if took := time.Since(start); took < d {
		t.Errorf("a round trip through a proxy delaying %s took %s", d, took)
	}
}
