package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// `agendei demo` fills a practice a newcomer can look around in: a login
// printed, three professionals, six services, a lunch break, months of
// appointments and a few notifications; a second start keeps it; and it
// refuses a database that holds a real account.
func TestDemo_StartsAFullPracticeAndNeverTouchesARealOne(t *testing.T) {
	dir := t.TempDir()
	p := startDemo(t, dir)
	if !strings.Contains(p.logs.String(), "demo@agendei.app") || !strings.Contains(p.logs.String(), "demo-agendei") {
		t.Fatalf("the login is printed:\n%s", p.logs)
	}
	token := login(t, p.base, "demo@agendei.app", "demo-agendei")
	get := func(path string, out any) {
		t.Helper()
		req, _ := http.NewRequest("GET", p.base+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("%s: %v %v", path, err, res)
		}
		defer res.Body.Close()
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
	var pros, services []struct{ ID string }
	get("/api/professionals", &pros)
	get("/api/services", &services)
	var week struct {
		Days []struct {
			DayOfWeek int
			Windows   []struct{ Start, End string }
		}
	}
	get("/api/availability", &week)
	var dash struct {
		Metrics struct{ Total, UniqueClients int }
	}
	get("/api/dashboard", &dash)
	var notes struct{ Notifications []struct{ Title string } }
	get("/api/notifications", &notes)
	if len(pros) != 3 || len(services) != 6 || len(week.Days) != 7 || len(week.Days[1].Windows) != 2 || dash.Metrics.Total < 50 || dash.Metrics.UniqueClients < 10 ||
		len(notes.Notifications) == 0 || len(notes.Notifications) > 12 {
		t.Fatalf("demo practice: %d pros, %d services, monday %+v, %+v, %d notifications", len(pros), len(services), week.Days[1], dash.Metrics, len(notes.Notifications))
	}
	p.terminate(t)

	// Started again, it keeps what it has.
	p = startDemo(t, dir)
	token = login(t, p.base, "demo@agendei.app", "demo-agendei")
	var again struct{ Metrics struct{ Total int } }
	get("/api/dashboard", &again)
	if again.Metrics.Total != dash.Metrics.Total {
		t.Fatalf("a second start changed the demo: %d, then %d", dash.Metrics.Total, again.Metrics.Total)
	}
	p.terminate(t)

	// A real practice's folder: refused, untouched.
	realDir := t.TempDir()
	s := startServe(t, "", realDir)
	body, _ := json.Marshal(map[string]string{"name": "Dona Real", "email": "dona.real@example.com", "password": "segredo1", "recoveryKeyword": "gato"})
	req, _ := http.NewRequest("POST", s.base+"/api/auth/signup", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Agendei-Client", "test")
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 201 {
		t.Fatalf("signup: %v %v", err, res)
	}
	s.terminate(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "AGENDEI_TEST_MAIN=demo --addr 127.0.0.1:0 --data-dir "+realDir+" --log-level warn")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "não são da demonstração") {
		t.Fatalf("demo on a real database: %v\n%s", err, out)
	}
}

func startDemo(t *testing.T, dir string) *proc {
	t.Helper()
	port := freePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	return startAgendei(t, fmt.Sprintf("demo --addr 127.0.0.1:%d --data-dir %s --base-url %s --log-level warn", port, dir, base), base, 120*time.Second)
}

func login(t *testing.T, base, email, password string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	req, _ := http.NewRequest("POST", base+"/api/auth/login", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Agendei-Client", "test")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var s struct{ AccessToken string }
	if err := json.NewDecoder(res.Body).Decode(&s); err != nil || s.AccessToken == "" {
		t.Fatalf("login: %d %v", res.StatusCode, err)
	}
	return s.AccessToken
}
