// Package radicale starts a real CalDAV server for the tests: Radicale, the
// Debian package `radicale` (.ci/run installs it), on a free loopback port
// with its own folder, one user with an app password and owner-only rights.
// CalDAV is tested against a server that implements it, not a fake of ours.
package radicale

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Server is a running Radicale.
type Server struct {
	// URL is the server's root ("http://127.0.0.1:PORT/").
	URL string
	// User and Password sign in (HTTP Basic, as an app password does).
	User, Password string
}

// Start runs Radicale until the test ends. Without the radicale command the
// test fails (it never skips: CI installs it).
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := exec.LookPath("radicale")
	if err != nil {
		t.Fatalf("radicale is not installed (apt-get install radicale; .ci/run installs it): %v", err)
	}
	dir := t.TempDir()
	s := &Server{User: "ana", Password: "app-senha-0123"}
	if err := os.WriteFile(filepath.Join(dir, "users"), []byte(s.User+":"+s.Password+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	cfg := fmt.Sprintf(`[server]
hosts = 127.0.0.1:%d
[auth]
type = htpasswd
htpasswd_filename = %s
htpasswd_encryption = plain
delay = 0
[storage]
filesystem_folder = %s
[rights]
type = owner_only
[web]
type = none
[logging]
level = warning
`, port, filepath.Join(dir, "users"), filepath.Join(dir, "collections"))
	if err := os.WriteFile(filepath.Join(dir, "config"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd := exec.Command(bin, "--config", filepath.Join(dir, "config"))
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	s.URL = fmt.Sprintf("http://127.0.0.1:%d/", port)
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(s.URL + ".well-known/caldav")
		if err == nil {
			resp.Body.Close()
			return s
		}
		select {
		case <-exited:
			t.Fatalf("radicale exited: %s", out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("radicale did not answer in 20 s: %v\n%s", err, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Calendar creates a calendar collection of the user (MKCALENDAR, RFC 4791
// §5.3.1) named by its path segment and display name, and returns its path.
func (s *Server) Calendar(t testing.TB, segment, name string) string {
	t.Helper()
	path := "/" + s.User + "/" + segment + "/"
	body := `<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:set><D:prop><D:displayname>` + name + `</D:displayname></D:prop></D:set>
</C:mkcalendar>`
	if code := s.do(t, "MKCALENDAR", path, "application/xml", body); code != http.StatusCreated {
		t.Fatalf("MKCALENDAR %s: %d", path, code)
	}
	return path
}

// Put writes an event into a calendar as the owner's own calendar app would
// (a VCALENDAR text, stored under uid.ics).
func (s *Server) Put(t testing.TB, calendar, uid, ics string) {
	t.Helper()
	ics = strings.ReplaceAll(strings.ReplaceAll(ics, "\r\n", "\n"), "\n", "\r\n")
	if code := s.do(t, http.MethodPut, calendar+uid+".ics", "text/calendar; charset=utf-8", ics); code != http.StatusCreated && code != http.StatusNoContent {
		t.Fatalf("PUT %s%s.ics: %d", calendar, uid, code)
	}
}

// Delete removes an event as the owner's calendar app would.
func (s *Server) Delete(t testing.TB, calendar, uid string) {
	t.Helper()
	if code := s.do(t, http.MethodDelete, calendar+uid+".ics", "", ""); code != http.StatusOK && code != http.StatusNoContent {
		t.Fatalf("DELETE %s%s.ics: %d", calendar, uid, code)
	}
}

// DeleteCalendar removes a whole calendar collection, as an owner deleting
// it in the calendar app would.
func (s *Server) DeleteCalendar(t testing.TB, calendar string) {
	t.Helper()
	if code := s.do(t, http.MethodDelete, calendar, "", ""); code != http.StatusOK && code != http.StatusNoContent {
		t.Fatalf("DELETE %s: %d", calendar, code)
	}
}

// Get reads an event's text, or "" when there is none.
func (s *Server) Get(t testing.TB, calendar, uid string) string {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, strings.TrimSuffix(s.URL, "/")+calendar+uid+".ics", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(s.User, s.Password)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return ""
	}
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s%s.ics: %d %s", calendar, uid, resp.StatusCode, b.String())
	}
	return b.String()
}

// Objects counts the calendar's stored objects (events), to check that a
// write happened exactly once.
func (s *Server) Objects(t testing.TB, calendar string) int {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), "PROPFIND", strings.TrimSuffix(s.URL, "/")+calendar, strings.NewReader(`<?xml version="1.0"?><propfind xmlns="DAV:"><prop><getetag/></prop></propfind>`))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(s.User, s.Password)
	req.Header.Set("Depth", "1")
	req.Header.Set("Content-Type", "application/xml")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	// One <response> for the collection itself, one per object.
	return strings.Count(b.String(), "<response>") - 1
}

func (s *Server) do(t testing.TB, method, path, contentType, body string) int {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, strings.TrimSuffix(s.URL, "/")+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(s.User, s.Password)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
