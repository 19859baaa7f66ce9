package connect_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/connect"
)

func TestGuard_RefusesInsideNetworksUnlessAllowed(t *testing.T) {
	strict := connect.Guard{}
	loopback, err := connect.ParseAllow("127.0.0.0/8, ::1")
	if err != nil {
		t.Fatal(err)
	}
	lenient := connect.Guard{Allow: loopback}
	for _, c := range []struct {
		ip            string
		strict, loose bool
	}{
		{"8.8.8.8", true, true},
		{"142.250.79.46", true, true}, // a Google address
		{"2800:3f0:4001:80b::200e", true, true},
		{"127.0.0.1", false, true},
		{"127.8.9.10", false, true},
		{"::1", false, true},
		{"::ffff:127.0.0.1", false, true}, // IPv4-mapped loopback
		{"10.1.2.3", false, false},
		{"172.16.0.1", false, false},
		{"172.31.255.254", false, false},
		{"172.32.0.1", true, true},
		{"192.168.1.1", false, false},
		{"169.254.169.254", false, false}, // the clouds' metadata service
		{"100.64.0.1", false, false},      // CGNAT
		{"100.100.100.200", false, false}, // a cloud's metadata, in CGNAT
		{"fd00:ec2::254", false, false},   // a metadata service, unique-local
		{"fc00::1", false, false},
		{"fe80::1", false, false},
		{"0.0.0.0", false, false},
		{"::", false, false},
		{"224.0.0.1", false, false},
		{"255.255.255.255", false, false},
		{"::ffff:10.0.0.1", false, false},
		{"64:ff9b::a00:1", false, false}, // NAT64 of 10.0.0.1
	} {
		ip := netip.MustParseAddr(c.ip)
		if got := strict.Allowed(ip); got != c.strict {
			t.Errorf("%s strict: %v, want %v", c.ip, got, c.strict)
		}
		if got := lenient.Allowed(ip); got != c.loose {
			t.Errorf("%s allowing loopback: %v, want %v", c.ip, got, c.loose)
		}
	}
	if _, err := connect.ParseAllow("intranet"); err == nil {
		t.Fatal("a name is not a network")
	}
}

func TestCheckURL_OnlyHTTPAddressesWithoutCredentials(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"https://calendar.google.com/calendar/ical/x%40gmail.com/private-abc/basic.ics", "https://calendar.google.com/calendar/ical/x%40gmail.com/private-abc/basic.ics", true},
		{"webcal://p55-caldav.icloud.com/published/2/abc", "https://p55-caldav.icloud.com/published/2/abc", true},
		{"  HTTP://example.com/a.ics ", "http://example.com/a.ics", true},
		{"file:///etc/passwd", "", false},
		{"gopher://example.com/", "", false},
		{"ftp://example.com/a.ics", "", false},
		{"https://user:pass@example.com/a.ics", "", false},
		{"example.com/a.ics", "", false},
		{"https://", "", false},
		{"javascript:alert(1)", "", false},
	} {
		u, err := connect.CheckURL(c.in)
		if (err == nil) != c.ok || (c.ok && u.String() != c.want) {
			t.Errorf("%q: %v %v", c.in, u, err)
		}
	}
}

// The guard is on what is dialled: a loopback server is refused without
// the operator's allowance, also when reached through a redirect from an
// allowed one; redirects and bodies are bounded.
func TestGuardClient_ChecksEveryDialAndBoundsRedirectsAndBodies(t *testing.T) {
	inside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			_, _ = w.Write(make([]byte, 2048))
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		default:
			_, _ = w.Write([]byte("ok"))
		}
	}))
	defer inside.Close()
	f := connect.Fetch{Timeout: 5 * time.Second, Redirects: 3, MaxBody: 1024}

	_, err := connect.Guard{}.Client(f).Get(inside.URL)
	if !connect.Refused(err) {
		t.Fatalf("loopback without allowance: %v", err)
	}

	// An allowed server (here: one on ::1 or another loopback address the
	// operator allows) redirecting to a refused one: the redirect's dial is refused.
	allowOnly, _ := connect.ParseAllow("127.0.0.2")
	front := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inside.URL+"/secret", http.StatusFound)
	})}
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skip("no 127.0.0.2 here:", err)
	}
	go func() { _ = front.Serve(ln) }()
	defer front.Shutdown(context.Background())
	res, err := connect.Guard{Allow: allowOnly}.Client(f).Get("http://" + ln.Addr().String() + "/")
	if !connect.Refused(err) {
		if res != nil {
			res.Body.Close()
		}
		t.Fatalf("redirect into a refused network: %v", err)
	}

	loose, _ := connect.ParseAllow("127.0.0.0/8")
	c := connect.Guard{Allow: loose}.Client(f)
	if _, err := c.Get(inside.URL + "/loop"); !errors.Is(err, connect.ErrTooManyRedirects) {
		t.Fatalf("redirect loop: %v", err)
	}
	res, err = c.Get(inside.URL + "/big")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if _, err := connect.ReadBody(res.Body, f.MaxBody); !errors.Is(err, connect.ErrTooLarge) {
		t.Fatalf("a body over the bound: %v", err)
	}
}
