package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
)

// `agendei demo` fills a practice a newcomer can look around in: a login
// printed, three professionals, six services, a lunch break, months of
// appointments and a few notifications; a second start keeps it; and it
// refuses a database that holds a real account.
func TestDemo_StartsAFullPracticeAndNeverTouchesARealOne(t *testing.T) {
	dir := t.TempDir()
	// serve's SMTP server in the environment: the demo does not read it.
	t.Setenv("AGENDEI_SMTP_URL", "smtp://127.0.0.1:1")
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
	// The health practice (issue 43): each professional with their council,
	// the owner attending as Dra. Carla Mendes with a signed prontuário of
	// one of her clients, and Rafael invited to sign in as himself.
	var team []struct{ Name, CouncilLabel string }
	get("/api/professionals", &team)
	var records struct{ Records []struct{ Client string } }
	get("/api/records/list", &records)
	var members struct{ Members []struct{ State string } }
	get("/api/members", &members)
	if len(team) != 3 || team[0].CouncilLabel == "" || len(records.Records) != 1 || records.Records[0].Client == "" || len(members.Members) != 1 || members.Members[0].State != "invited" {
		t.Fatalf("the demo's health practice: team %+v, records %+v, members %+v", team, records, members)
	}
	// Its reminders are real (issue 41): the appointments ahead were
	// written with the client told, so the reminders card counts them by
	// e-mail, by push for the phone-only clients whose browsers subscribed on
	// the public page, and names the phone-only clients nothing reaches.
	var reach struct {
		On                                 bool
		Total, Email, WhatsApp, Push, None int
		Unreached                          []struct{ ClientName, ClientPhone string }
	}
	get("/api/reminders/reach", &reach)
	pushOnly := reach.Total - reach.Email - reach.None // phone-only clients reached by push alone
	if !reach.On || reach.Total < 100 || reach.Email < reach.Total/2 || reach.Push == 0 || reach.None == 0 || reach.WhatsApp != 0 ||
		pushOnly <= 0 || pushOnly > reach.Push || len(reach.Unreached) != reach.None || reach.Unreached[0].ClientPhone == "" {
		t.Fatalf("the reminders card of the demo: %+v", reach)
	}
	// Its e-mails (the clients' confirmations) land in its outbox, not at
	// the environment's SMTP server.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if mails, _ := filepath.Glob(filepath.Join(dir, "outbox", "*.eml")); len(mails) >= 50 {
			break
		}
		if time.Now().After(deadline) {
			mails, _ := filepath.Glob(filepath.Join(dir, "outbox", "*.eml"))
			t.Fatalf("%d e-mails in the demo's outbox:\n%s", len(mails), p.logs)
		}
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

	// Served by mistake, the demo database warns at start and in the app;
	// the demo then refuses it, as a database serve has used.
	s := startServe(t, "", dir)
	if !strings.Contains(s.logs.String(), "BANCO DE DEMONSTRAÇÃO") {
		t.Fatalf("serve on the demo database does not warn:\n%s", s.logs)
	}
	var cfg struct{ Demo bool }
	if res, err := http.Get(s.base + "/api/config"); err != nil || json.NewDecoder(res.Body).Decode(&cfg) != nil || !cfg.Demo {
		t.Fatalf("config of the demo database: %v %+v", err, cfg)
	}
	s.terminate(t)
	if out, err := demoOnce(t, "--data-dir "+dir); err == nil || !strings.Contains(out, "já foi usado pelo agendei serve") {
		t.Fatalf("demo on a served demo database: %v\n%s", err, out)
	}

	// A real practice's folder: refused, untouched.
	realDir := t.TempDir()
	s = startServe(t, "", realDir)
	if strings.Contains(s.logs.String(), "BANCO DE DEMONSTRAÇÃO") {
		t.Fatalf("serve on a real database warns of a demo:\n%s", s.logs)
	}
	body, _ := json.Marshal(map[string]string{"name": "Dona Real", "email": "dona.real@example.com", "password": "segredo1", "recoveryKeyword": "gato"})
	req, _ := http.NewRequest("POST", s.base+"/api/auth/signup", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Agendei-Client", "test")
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 201 {
		t.Fatalf("signup: %v %v", err, res)
	}
	s.terminate(t)
	if out, err := demoOnce(t, "--data-dir "+realDir); err == nil || !strings.Contains(out, "já foi usado pelo agendei serve") {
		t.Fatalf("demo on a real database: %v\n%s", err, out)
	}
}

// The environment names the production database (the Docker image sets
// AGENDEI_DATA_DIR=/data): the demo ignores it and runs on ./demo-data,
// which here serve has used, so the demo stops there and touches neither.
func TestDemo_RunsOnItsOwnFolderWhateverTheEnvironmentSays(t *testing.T) {
	cwd, production := t.TempDir(), t.TempDir()
	startServe(t, "", filepath.Join(cwd, "demo-data")).terminate(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), "AGENDEI_TEST_MAIN=demo --addr 127.0.0.1:0 --log-level warn",
		"AGENDEI_DATA_DIR="+production, "DATABASE_URL=postgres://nobody@127.0.0.1:1/production")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "já foi usado pelo agendei serve") {
		t.Fatalf("demo with the production database in the environment: %v\n%s", err, out)
	}
	if left, _ := os.ReadDir(production); len(left) > 0 {
		t.Fatalf("the demo wrote to AGENDEI_DATA_DIR: %v", left)
	}
}

// A database that holds accounts from before serve marked what it served:
// the demo refuses it all the same, and leaves it unmarked (serve would
// otherwise take it for a demo).
func TestDemo_RefusesADatabaseWithOtherAccounts(t *testing.T) {
	dir := t.TempDir()
	d, err := db.Open(context.Background(), dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Migrate(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	if _, err := d.ExecContext(context.Background(), `INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES ('u1', 'dona.real@example.com', 'x', ?, ?)`, now, now); err != nil {
		t.Fatal(err)
	}
	if out, err := demoOnce(t, "--data-dir "+dir); err == nil || !strings.Contains(out, "não são da demonstração") {
		t.Fatalf("demo on a database with a real account: %v\n%s", err, out)
	}
	var marks int
	if err := d.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM database_marks`).Scan(&marks); err != nil || marks != 0 {
		t.Fatalf("the refused database was marked: %d %v", marks, err)
	}
}

// demoOnce runs `agendei demo` with args until it exits, for the runs that
// must refuse to start.
func demoOnce(t *testing.T, args string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "AGENDEI_TEST_MAIN=demo --addr 127.0.0.1:0 --log-level warn "+args)
	out, err := cmd.CombinedOutput()
	return string(out), err
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

// The demo's help says where it keeps its database — its own folder — and
// names neither the variables nor the folder of serve's, which it ignores
// (issue 38, §3); serve's help still names them.
func TestDemo_HelpNamesItsOwnFolderNotServes(t *testing.T) {
	help := func(command string) string {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "AGENDEI_TEST_MAIN="+command+" --help")
		out, _ := cmd.CombinedOutput() // --help ends with an error status, as flag's does
		return string(out)
	}
	demo := help("demo")
	if !strings.Contains(demo, `(default "./demo-data")`) || strings.Contains(demo, "AGENDEI_DATA_DIR") || strings.Contains(demo, "DATABASE_URL") ||
		strings.Contains(demo, `"./data"`) {
		t.Fatalf("agendei demo --help:\n%s", demo)
	}
	if serve := help("serve"); !strings.Contains(serve, "AGENDEI_DATA_DIR") || !strings.Contains(serve, `(default "./data")`) {
		t.Fatalf("agendei serve --help:\n%s", serve)
	}
}
