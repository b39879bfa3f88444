package netguard

import (
	"context"
	"errors"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"testing"
)

// resolverFunc answers every lookup with the addresses it returns.
type resolverFunc func(host string) []netip.Addr

func (r resolverFunc) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	return r(host), nil
}

// notPublic reports what the standard library says a is, when that is
// not a public address; "" otherwise.
func notPublic(a netip.Addr) string {
	switch {
	case a.IsLoopback():
		return "loopback"
	case a.IsPrivate():
		return "private"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast(), a.IsMulticast():
		return "link-local or multicast"
	case a.IsUnspecified():
		return "unspecified"
	}
	return ""
}

// FuzzCheckURL checks the URL vetting on any text: it never panics, a
// refusal wraps ErrBlocked, and an accepted URL is http or https, without
// credentials, with a valid port and a host that is either an address
// outside every blocked range (judged unmapped, and not loopback, private,
// link-local, multicast or unspecified by the standard library's own
// account) or a host name that names no address, loopback or metadata
// service and is refused when it resolves to a blocked address; and an
// HTTP request made from it goes to that same host.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"https://mcp.example.com/mcp", "http://8.8.8.8:8080/sse", "http://[::ffff:8.8.8.8]/", "http://[::ffff:127.0.0.1]/",
		"http://169.254.169.254/latest/meta-data/", "http://2130706433/", "http://0x7f.1/", "http://[fe80::1%25eth0]/",
		"http://localhost./", "https://user:pw@mcp.example.com/", "http://mcp.example.com:70000/", "http://%31%30.0.0.1/",
		"http://[64:ff9b::a00:1]/", "http://[2002:a00:1::1]/", "HTTP://MCP.EXAMPLE.COM", "http://a.1e0/", "http://[::1]:80/",
	} {
		f.Add(s)
	}
	// Every name resolves to a mapped loopback address.
	g, err := New(Options{Resolver: resolverFunc(func(string) []netip.Addr { return []netip.Addr{netip.MustParseAddr("::ffff:127.0.0.1")} })})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		err := g.CheckURL(raw)
		if err != nil {
			if !errors.Is(err, ErrBlocked) {
				t.Fatalf("CheckURL(%q) = %v, which does not wrap ErrBlocked", raw, err)
			}
			return
		}
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatalf("CheckURL accepted %q, which does not parse: %v", raw, err)
		}
		if u.Scheme != "http" && u.Scheme != "https" || u.User != nil || u.Hostname() == "" {
			t.Fatalf("CheckURL accepted %q: scheme %q, user %v, host %q", raw, u.Scheme, u.User, u.Hostname())
		}
		if p := u.Port(); p != "" {
			if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
				t.Fatalf("CheckURL accepted %q with port %q", raw, p)
			}
		}
		host := u.Hostname()
		if a, err := netip.ParseAddr(host); err == nil {
			if reason := Blocked(a); reason != "" {
				t.Fatalf("CheckURL accepted %q, whose address is %s", raw, reason)
			}
			if what := notPublic(a.Unmap()); what != "" || a.Zone() != "" {
				t.Fatalf("CheckURL accepted %q, whose address is %s (zone %q)", raw, what, a.Zone())
			}
		} else if !validHostName(host) || blockedName(host) != "" {
			t.Fatalf("CheckURL accepted %q, whose host %q is not a plain host name", raw, host)
		} else if _, err := g.resolve(context.Background(), host); !errors.Is(err, ErrBlocked) {
			t.Fatalf("%q resolves to a mapped loopback address here, yet dialling it was not refused: %v", host, err)
		}
		req, err := http.NewRequest(http.MethodGet, raw, nil)
		if err != nil {
			t.Fatalf("CheckURL accepted %q, which net/http refuses: %v", raw, err)
		}
		if req.URL.Hostname() != host {
			t.Fatalf("CheckURL vetted host %q of %q, net/http goes to %q", host, raw, req.URL.Hostname())
		}
	})
}

// FuzzBlocked checks the judgement of addresses: an address and its
// IPv4-mapped form are judged alike, an allowed address is public by the
// standard library's account too, and CheckAddr agrees with Blocked
// unless the operator allowed the address.
func FuzzBlocked(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "8.8.8.8", "::ffff:10.0.0.1", "::ffff:8.8.8.8", "fd00:ec2::254", "2606:4700::1111",
		"169.254.169.254", "100.64.0.1", "::1", "fe80::1", "2001:db8::1", "64:ff9b::a00:1", "10.9.1.2", "::ffff:10.9.1.2"} {
		f.Add(netip.MustParseAddr(s).AsSlice(), "")
	}
	f.Add(netip.MustParseAddr("::ffff:8.8.8.8").AsSlice(), "eth0")
	g, err := New(Options{Allow: []string{"::ffff:10.9.0.0/112"}})
	if err != nil {
		f.Fatal(err)
	}
	allowed := netip.MustParsePrefix("10.9.0.0/16")
	f.Fuzz(func(t *testing.T, b []byte, zone string) {
		a, ok := netip.AddrFromSlice(b)
		if !ok {
			return
		}
		if a.Is6() {
			a = a.WithZone(zone)
		}
		reason := Blocked(a)
		if a.Zone() == "" {
			if r4 := Blocked(a.Unmap()); r4 != reason {
				t.Fatalf("Blocked(%s) = %q but Blocked(%s) = %q", a, reason, a.Unmap(), r4)
			}
		} else if reason == "" {
			t.Fatalf("Blocked(%s) allowed a scoped address", a)
		}
		if what := notPublic(a.Unmap()); reason == "" && what != "" {
			t.Fatalf("Blocked(%s) allowed a %s address", a, what)
		}
		err := g.CheckAddr(a)
		switch {
		case a.Zone() == "" && allowed.Contains(a.Unmap()):
			if err != nil {
				t.Fatalf("CheckAddr(%s) = %v, though the operator allowed it", a, err)
			}
		case (err == nil) != (reason == ""):
			t.Fatalf("CheckAddr(%s) = %v but Blocked says %q", a, err, reason)
		case err != nil && !errors.Is(err, ErrBlocked):
			t.Fatalf("CheckAddr(%s) = %v, which does not wrap ErrBlocked", a, err)
		}
	})
}
