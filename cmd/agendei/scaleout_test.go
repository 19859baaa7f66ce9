package main

import (
	"bufio"
	"fmt"
	"mime"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/dbtest"
)

// TestScaleOut_ThreeProcessesOnePostgres runs three `agendei serve` processes
// on one PostgreSQL and one shared data dir (file store and mail outbox), as
// instances behind a load balancer. A booking load and racing bookings are
// spread over them while a tab listens on each: no overlap, every answered
// booking kept, every tab hears every change (no lost event), and each
// reminder and confirmation e-mail goes out exactly once.
func TestScaleOut_ThreeProcessesOnePostgres(t *testing.T) {
	url := dbtest.PostgresURL(t)
	dataDir := t.TempDir()
	loc, _ := time.LoadLocation("America/Sao_Paulo")

	// The racing bookings are all at slot T; the reminder lead is set so their
	// reminders fall due well after the bookings (45 s: starting three
	// processes and racing on a loaded 2-core machine took over 20 s), and the
	// test then waits for them.
	now := time.Now().In(loc)
	slot := now.Add(3 * time.Hour).Truncate(30 * time.Minute).Add(30 * time.Minute)
	if h := slot.Hour(); h < 6 || h >= 21 { // the shop opens 06:00–22:00
		day := slot
		if h >= 21 {
			day = slot.AddDate(0, 0, 1)
		}
		slot = time.Date(day.Year(), day.Month(), day.Day(), 6, 0, 0, 0, loc)
	}
	due := now.Add(45 * time.Second)
	lead := slot.Sub(due).Round(time.Second)
	procs := make([]*proc, 3)
	var wg sync.WaitGroup
	for i := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			procs[i] = startServeWith(t, url, dataDir, "--reminder-lead "+lead.String())
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow() // a process did not start (said above); nothing to race
	}
	base := func(i int) string { return procs[i%3].base }

	sh := openShop(t, base(0))
	const racers = 8
	var pros []string
	for i := range racers {
		code, pro := call(t, "POST", base(i)+"/api/professionals", sh.token, "", map[string]string{"name": fmt.Sprintf("Pro %d", i), "specialization": "Psicóloga"})
		if code != 201 {
			t.Fatalf("professional: %d %v", code, pro)
		}
		pros = append(pros, pro["id"].(string))
	}
	var before struct{ Unread int }
	getJSON(t, base(0)+"/api/notifications", sh.token, &before)

	// A tab on each process.
	var heard [3]atomic.Int64
	for i := range procs {
		events := stream(t, base(i), sh.token)
		if got := <-events; got != "ready" {
			t.Fatalf("first event %q", got)
		}
		go func() {
			for name := range events {
				if name == "notifications" {
					heard[i].Add(1)
				}
			}
		}()
	}

	// Load: fresh hours of the shop's first professional, spread over the three.
	load := &bookingLoad{}
	stop := make(chan struct{})
	loadDone := load.run(t, func(seq int) string { return base(seq) }, sh, 6, stop)

	// Races: six visitors per professional for slot T, two through each process.
	var won sync.Map
	var rw sync.WaitGroup
	for p, pro := range pros {
		for v := range 6 {
			rw.Add(1)
			go func() {
				defer rw.Done()
				code, out := call(t, "POST", base(v)+"/api/public/profiles/ana/bookings", "", fmt.Sprintf("10.7.%d.%d", p, v+1), map[string]string{
					"professionalId": pro, "serviceId": sh.service, "date": slot.Format("2006-01-02"), "time": slot.Format("15:04"),
					"clientName": "Cliente", "clientPhone": "11988887777", "clientEmail": fmt.Sprintf("cliente%d@example.com", p)})
				if code == 201 {
					if _, dup := won.LoadOrStore(pro, true); dup {
						t.Errorf("professional %d booked twice at %s", p, slot)
					}
				} else if code != 409 {
					t.Errorf("race booking: %d %v", code, out)
				}
			}()
		}
	}
	rw.Wait()
	for load.count("201 ") < 60 && time.Now().Before(due.Add(-3*time.Second)) {
		time.Sleep(10 * time.Millisecond)
	}
	close(stop)
	loadDone.Wait()
	if time.Now().After(due) {
		t.Fatal("the bookings took longer than the reminder lead allows; the reminders were not scheduled")
	}
	for p, pro := range pros {
		if _, ok := won.Load(pro); !ok {
			t.Errorf("professional %d: no racer won slot T", p)
		}
	}
	verifyBooked(t, base(1), sh, load.answered)

	// Reminders: one per race winner, each e-mailed once, whichever process ran it.
	reminders := func() map[string]int {
		return mailsBySubject(t, filepath.Join(dataDir, "outbox"), "Lembrete:")
	}
	deadline := due.Add(40 * time.Second)
	for len(reminders()) < racers && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(2 * time.Second) // a duplicate would show up by now
	got := reminders()
	if len(got) != racers {
		t.Errorf("reminders went to %d clients, want %d: %v", len(got), racers, got)
	}
	for to, n := range got {
		if n != 1 {
			t.Errorf("%s got %d reminders", to, n)
		}
	}
	for to, n := range mailsBySubject(t, filepath.Join(dataDir, "outbox"), "Agendamento confirmado:") {
		if strings.HasPrefix(to, "cliente") && n != 1 {
			t.Errorf("%s got %d confirmations", to, n)
		}
	}

	// Events: every notification created (bookings and reminders) reached the
	// tab on every process.
	var after struct{ Unread int }
	getJSON(t, base(2)+"/api/notifications", sh.token, &after)
	want := int64(after.Unread - before.Unread)
	if want != int64(len(load.answered)+racers+racers) {
		t.Errorf("%d notifications for %d bookings and %d reminders", want, len(load.answered)+racers, racers)
	}
	for i := range heard {
		end := time.Now().Add(10 * time.Second)
		for heard[i].Load() < want && time.Now().Before(end) {
			time.Sleep(50 * time.Millisecond)
		}
		if n := heard[i].Load(); n != want {
			t.Errorf("the tab on process %d heard %d of %d changes", i, n, want)
		}
	}
	t.Logf("3 processes: %d load bookings, %d races won, %d reminders, %d events per tab", len(load.answered), racers, len(got), want)
}

// mailsBySubject counts the outbox's messages whose subject starts with
// prefix, by recipient.
func mailsBySubject(t *testing.T, dir, prefix string) map[string]int {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	out := map[string]int{}
	dec := new(mime.WordDecoder)
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		m, err := mail.ReadMessage(bufio.NewReader(fh))
		if err == nil {
			subject, _ := dec.DecodeHeader(m.Header.Get("Subject"))
			if strings.HasPrefix(subject, prefix) {
				out[m.Header.Get("To")]++
			}
		}
		fh.Close()
	}
	return out
}
