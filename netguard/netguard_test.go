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
	"strconv"
	"strings"
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
		{"::ffff:8.8.8.8", false}, // judged as the IPv4 address it carries
		{"::ffff:8.8.8.8%eth0", true},
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
		{"http://[::ffff:10.0.0.1]/mcp", false},
		{"http://[::ffff:8.8.8.8]/mcp", true},
		{"http://[::ffff:10.9.1.2]/mcp", true}, // inside the allowed prefix once unmapped
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
		{"[::ffff:8.8.8.8]:443", true},
		{"[::ffff:192.168.7.9]:80", true},
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

// Go's resolver gives IPv4 answers as IPv4-mapped IPv6 addresses. Each
// mapped answer is judged as the IPv4 address it carries, and refused for
// what that address is, not for being mapped.
func TestMappedAnswersAreJudgedAsIPv4(t *testing.T) {
	stub := newStub(map[string][][]string{
		"public.test":   {{"::ffff:93.184.216.34"}},
		"loopback.test": {{"::ffff:127.0.0.1"}},
		"private.test":  {{"::ffff:10.0.0.1"}},
		"metadata.test": {{"::ffff:169.254.169.254"}},
		"cgnat.test":    {{"::ffff:100.64.0.1"}},
		"allowed.test":  {{"::ffff:10.9.1.2"}},
	})
	g, err := New(Options{Resolver: stub, Allow: []string{"::ffff:10.9.0.0/112"}}) // 10.9.0.0/16
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		host   string
		want   string // the address dialled, when allowed
		reason string // what the refusal says, when refused
	}{
		{"public.test", "93.184.216.34", ""},
		{"allowed.test", "10.9.1.2", ""},
		{"loopback.test", "", "127.0.0.1 is a loopback address"},
		{"private.test", "", "10.0.0.1 is a private address"},
		{"metadata.test", "", "169.254.169.254 is a link-local or cloud-metadata address"},
		{"cgnat.test", "", "100.64.0.1 is a carrier-grade NAT address"},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			addrs, err := g.resolve(context.Background(), tt.host)
			if tt.reason != "" {
				if !errors.Is(err, ErrBlocked) || !strings.Contains(err.Error(), tt.reason) || strings.Contains(err.Error(), "mapped") {
					t.Fatalf("resolving %s: %v, want ErrBlocked saying %q", tt.host, err, tt.reason)
				}
				return
			}
			if err != nil || len(addrs) != 1 || addrs[0].String() != tt.want {
				t.Fatalf("resolving %s = %v, %v; want [%s]", tt.host, addrs, err, tt.want)
			}
			// The dial goes to the unmapped address. The context is done
			// before it starts, so nothing leaves the machine: the dialer
			// gives up before it makes a socket.
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			_, err = g.DialContext(ctx, "tcp", net.JoinHostPort(tt.host, "443"))
			var op *net.OpError
			if errors.Is(err, ErrBlocked) || !errors.Is(err, context.Canceled) || !errors.As(err, &op) {
				t.Fatalf("dialling %s: %v, want the dialer's context.Canceled", tt.host, err)
			}
			if got := op.Addr.String(); got != net.JoinHostPort(tt.want, "443") {
				t.Fatalf("dialling %s went to %s, want %s", tt.host, got, net.JoinHostPort(tt.want, "443"))
			}
		})
	}
}

// Through the real resolver, localhost comes from /etc/hosts (in the
// mapped form, on Go's resolver) and is refused as the loopback address it
// is, before any connection: when dialled and when fetched.
func TestRealResolverRefusesLocalhostAsLoopback(t *testing.T) {
	if addrs, err := net.DefaultResolver.LookupNetIP(context.Background(), "ip", "localhost"); err != nil || len(addrs) == 0 {
		t.Skipf("localhost does not resolve here: %v", err)
	} else {
		t.Logf("the resolver answers localhost with %v", addrs)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	g, err := New(Options{}) // net.DefaultResolver
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrBlocked) || !strings.Contains(err.Error(), "loopback address") || strings.Contains(err.Error(), "mapped") {
			t.Errorf("%s: %v, want ErrBlocked for a loopback address", what, err)
		}
	}
	conn, err := g.DialContext(context.Background(), "tcp", net.JoinHostPort("localhost", port))
	if err == nil {
		conn.Close()
	}
	check("dialling localhost", err)
	resp, err := g.NewHTTPClient().Get("http://localhost:" + port + "/")
	if err == nil {
		resp.Body.Close()
	}
	check("fetching from localhost", err)
	if n := accepted.Load(); n != 0 {
		t.Fatalf("the loopback listener accepted %d connections", n)
	}
}

// A redirect is judged after unmapping too.
func TestCheckRedirectUnmaps(t *testing.T) {
	g, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for target, ok := range map[string]bool{
		"http://[::ffff:8.8.8.8]/mcp":        true,
		"http://[::ffff:10.0.0.1]/mcp":       false,
		"http://[::ffff:127.0.0.1]:8080/mcp": false,
	} {
		req, err := http.NewRequest(http.MethodGet, target, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = g.CheckRedirect(req, nil)
		if (err == nil) != ok || (err != nil && strings.Contains(err.Error(), "mapped")) {
			t.Errorf("a redirect to %s: %v, want ok %v", target, err, ok)
		}
	}
}
