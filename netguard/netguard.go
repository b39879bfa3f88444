// Package netguard keeps HTTP requests to servers that users configure away
// from the operator's own network: private, loopback, link-local, CGNAT,
// unique-local IPv6, cloud-metadata and other special-purpose addresses are
// refused.
//
// An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged, and dialled, as
// the IPv4 address it carries: Go's resolver gives IPv4 answers in that
// form, so a name that resolves to a public IPv4 address is allowed and
// ::ffff:127.0.0.1 is refused as loopback. Every check unmaps first: when
// dialling, on redirects, when a URL is vetted, and against the allow-list.
//
// The check runs where it cannot be dodged. Guard.DialContext resolves a
// name once, refuses the connection if any of its addresses is blocked, and
// dials the address it checked; the dialer's Control function checks the
// socket address again just before connecting. A name that resolves to a
// public address when a URL is saved and to a private one later (DNS
// rebinding) is therefore refused when dialled. Every redirect is checked
// the same way, and no proxy from the environment is used, since a proxy
// would connect on the guard's behalf.
//
// Only the operator can make exceptions, with an allow-list of host names,
// addresses and prefixes (TRIPGRAPH_MCP_ALLOW_HOSTS). Built-in servers do
// not go through the guard at all.
package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ErrBlocked is wrapped by every refusal, so that callers can tell a refused
// address from a network failure with errors.Is.
var ErrBlocked = errors.New("address not allowed")

// MaxRedirects is how many redirects a guarded client follows.
const MaxRedirects = 10

// Resolver looks up a host's addresses. *net.Resolver satisfies it.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Options configure a Guard.
type Options struct {
	// Allow is the operator's allow-list: host names (matched exactly,
	// ignoring case), IP addresses and CIDR prefixes.
	Allow []string
	// Resolver looks host names up; net.DefaultResolver when nil.
	Resolver Resolver
}

// Guard checks URLs and connections against the blocked ranges and the
// allow-list. It is safe for concurrent use.
type Guard struct {
	hosts    map[string]bool
	prefixes []netip.Prefix
	resolver Resolver
	dialer   net.Dialer // its Control refuses blocked socket addresses
	plain    net.Dialer // for host names the operator allowed

	transportOnce sync.Once
	transport     *http.Transport // shared by the clients NewHTTPClient makes
}

// New returns a Guard. It fails if an allow-list entry is neither a host
// name, an address nor a prefix.
func New(o Options) (*Guard, error) {
	g := &Guard{hosts: map[string]bool{}, resolver: o.Resolver}
	if g.resolver == nil {
		g.resolver = net.DefaultResolver
	}
	for _, raw := range o.Allow {
		if err := g.allow(strings.TrimSpace(raw)); err != nil {
			return nil, err
		}
	}
	g.plain = net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	g.dialer = g.plain
	g.dialer.Control = g.control
	return g, nil
}

// allow adds one allow-list entry.
func (g *Guard) allow(entry string) error {
	switch {
	case entry == "":
		return nil
	case strings.Contains(entry, "/"):
		p, err := netip.ParsePrefix(entry)
		if err != nil {
			return fmt.Errorf("allow-list entry %q is not a CIDR prefix: %w", entry, err)
		}
		g.prefixes = append(g.prefixes, unmapPrefix(p).Masked())
	default:
		if a, err := netip.ParseAddr(strings.Trim(entry, "[]")); err == nil {
			g.prefixes = append(g.prefixes, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			return nil
		}
		if !validHostName(entry) {
			return fmt.Errorf("allow-list entry %q is not a host name, address or prefix", entry)
		}
		g.hosts[strings.ToLower(entry)] = true
	}
	return nil
}

// allowedHost reports whether the operator allowed this host name.
func (g *Guard) allowedHost(host string) bool { return g.hosts[strings.ToLower(host)] }

// unmapPrefix turns a prefix of IPv4-mapped addresses (::ffff:10.0.0.0/104)
// into the IPv4 prefix it stands for (10.0.0.0/8), which is what unmapped
// addresses are compared with.
func unmapPrefix(p netip.Prefix) netip.Prefix {
	if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
		return netip.PrefixFrom(a.Unmap(), p.Bits()-96)
	}
	return p
}

// CheckAddr returns nil if a is allowed: an address outside every blocked
// range, or one the operator allowed. An IPv4-mapped address is checked as
// the IPv4 address it carries.
func (g *Guard) CheckAddr(a netip.Addr) error {
	a = unmap(a)
	for _, p := range g.prefixes {
		if p.Contains(a) {
			return nil
		}
	}
	if reason := Blocked(a); reason != "" {
		return fmt.Errorf("%w: %s is %s", ErrBlocked, a, reason)
	}
	return nil
}

// CheckURL checks a URL without looking anything up: http or https, a host,
// no credentials, and, when the host is an address, an allowed one. Host
// names are checked when they are dialled.
func (g *Guard) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%w: the URL does not parse", ErrBlocked)
	}
	return g.checkURL(u)
}

func (g *Guard) checkURL(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%w: the URL's scheme must be http or https", ErrBlocked)
	}
	if u.Opaque != "" || u.Host == "" || u.Hostname() == "" {
		return fmt.Errorf("%w: the URL has no host", ErrBlocked)
	}
	if u.User != nil {
		return fmt.Errorf("%w: the URL must not hold credentials", ErrBlocked)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%w: the URL's port is not valid", ErrBlocked)
		}
	}
	host := u.Hostname()
	if g.allowedHost(host) {
		return nil
	}
	if a, err := netip.ParseAddr(host); err == nil {
		return g.CheckAddr(a)
	}
	if !validHostName(host) {
		return fmt.Errorf("%w: %q is not a host name", ErrBlocked, host)
	}
	if reason := blockedName(host); reason != "" {
		return fmt.Errorf("%w: %s is %s", ErrBlocked, host, reason)
	}
	return nil
}

// DialContext connects like net.Dialer.DialContext, but only to allowed
// addresses. It resolves a host name once and dials the addresses it
// checked, so the name cannot change its answer in between.
func (g *Guard) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, fmt.Errorf("dialling %q: %w", address, err)
	}
	addrs, err := g.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	dialer := &g.dialer
	if g.allowedHost(host) {
		dialer = &g.plain
	}
	var lastErr error
	for _, a := range addrs {
		conn, err := dialer.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return conn, nil
		}
		lastErr = err
	}
	return nil, fmt.Errorf("dialling %s: %w", host, lastErr)
}

// resolve returns the host's addresses, all of them allowed (or the host
// itself allowed), or an error.
func (g *Guard) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		if err := g.CheckAddr(a); err != nil {
			return nil, err
		}
		return []netip.Addr{unmap(a)}, nil
	}
	if !validHostName(host) {
		return nil, fmt.Errorf("%w: %q is not a host name", ErrBlocked, host)
	}
	addrs, err := g.resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, fmt.Errorf("looking up %s: %w", host, err)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("looking up %s: no addresses", host)
	}
	out := make([]netip.Addr, len(addrs))
	for i, a := range addrs {
		if !g.allowedHost(host) {
			if err := g.CheckAddr(a); err != nil {
				return nil, fmt.Errorf("%s resolves to a blocked address: %w", host, err)
			}
		}
		out[i] = unmap(a)
	}
	return out, nil
}

// unmap is the address a check judged and a dial connects to: an
// IPv4-mapped address as the IPv4 address it carries.
func unmap(a netip.Addr) netip.Addr {
	if a.Zone() != "" {
		return a
	}
	return a.Unmap()
}

// control is the dialer's last word: it runs after the socket is made and
// before it connects, with the address the socket will connect to.
func (g *Guard) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot read socket address %q", ErrBlocked, address)
	}
	return g.CheckAddr(ap.Addr())
}

// Transport returns an HTTP transport that dials through the guard and
// ignores proxy settings.
func (g *Guard) Transport() *http.Transport {
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           g.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// NewHTTPClient returns a client that dials through the guard and checks
// every redirect. Clients of one Guard share one transport and so its idle
// connections. It sets no overall timeout: that would also cut long event
// streams, so callers bound each call with its context.
func (g *Guard) NewHTTPClient() *http.Client {
	g.transportOnce.Do(func() { g.transport = g.Transport() })
	return &http.Client{Transport: g.transport, CheckRedirect: g.CheckRedirect}
}

// CheckRedirect is an http.Client CheckRedirect that refuses redirects to
// URLs CheckURL refuses, and stops after MaxRedirects.
func (g *Guard) CheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= MaxRedirects {
		return fmt.Errorf("stopped after %d redirects", MaxRedirects)
	}
	if err := g.checkURL(req.URL); err != nil {
		return fmt.Errorf("refusing a redirect: %w", err)
	}
	return nil
}

// validHostName reports whether s is a DNS name of letters, digits, hyphens
// and dots whose last label is not all digits or hex: "2130706433" and
// "0x7f.1" are numeric addresses in disguise, which some resolvers accept.
func validHostName(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > 253 {
		return false
	}
	labels := strings.Split(s, ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, c := range l {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	last := strings.ToLower(labels[len(labels)-1])
	if strings.HasPrefix(last, "0x") {
		return false
	}
	_, err := strconv.ParseUint(last, 10, 64)
	return err != nil
}
