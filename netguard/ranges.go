package netguard

import (
	"net/netip"
	"strings"
)

// blockedV4 are the IPv4 ranges that are not the public internet, with the
// reason a refusal gives.
var blockedV4 = []struct {
	prefix netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "the unspecified network"},
	{netip.MustParsePrefix("10.0.0.0/8"), "a private address"},
	{netip.MustParsePrefix("100.64.0.0/10"), "a carrier-grade NAT address"},
	{netip.MustParsePrefix("127.0.0.0/8"), "a loopback address"},
	{netip.MustParsePrefix("169.254.0.0/16"), "a link-local or cloud-metadata address"},
	{netip.MustParsePrefix("172.16.0.0/12"), "a private address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol address"},
	{netip.MustParsePrefix("192.0.2.0/24"), "a documentation address"},
	{netip.MustParsePrefix("192.88.99.0/24"), "a 6to4 relay address"},
	{netip.MustParsePrefix("192.168.0.0/16"), "a private address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking address"},
	{netip.MustParsePrefix("198.51.100.0/24"), "a documentation address"},
	{netip.MustParsePrefix("203.0.113.0/24"), "a documentation address"},
	{netip.MustParsePrefix("224.0.0.0/4"), "a multicast address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved address"},
}

// globalV6 is the only IPv6 space that is routed on the internet; every
// other IPv6 address (loopback, unspecified, IPv4-compatible,
// NAT64, unique-local such as the fd00:ec2::254 metadata service,
// link-local, multicast) is refused.
var globalV6 = netip.MustParsePrefix("2000::/3")

// blockedV6 are the parts of globalV6 that are not ordinary hosts: Teredo
// and 6to4 carry an IPv4 address inside, and the rest are documentation and
// special-purpose blocks.
var blockedV6 = []struct {
	prefix netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("2001::/32"), "a Teredo address"},
	{netip.MustParsePrefix("2001:2::/48"), "a benchmarking address"},
	{netip.MustParsePrefix("2001:10::/28"), "an ORCHID address"},
	{netip.MustParsePrefix("2001:20::/28"), "an ORCHID address"},
	{netip.MustParsePrefix("2001:db8::/32"), "a documentation address"},
	{netip.MustParsePrefix("2002::/16"), "a 6to4 address"},
	{netip.MustParsePrefix("3fff::/20"), "a documentation address"},
}

// Blocked returns why a is refused, or "" if it is an ordinary public
// address. An IPv4-mapped IPv6 address (::ffff:a.b.c.d, the form Go's
// resolver gives IPv4 answers in) is judged as the IPv4 address it
// carries, so ::ffff:127.0.0.1 is refused as loopback and ::ffff:8.8.8.8 is
// allowed; the guard dials the unmapped address it judged. A mapped address
// with a zone is refused as scoped.
func Blocked(a netip.Addr) string {
	a = unmap(a)
	switch {
	case !a.IsValid():
		return "not an address"
	case a.Is4():
		for _, b := range blockedV4 {
			if b.prefix.Contains(a) {
				return b.reason
			}
		}
		return ""
	case a.Zone() != "":
		return "a scoped IPv6 address"
	case !globalV6.Contains(a):
		return v6Reason(a)
	}
	for _, b := range blockedV6 {
		if b.prefix.Contains(a) {
			return b.reason
		}
	}
	return ""
}

// v6Reason names the kind of a non-global IPv6 address.
func v6Reason(a netip.Addr) string {
	switch {
	case a.IsLoopback():
		return "a loopback address"
	case a.IsUnspecified():
		return "the unspecified address"
	case a.IsLinkLocalUnicast():
		return "a link-local address"
	case a.IsPrivate():
		return "a unique-local address (this includes cloud-metadata services)"
	case a.IsMulticast():
		return "a multicast address"
	}
	return "outside the global IPv6 unicast space"
}

// metadataNames are the names cloud providers give their metadata services.
var metadataNames = []string{"metadata", "metadata.google.internal", "metadata.goog",
	"instance-data", "instance-data.ec2.internal", "metadata.azure.com"}

// blockedName returns why a host name is refused before it is looked up, or
// "": loopback names and cloud-metadata names need no lookup to be known.
// Any other name is judged by its addresses when it is dialled.
func blockedName(host string) string {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return "a loopback name"
	}
	for _, m := range metadataNames {
		if h == m {
			return "a cloud-metadata name"
		}
	}
	return ""
}
