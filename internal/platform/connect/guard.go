package connect

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// An address an owner types (a calendar's iCal address, a CalDAV server)
// is fetched by the server, so it must not reach inside the operator's
// network: Guard refuses loopback, private, link-local (the clouds'
// metadata service among them), CGNAT, unique-local, multicast and
// unspecified addresses — checked on the address each connection actually
// dials, after DNS resolution, so a name that resolves inside, and every
// redirect, are refused as well — unless the operator allows them
// (AGENDEI_OUTBOUND_ALLOW; the tests allow loopback). Only http and https,
// a bounded number of redirects, a bounded body.

// ErrAddressRefused is a connection refused by the guard: the address
// resolves to a network an owner's address may not reach.
var ErrAddressRefused = errors.New("connect: the address reaches a network that is not allowed")

// refused are the networks an owner's address may not reach.
var refused = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8",          // "this network"
		"10.0.0.0/8",         // private
		"100.64.0.0/10",      // CGNAT (and some clouds' metadata, 100.100.100.200)
		"127.0.0.0/8",        // loopback
		"169.254.0.0/16",     // link-local: 169.254.169.254 is the clouds' metadata service
		"172.16.0.0/12",      // private
		"192.0.0.0/24",       // IETF protocol assignments
		"192.0.2.0/24",       // documentation
		"192.168.0.0/16",     // private
		"198.18.0.0/15",      // benchmarking
		"198.51.100.0/24",    // documentation
		"203.0.113.0/24",     // documentation
		"224.0.0.0/4",        // multicast
		"240.0.0.0/4",        // reserved, broadcast
		"::/128",             // unspecified
		"::1/128",            // loopback
		"64:ff9b::/96",       // NAT64: would reach an IPv4 address through the operator's gateway
		"64:ff9b:1::/48",     // local-use NAT64
		"100::/64",           // discard
		"2001:db8::/32",      // documentation
		"fc00::/7",           // unique-local (fd00:ec2::254 is a metadata service)
		"fe80::/10",          // link-local
		"ff00::/8",           // multicast
		"2002::/16",          // 6to4: embeds an IPv4 address
		"2001::/32",          // Teredo: embeds an IPv4 address
		"::ffff:0:0/96",      // IPv4-mapped (unmapped before the check; kept as a guard)
		"::ffff:0:0:0/96",    // IPv4-translated
		"fec0::/10",          // site-local (deprecated)
		"2001:10::/28",       // ORCHID
		"2001:20::/28",       // ORCHIDv2
		"5f00::/16",          // SRv6 SIDs
		"3fff::/20",          // documentation
		"2620:4f:8000::/48",  // AS112
		"192.31.196.0/24",    // AS112
		"192.52.193.0/24",    // AMT
		"192.175.48.0/24",    // AS112
		"255.255.255.255/32", // broadcast
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// Guard is what an owner's address may reach: every public address, and
// the networks the operator allows.
type Guard struct {
	Allow []netip.Prefix
}

// ParseAllow reads the operator's allowed networks: comma-separated CIDRs
// or single addresses ("127.0.0.0/8,::1").
func ParseAllow(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if p, err := netip.ParsePrefix(part); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(part)
		if err != nil {
			return nil, fmt.Errorf("not a network or an address: %q", part)
		}
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// Allowed reports whether an owner's address may reach ip.
func (g Guard) Allowed(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range g.Allow {
		if p.Contains(ip) {
			return true
		}
	}
	if !ip.IsValid() || ip.Zone() != "" {
		return false
	}
	for _, p := range refused {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// control checks the address a connection is about to dial: the resolved
// IP, so a name that resolves inside is refused however it was reached.
func (g Guard) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil || !g.Allowed(ap.Addr()) {
		return ErrAddressRefused
	}
	return nil
}

// Fetch bounds a guarded client.
type Fetch struct {
	Timeout   time.Duration // the whole request, redirects and body included
	Redirects int           // how many redirects are followed
	MaxBody   int64         // bytes read of a body, at most
}

// ErrTooManyRedirects, ErrScheme and ErrTooLarge say why a guarded fetch
// stopped.
var (
	ErrTooManyRedirects = errors.New("connect: too many redirects")
	ErrScheme           = errors.New("connect: only http and https addresses")
	ErrTooLarge         = errors.New("connect: the answer is too large")
)

// Client is an HTTP client for addresses owners type: it dials only what
// Guard allows (no proxy from the environment: the check is on what is
// dialled), follows at most f.Redirects redirects, each to http or https,
// and gives up after f.Timeout.
func (g Guard) Client(f Fetch) *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: g.control}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          20,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: f.Timeout,
	}
	return &http.Client{
		Timeout:   f.Timeout,
		Transport: transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > f.Redirects {
				return ErrTooManyRedirects
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return ErrScheme
			}
			return nil
		},
	}
}

// CheckURL reads an address an owner typed: http or https, a host, no
// user and password in it (webcal:// is Apple's and Google's name for
// https://). It does not resolve the host: the dial does, guarded.
func CheckURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if strings.HasPrefix(strings.ToLower(raw), "webcal://") {
		raw = "https://" + raw[len("webcal://"):]
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return nil, errors.New("connect: not an address")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, ErrScheme
	}
	if u.User != nil {
		return nil, errors.New("connect: an address with a user and password")
	}
	return u, nil
}

// ReadBody reads at most max bytes of a body: ErrTooLarge beyond.
func ReadBody(body io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(body, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, ErrTooLarge
	}
	return b, nil
}

// Refused reports whether a fetch failed on the guard (the address, or a
// redirect's, reaches a network that is not allowed).
func Refused(err error) bool {
	return errors.Is(err, ErrAddressRefused)
}
