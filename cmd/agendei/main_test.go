package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
)

// TestMain lets a test start this very binary as `agendei …`: with
// AGENDEI_TEST_MAIN set, the test binary runs main() with those arguments.
func TestMain(m *testing.M) {
	if args := os.Getenv("AGENDEI_TEST_MAIN"); args != "" {
		os.Args = append([]string{"agendei"}, strings.Fields(args)...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type proc struct {
	cmd  *exec.Cmd
	base string
	logs *syncBuffer
}

// syncBuffer is a process's output, readable while the process writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// terminate sends SIGTERM and waits for a clean exit (status 0) within 25 s.
func (p *proc) terminate(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", err, p.logs)
		}
	case <-time.After(25 * time.Second):
		t.Fatal("did not stop after SIGTERM")
	}
}

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startServe starts `agendei serve` as its own process on the given database.
func startServe(t *testing.T, databaseURL, dataDir string) *proc {
	t.Helper()
	return startServeWith(t, databaseURL, dataDir, "")
}

// startServeWith is startServe with extra command-line settings.
func startServeWith(t *testing.T, databaseURL, dataDir, extra string) *proc {
	t.Helper()
	port := freePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	args := fmt.Sprintf("serve --addr 127.0.0.1:%d --data-dir %s --base-url %s --trust-proxy --log-level warn", port, dataDir, base)
	if databaseURL != "" {
		args += " --database-url " + databaseURL
	}
	if extra != "" {
		args += " " + extra
	}
	return startAgendei(t, args, base, 30*time.Second)
}

// startAgendei runs the agendei command (this test binary, as main) with
// args, and waits up to wait for it to answer /readyz at base.
func startAgendei(t *testing.T, args, base string, wait time.Duration) *proc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "AGENDEI_TEST_MAIN="+args, "AGENDEI_SECRET=shared-secret-for-both-processes-0123456789")
	logs := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, base: base, logs: logs}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_, _ = cmd.Process.Wait()
	})
	for deadline := time.Now().Add(wait); ; time.Sleep(100 * time.Millisecond) {
		if r, err := http.Get(base + "/readyz"); err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("agendei did not become ready:\n%s", logs.String())
		}
	}
}

func call(t *testing.T, method, url, token, ip string, body any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Agendei-Client", "test")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if ip != "" {
		req.Header.Set("X-Forwarded-For", ip)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", method, url, err)
		return 0, nil
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

// stream opens the owner's event stream and returns the event names.
func stream(t *testing.T, base, token string) <-chan string {
	req, _ := http.NewRequest("GET", base+"/api/events", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("stream: %v %v", err, res)
	}
	out := make(chan string, 8)
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				out <- name
			}
		}
	}()
	return out
}

// TestServe_TwoProcessesOnOneDatabaseBookASlotOnce runs two real `agendei
// serve` processes on one database (each engine) and races 50 bookings for
// one slot across them: exactly one wins. Then SIGTERM stops each cleanly.
func TestServe_TwoProcessesOnOneDatabaseBookASlotOnce(t *testing.T) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			dataDir := t.TempDir()
			url := ""
			if dialect == db.Postgres {
				url = dbtest.PostgresURL(t)
			}
			a := startServe(t, url, dataDir)
			b := startServe(t, url, dataDir) // SQLite: both on the same file; PostgreSQL: same schema

			code, s := call(t, "POST", a.base+"/api/auth/signup", "", "", map[string]string{"name": "Ana", "email": "ana@example.com", "password": "segredo1", "recoveryKeyword": "gato"})
			if code != 201 {
				t.Fatalf("signup: %d %v", code, s)
			}
			token := s["accessToken"].(string)
			var days []map[string]any
			for d := range 7 {
				days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "08:00", "end": "20:00"})
			}
			if code, out := call(t, "POST", b.base+"/api/onboarding", token, "", map[string]any{"name": "Ana", "area": "Psi", "publicUsername": "ana",
				"services": []map[string]any{{"name": "Sessão", "duration": 60, "priceCents": 10000}}, "days": days}); code != 200 {
				t.Fatalf("onboarding through the other process: %d %v", code, out)
			}
			_, pro := call(t, "POST", a.base+"/api/professionals", token, "", map[string]string{"name": "Ana", "specialization": "Psicóloga"})
			req, _ := http.NewRequest("GET", a.base+"/api/services", nil)
			req.Header.Set("Authorization", "Bearer "+token)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var svcs []map[string]any
			_ = json.NewDecoder(res.Body).Decode(&svcs)
			res.Body.Close()

			loc, _ := time.LoadLocation("America/Sao_Paulo")
			date := time.Now().In(loc).AddDate(0, 0, 2).Format("2006-01-02")
			booking := map[string]string{"professionalId": pro["id"].(string), "serviceId": svcs[0]["id"].(string), "date": date, "time": "10:00",
				"clientName": "Cliente", "clientPhone": "11988887777"}
			var wg sync.WaitGroup
			var mu sync.Mutex
			codes := map[int]int{}
			for i := range 50 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					target := []*proc{a, b}[i%2]
					code, _ := call(t, "POST", target.base+"/api/public/profiles/ana/bookings", "", fmt.Sprintf("10.2.%d.%d", i/100, i%100+1), booking)
					mu.Lock()
					codes[code]++
					mu.Unlock()
				}()
			}
			wg.Wait()
			if codes[201] != 1 || codes[409] != 49 {
				t.Fatalf("outcomes %v: want exactly one 201 and 49 409s\nA:\n%s\nB:\n%s", codes, a.logs, b.logs)
			}

			// Live events: a tab connected to process B hears a booking made through A
			// (PostgreSQL LISTEN/NOTIFY; with SQLite, Agendei is one process).
			if dialect == db.Postgres {
				events := stream(t, b.base, token)
				if got := <-events; got != "ready" {
					t.Fatalf("first event %q", got)
				}
				booking["time"] = "15:00"
				if code, out := call(t, "POST", a.base+"/api/public/profiles/ana/bookings", "", "10.9.0.1", booking); code != 201 {
					t.Fatalf("booking through A: %d %v", code, out)
				}
				select {
				case got := <-events:
					if got != "notifications" {
						t.Fatalf("event %q", got)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("the tab on B never heard of the booking made through A")
				}
			}

			// Graceful shutdown: SIGTERM finishes and exits 0 (open streams end too).
			for _, p := range []*proc{a, b} {
				p.terminate(t)
			}
			if _, err := os.Stat(filepath.Join(dataDir, "secret.key")); err == nil {
				t.Fatal("with AGENDEI_SECRET set, no key file is generated")
			}
		})
	}
}

// TestBackup_CopiesTheLiveDatabaseAndTheCopyRestores writes through a
// running server, backs up with `agendei backup` while it runs, restores the
// copy into a new data dir and finds the account there.
func TestBackup_CopiesTheLiveDatabaseAndTheCopyRestores(t *testing.T) {
	dataDir := t.TempDir()
	a := startServe(t, "", dataDir)
	if code, out := call(t, "POST", a.base+"/api/auth/signup", "", "", map[string]string{"name": "Ana", "email": "ana@example.com", "password": "segredo1", "recoveryKeyword": "gato"}); code != 201 {
		t.Fatalf("signup: %d %v", code, out)
	}
	copyPath := filepath.Join(t.TempDir(), "copia.db")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "AGENDEI_TEST_MAIN=backup --data-dir "+dataDir+" "+copyPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	again := exec.Command(os.Args[0], "-test.run=^$")
	again.Env = append(os.Environ(), "AGENDEI_TEST_MAIN=backup --data-dir "+dataDir+" "+copyPath)
	if err := again.Run(); err == nil {
		t.Fatal("a backup must not overwrite an existing file")
	}
	// Restore: the copy becomes the database of a new data dir.
	restored := t.TempDir()
	data, err := os.ReadFile(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(restored, "agendei.db"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	b := startServe(t, "", restored)
	if code, _ := call(t, "POST", b.base+"/api/auth/login", "", "", map[string]string{"email": "ana@example.com", "password": "segredo1"}); code != 200 {
		t.Fatalf("login on the restored copy: %d", code)
	}
}
