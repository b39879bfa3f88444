package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// startProfiling serves Go's profiles (net/http/pprof's handlers under
// /debug/pprof/) on addr, apart from the API, when addr is set. The
// profiles show the code and its data, so only a loopback address is
// accepted: reach them from another machine through an SSH tunnel. It
// returns the address it listens on ("" when off) and a func that stops
// it.
func startProfiling(addr string, log *slog.Logger) (listening string, stop func(), err error) {
	if addr == "" {
		return "", func() {}, nil
	}
	if err := checkLoopback(addr); err != nil {
		return "", nil, fmt.Errorf("serving profiles on %s: %w", addr, err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("serving profiles: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	log.Info("serving Go profiles", "addr", ln.Addr().String(), "path", "/debug/pprof/")
	return ln.Addr().String(), func() { srv.Close() }, nil
}

// checkLoopback accepts host:port whose host is a loopback IP or
// "localhost".
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return errors.New("profiles are served on a loopback address only, such as 127.0.0.1:6060")
}
