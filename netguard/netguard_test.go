package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
)

// stubResolver answers from a table; each host may give a different answer
// on each lookup, the last one repeating.
type stubResolver struct {
	mu      sync.Mutex
	answers map[string][][]string
	lookups map[string]int
}

func newStub(answers map[string][][]string) *stubResolver {
	return &stubResolver{answers: answers, lookups: map[string]int{}}
}

func (r *stubResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	seq, ok := r.answers[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	n := r.lookups[host]
	r.lookups[host]++
	ans := seq[min(n, len(seq)-1)]
	out := make([]netip.Addr, len(ans))
	for i, a := range ans {
		out[i] = netip.MustParseAddr(a)
	}
	return out, nil
}

func TestBlocked(t *testing.T) {
	tests := []struct {
		addr    string
		blocked bool
	}{
		{"169.254.169.254", true}, // cloud metadata (AWS, GCP, Azure)
		{"fd00:ec2::254", true},   // AWS metadata over IPv6
		{"100.100.100.200", true}, // Alibaba metadata, inside CGNAT
		{"10.0.0.1", true},
		{"172.16.5.4", true},
		{"192.168.1.1", true},
		{"127.0.0.1", true},
		{"127.8.9.10", true},
		{"0.0.0.0", true},
		{"100.64.0.1", true},
		{"100.127.255.254", true},
		{"192.0.0.170", true},
		{"198.18.0.1", true},
		{"224.0.0.1", true},
		{"255.255.255.255", true},
		{"::ffff:127.0.0.1", true},
		{"::ffff:8.8.8.8", true}, // mapped addresses are refused whatever they map to
		{"::127.0.0.1", true},    // IPv4-compatible
		{"64:ff9b::a00:1", true}, // NAT64 of 10.0.0.1
		{"::1", true},
		{"::", true},
		{"fe80::1", true},
		{"fc00::1", true},
		{"ff02::1", true},
		{"2001:db8::1", true},
		{"2002:a00:1::1", true}, // 6to4 of 10.0.0.1
		{"2001:0:4136:e378::1", true},
		{"8.8.8.8", false},
		{"1.1.1.1", false},
		{"100.128.0.1", false}, // just above CGNAT
		{"172.32.0.1", false},  // just above 172.16/12
		{"2606:4700:4700::1111", false},
		{"2a00:1450:4001::1", false},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			reason := Blocked(netip.MustParseAddr(tt.addr))
			if (reason != "") != tt.blocked {
				t.Errorf("Blocked(%s) = %q, want blocked %v", tt.addr, reason, tt.blocked)
			}
		})
	}
}

func TestCheckURL(t *testing.T) {
	g, err := New(Options{Allow: []string{"10.9.0.0/16", "mcp.internal", "192.168.7.7"}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		url string
		ok  bool
	}{
		{"https://mcp.example.com/mcp", true},
		{"http://mcp.example.com:8443/sse", true},
		{"https://8.8.8.8/mcp", true},
		{"http://10.9.1.2/mcp", true},       // allowed prefix
		{"http://192.168.7.7:81/mcp", true}, // allowed address
		{"http://MCP.internal/mcp", true},   // allowed name, any case
		{"http://169.254.169.254/latest/meta-data/", false},
		{"http://10.0.0.1/mcp", false},
		{"http://[::ffff:127.0.0.1]/mcp", false},
		{"http://[fd00:ec2::254]/", false},
		{"http://127.0.0.1:8080/", false},
		{"http://2130706433/", false}, // 127.0.0.1 as one number
		{"http://0x7f.1/", false},
		{"http://017700000001/", false},
		{"ftp://mcp.example.com/", false},
		{"file:///etc/passwd", false},
		{"stdio:///bin/sh", false},
		{"mcp.example.com/mcp", false},
		{"https:///mcp", false},
		{"https://user:pw@mcp.example.com/", false},
		{"https://mcp.example.com:0/", false},
		{"https://mcp.example.com:70000/", false},
		{"https://mcp_example.com/", false},
		{"http://%31%30.0.0.1/", false},
		{"http://localhost:8080/mcp", false},
		{"http://api.LOCALHOST./mcp", false},
		{"http://metadata.google.internal/computeMetadata/v1/", false},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			err := g.CheckURL(tt.url)
			if (err == nil) != tt.ok {
				t.Fatalf("CheckURL(%q) = %v, want ok %v", tt.url, err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrBlocked) {
				t.Fatalf("CheckURL(%q) = %v, which does not wrap ErrBlocked", tt.url, err)
			}
		})
	}
}

func TestNewRejectsBadAllowList(t *testing.T) {
	for _, entry := range []string{"10.0.0.0/33", "not a host", "http://x/"} {
		if _, err := New(Options{Allow: []string{entry}}); err == nil {
			t.Errorf("allow-list entry %q was accepted", entry)
		}
	}
}

// Names are resolved once per dial and every answer is checked; a name with
// one blocked answer among public ones is refused before any connection.
func TestDialRefusesNamesThatResolveToBlockedAddresses(t *testing.T) {
	stub := newStub(map[string][][]string{
		"private.test":  {{"10.0.0.1"}},
		"metadata.test": {{"169.254.169.254"}},
		"mapped.test":   {{"::ffff:127.0.0.1"}},
		"mixed.test":    {{"8.8.8.8", "192.168.0.10"}},
		"ula.test":      {{"fd00:ec2::254"}},
	})
	g, err := New(Options{Resolver: stub})
	if err != nil {
		t.Fatal(err)
	}
	for host := range stub.answers {
		t.Run(host, func(t *testing.T) {
			conn, err := g.DialContext(context.Background(), "tcp", net.JoinHostPort(host, "443"))
			if err == nil {
				conn.Close()
				t.Fatalf("dialling %s succeeded", host)
			}
			if !errors.Is(err, ErrBlocked) {
				t.Fatalf("dialling %s: %v, want ErrBlocked", host, err)
			}
		})
	}
}

// The dialer's Control function refuses blocked socket addresses, whatever
// the resolver said: it is what stops a connection to an address that was
// never looked up through the guard.
func TestControlRefusesBlockedSocketAddresses(t *testing.T) {
	g, err := New(Options{Allow: []string{"192.168.7.0/24"}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		address string
		ok      bool
	}{
		{"169.254.169.254:80", false},
		{"10.0.0.1:443", false},
		{"127.0.0.1:8080", false},
		{"[::ffff:127.0.0.1]:80", false},
		{"[fd00:ec2::254]:80", false},
		{"[::1]:80", false},
		{"192.168.7.9:80", true},
		{"8.8.8.8:443", true},
		{"[2606:4700:4700::1111]:443", true},
	}
	for _, tt := range tests {
		err := g.control("tcp", tt.address, nil)
		if (err == nil) != tt.ok {
			t.Errorf("control(%s) = %v, want ok %v", tt.address, err, tt.ok)
		}
	}

	// And the dialer really uses it: a loopback listener is not reached.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	conn, err := g.dialer.DialContext(context.Background(), "tcp", ln.Addr().String())
	if err == nil {
		conn.Close()
		t.Fatal("the guarded dialer connected to loopback")
	}
	if !errors.Is(err, ErrBlocked) {
		t.Fatalf("the guarded dialer failed with %v, want ErrBlocked", err)
	}
}

// loopbackServer counts its requests and redirects /to?u=URL to URL.
func loopbackServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if target := r.URL.Query().Get("u"); target != "" {
			http.Redirect(w, r, target, http.StatusFound)
			return
		}
		fmt.Fprint(w, "ok")
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestClient(t *testing.T) {
	srv, hits := loopbackServer(t)
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	stub := newStub(map[string][][]string{
		"mcp.test":     {{"127.0.0.1"}},
		"private.test": {{"10.0.0.1"}},
		// public when first asked, loopback afterwards: DNS rebinding
		"rebind.test": {{"93.184.216.34"}, {"127.0.0.1"}},
	})
	guarded, err := New(Options{Resolver: stub})
	if err != nil {
		t.Fatal(err)
	}
	allowing, err := New(Options{Resolver: stub, Allow: []string{"mcp.test"}})
	if err != nil {
		t.Fatal(err)
	}
	at := func(host, path string) string { return fmt.Sprintf("http://%s:%d%s", host, port, path) }
	redirect := func(target string) string { return at("mcp.test", "/to?u="+url.QueryEscape(target)) }
	tests := []struct {
		name     string
		guard    *Guard
		url      string
		ok       bool
		wantHits int64 // requests the loopback server saw
	}{
		{"loopback by address", guarded, srv.URL, false, 0},
		{"loopback by name", guarded, at("mcp.test", "/"), false, 0},
		{"rebinding name", guarded, at("rebind.test", "/"), false, 0},
		{"allowed name", allowing, at("mcp.test", "/"), true, 1},
		{"redirect to a private address", allowing, redirect("http://10.0.0.1/"), false, 1},
		{"redirect to cloud metadata", allowing, redirect("http://169.254.169.254/latest/meta-data/"), false, 1},
		{"redirect to a mapped address", allowing, redirect("http://[::ffff:127.0.0.1]:1/"), false, 1},
		{"redirect to a name resolving to a private address", allowing, redirect(at("private.test", "/")), false, 1},
		{"redirect to a non-HTTP scheme", allowing, redirect("file:///etc/passwd"), false, 1},
		{"redirect within the allowed host", allowing, redirect(at("mcp.test", "/")), true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "rebinding name" {
				// The URL passes when it is saved; the dial resolves again.
				if _, err := stub.LookupNetIP(context.Background(), "ip", "rebind.test"); err != nil {
					t.Fatal(err)
				}
				if err := guarded.CheckURL(tt.url); err != nil {
					t.Fatal(err)
				}
			}
			hits.Store(0)
			resp, err := tt.guard.NewHTTPClient().Get(tt.url)
			if err == nil {
				resp.Body.Close()
			}
			if (err == nil) != tt.ok {
				t.Fatalf("GET %s: %v, want ok %v", tt.url, err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrBlocked) {
				t.Fatalf("GET %s: %v, want ErrBlocked", tt.url, err)
			}
			if got := hits.Load(); got != tt.wantHits {
				t.Fatalf("the loopback server saw %d requests, want %d", got, tt.wantHits)
			}
		})
	}
}

func TestTransportIgnoresProxies(t *testing.T) {
	t.Setenv("HTTP_PROXY", "http://proxy.example:3128")
	t.Setenv("HTTPS_PROXY", "http://proxy.example:3128")
	g, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Transport().Proxy != nil {
		t.Fatal("the guarded transport uses a proxy, which would dial on its behalf")
	}
	a, b := g.NewHTTPClient(), g.NewHTTPClient()
	if a.Transport != b.Transport || a.Transport.(*http.Transport).Proxy != nil {
		t.Fatal("the guard's clients do not share one proxy-free transport")
	}
}
