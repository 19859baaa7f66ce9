package main

// The reminders row (issues 28 and 41): 10,000 reminders due in the same
// minute across the bench's 1,000 owners, ten each — one owner in five
// with their own WhatsApp number connected to the fake Graph API
// (internal/whatsapp/graphtest), one in five with the Agendei number (the
// operator's, on the same fake) switched on, one in five whose clients each
// have a browser subscribed to web push (internal/push/pushtest, which
// decrypts each message), the others by e-mail — sent through the outbox
// (the job queue) by real `agendei serve` processes to this process's SMTP
// server (internal/mail/smtptest) and fakes. It reports the time from the
// reminders' due instant until every client has had theirs, and counts, at
// the fakes, the reminders each client received: duplicates (a client
// reminded twice, by one channel or by both of e-mail and WhatsApp, or
// pushed twice) and lost (never reminded, or a subscribed client never
// pushed). On PostgreSQL two instances share the work on one database,
// and a second batch is run with the first instance SIGKILLed mid-run: the
// second must finish it, with none lost and none twice.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"log/slog"
	"mime"
	netmail "net/mail"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/benchseed"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/mail/smtptest"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/push"
	"github.com/agendei/agendei/internal/push/pushtest"
	"github.com/agendei/agendei/internal/whatsapp"
	"github.com/agendei/agendei/internal/whatsapp/graphtest"
)

const (
	remindersPerOwner = 10
	// One owner in whatsAppEvery has their own WhatsApp number connected
	// (i % whatsAppEvery == 0), the next the Agendei number switched on
	// (== 1), the next their clients' browsers subscribed to push (== 2).
	whatsAppEvery = 5
	remindersWait = 3 * time.Minute // a pass gives up after this
	killAt        = 0.3             // the kill pass SIGKILLs the first instance once this share is delivered
)

// tally counts the reminders the fakes received, per client.
type tally struct {
	mu     sync.Mutex
	email  map[string]int // reminder e-mails per recipient address
	msgIDs map[string]int // per Message-ID
}

func (t *tally) received(m smtptest.Message) {
	msg, err := netmail.ReadMessage(strings.NewReader(m.Data))
	if err != nil {
		return
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil || !strings.HasPrefix(subject, "Lembrete:") {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, to := range m.To {
		t.email[strings.ToLower(to)]++
	}
	t.msgIDs[msg.Header.Get("Message-Id")]++
}

// client is one reminded client of a pass; endpoint is its browser's
// push endpoint ("" when it has none).
type client struct{ email, phone, endpoint string }

// counts is what the fakes received of a pass's reminders.
type counts struct {
	reached, duplicates, both, byWhatsApp, byOperator, sameMessageID int
	pushed, pushDuplicates                                           int
}

func (t *tally) count(fake *graphtest.Fake, pushed *pushtest.Service, operatorPhoneID string, clients []client) counts {
	wa, fromOperator := map[string]int{}, map[string]int{}
	var c counts
	for _, m := range fake.Messages() {
		if m.Template == whatsapp.ReminderTemplate().Name || m.Template == whatsapp.OperatorTemplateFor(whatsapp.KindReminder).Name {
			wa[m.To]++
			if m.PhoneNumberID == operatorPhoneID {
				fromOperator[m.To]++
			}
		}
	}
	push := map[string]int{}
	for _, m := range pushed.Messages() {
		var n struct{ Title string }
		if json.Unmarshal(m.Plaintext, &n) == nil && strings.HasPrefix(n.Title, "Lembrete:") {
			push[m.Endpoint]++
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, cl := range clients {
		if cl.endpoint != "" {
			if p := push[cl.endpoint]; p > 0 {
				c.pushed++
				c.pushDuplicates += p - 1
			}
		}
		e, w := t.email[cl.email], wa[cl.phone]
		if e+w > 0 {
			c.reached++
		}
		if e+w > 1 {
			c.duplicates += e + w - 1
		}
		if e > 0 && w > 0 {
			c.both++
		}
		if w > 0 {
			c.byWhatsApp++
		}
		if fromOperator[cl.phone] > 0 { // this pass's clients only: the fake keeps every pass's messages
			c.byOperator++
		}
	}
	for _, n := range t.msgIDs {
		if n > 1 {
			c.sameMessageID += n - 1
		}
	}
	return c
}

// remindersBench runs the row on the bench's database (srv's data dir and
// database, its owners already signed up), with srv stopped meanwhile.
func remindersBench(engine string, srv *server, all []owner, now time.Time) {
	smtpSrv, stopSMTP, err := smtptest.Listen()
	must(err)
	defer stopSMTP()
	t := &tally{email: map[string]int{}, msgIDs: map[string]int{}}
	smtpSrv.OnMessage = t.received
	fake := graphtest.New()
	defer fake.Close()
	op := operatorAccount(fake)
	pushed := pushtest.Start(benchReporter{})
	defer pushed.Close()
	// The agendei processes trust the fake push service's certificate (it
	// talks to no other https server here).
	ca := filepath.Join(srv.dir, "push-service.pem")
	must(os.WriteFile(ca, pushed.CertPEM(), 0o600))
	vapid, err := config.NewVAPIDKey()
	must(err)
	vapidPublic, err := push.PublicKey(vapid)
	must(err)
	env := []string{"AGENDEI_SMTP_URL=smtp://" + smtpSrv.Addr, "AGENDEI_WHATSAPP_GRAPH_URL=" + fake.URL(),
		"SSL_CERT_FILE=" + ca, "AGENDEI_VAPID_PRIVATE_KEY=" + vapid, "AGENDEI_PUSH_HOSTS=" + pushed.Host(),
		"AGENDEI_WHATSAPP_OPERATOR_WABA_ID=" + op.WABAID, "AGENDEI_WHATSAPP_OPERATOR_PHONE_NUMBER_ID=" + op.PhoneNumberID,
		"AGENDEI_WHATSAPP_OPERATOR_TOKEN=" + op.Token, "AGENDEI_WHATSAPP_OPERATOR_APP_SECRET=" + op.AppSecret,
		"AGENDEI_WHATSAPP_OPERATOR_VERIFY_TOKEN=bench-verify", "AGENDEI_WHATSAPP_OPERATOR_ALLOWANCE=1000"}
	_ = srv.cmd.Process.Kill()
	_, _ = srv.cmd.Process.Wait()
	first := &server{dir: srv.dir, dsn: srv.dsn, env: env}
	first.launch("")
	instances := []*server{first}
	if engine == "postgres" {
		second := &server{dir: srv.dir, dsn: srv.dsn, env: env}
		second.launch("")
		instances = append(instances, second)
	}
	defer func() {
		for _, s := range instances {
			_ = s.cmd.Process.Kill()
			_, _ = s.cmd.Process.Wait()
		}
	}()
	connected, operated := connectWhatsApp(first.base, fake, all)
	d, err := db.Open(context.Background(), srv.dir, srv.dsn)
	must(err)
	defer d.Close()
	fmt.Printf("\nreminders (%s): %d owners × %d, %d of them with their own WhatsApp number, %d with the Agendei number, %d with their clients' browsers subscribed to push; %d instance(s); load %s\n",
		engine, len(all), remindersPerOwner, connected, operated, len(all)/whatsAppEvery, len(instances), loadAverage())
	f := fakes{graph: fake, push: pushed, operatorPhoneID: op.PhoneNumberID, vapidPublic: vapidPublic}
	remindersPass(engine, 1, d, t, f, all, now.AddDate(0, 0, 60), instances, false)
	if engine == "postgres" {
		remindersPass(engine, 2, d, t, f, all, now.AddDate(0, 0, 61), instances, true)
	}
	if r := pushed.Refusals(); len(r) > 0 {
		check(fmt.Sprintf("reminders: messages the fake push service refused: %d (first: %s)", len(r), r[0]), false)
	}
	if p := fake.Problems(); len(p) > 0 {
		check(fmt.Sprintf("reminders: requests the fake Graph API refused as misshapen: %d (first: %s)", len(p), p[0]), false)
	}
}

// fakes are the outside services a pass counts at.
type fakes struct {
	graph                        *graphtest.Fake
	push                         *pushtest.Service
	operatorPhoneID, vapidPublic string
}

// benchReporter stops the bench when the fake push service is misused.
type benchReporter struct{}

func (benchReporter) Helper()                           {}
func (benchReporter) Fatal(args ...any)                 { log.Fatal(args...) }
func (benchReporter) Fatalf(format string, args ...any) { log.Fatalf(format, args...) }

// operatorAccount is the operator's WhatsApp number on the fake, its
// templates created and approved (as the background refresh will find them).
func operatorAccount(fake *graphtest.Fake) graphtest.Account {
	op := fake.AddAccount(graphtest.Account{VerifiedName: "Agendei", DisplayPhoneNumber: "+55 11 4000-1234"})
	graph := whatsapp.NewGraph(fake.URL())
	for _, kind := range whatsapp.Kinds {
		tpl := whatsapp.OperatorTemplateFor(kind)
		if _, err := graph.CreateTemplate(context.Background(), op.Token, op.WABAID, tpl); err != nil {
			log.Fatalf("reminders: the operator's template at the fake: %v", err)
		}
		fake.SetTemplateStatus(op.WABAID, tpl.Name, "APPROVED")
	}
	return op
}

// connectWhatsApp connects one owner in whatsAppEvery to a business on the
// fake, whose templates were approved earlier (created in the account and
// approved by Meta's review), so the connection finds them APPROVED; the
// next owner in each whatsAppEvery turns the Agendei number on.
func connectWhatsApp(base string, fake *graphtest.Fake, all []owner) (own, operated int) {
	graph := whatsapp.NewGraph(fake.URL())
	ctx := context.Background()
	type task struct {
		owner
		operator bool
	}
	work := make(chan task)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for o := range work {
				if o.operator {
					var s struct{ AccessToken string }
					if code := call(base, "POST", "/api/auth/login", "", map[string]string{"email": o.username + "@example.com", "password": "segredo-bench-1"}, &s); code != 200 {
						log.Fatalf("reminders: login %s: %d", o.username, code)
					}
					if code := call(base, "PUT", "/api/whatsapp/operator", s.AccessToken, map[string]bool{"enabled": true}, nil); code != 200 {
						log.Fatalf("reminders: the Agendei number for %s: %d", o.username, code)
					}
					mu.Lock()
					operated++
					mu.Unlock()
					continue
				}
				biz := fake.AddAccount(graphtest.Account{VerifiedName: "Clínica " + o.username})
				for _, kind := range whatsapp.Kinds {
					tpl := whatsapp.TemplateFor(kind)
					if _, err := graph.CreateTemplate(ctx, biz.Token, biz.WABAID, tpl); err != nil {
						log.Fatalf("reminders: template at the fake: %v", err)
					}
					fake.SetTemplateStatus(biz.WABAID, tpl.Name, "APPROVED")
				}
				var s struct{ AccessToken string }
				if code := call(base, "POST", "/api/auth/login", "", map[string]string{"email": o.username + "@example.com", "password": "segredo-bench-1"}, &s); code != 200 {
					log.Fatalf("reminders: login %s: %d", o.username, code)
				}
				var st whatsapp.Status
				if code := call(base, "PUT", "/api/whatsapp", s.AccessToken, map[string]string{"wabaId": biz.WABAID, "phoneNumberId": biz.PhoneNumberID,
					"accessToken": biz.Token, "appSecret": biz.AppSecret}, &st); code != 200 {
					log.Fatalf("reminders: connect %s: %d", o.username, code)
				}
				for _, tpl := range st.Templates {
					if tpl.Status != "APPROVED" {
						log.Fatalf("reminders: %s's template %s is %s", o.username, tpl.Name, tpl.Status)
					}
				}
				mu.Lock()
				own++
				mu.Unlock()
			}
		}()
	}
	for i, o := range all {
		switch i % whatsAppEvery {
		case 0:
			work <- task{owner: o}
		case 1:
			work <- task{owner: o, operator: true}
		}
	}
	close(work)
	wg.Wait()
	return own, operated
}

// remindersPass seeds a batch of reminders on day, makes them all due at
// one instant, and waits until every client has had theirs (or
// remindersWait); kill SIGKILLs the first instance once killAt of them went.
func remindersPass(engine string, pass int, d *db.DB, t *tally, f fakes, all []owner, day time.Time, instances []*server, kill bool) {
	ctx := context.Background()
	q := jobs.New(d, clock.Real{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	// Seeded due far ahead, then made due at once by one UPDATE: the whole
	// batch comes due at the same instant, however long the seeding took.
	parked := time.Date(2100, 1, 1, 0, 0, 0, pass, time.UTC)
	var clients []client
	seedStart := time.Now()
	const perTx = 50
	for from := 0; from < len(all); from += perTx {
		must(d.InTx(ctx, func(tx *db.Tx) error {
			for i := from; i < min(from+perTx, len(all)); i++ {
				o := all[i]
				for k := range remindersPerOwner {
					n := (pass*len(all)+i)*remindersPerOwner + k
					phone := fmt.Sprintf("119%08d", n)
					c := client{email: fmt.Sprintf("lembrete%d@example.com", n), phone: whatsapp.Recipient(phone)}
					id, err := benchseed.DueReminder(ctx, tx, q, o.id, benchseed.Due{Pro: o.pros[0], Svc: o.svcs[0], Day: day,
						At: fmt.Sprintf("%02d:00", 8+k), Client: fmt.Sprintf("Cliente %d", n), Email: c.email, Phone: phone}, parked)
					if err != nil {
						return err
					}
					if i%whatsAppEvery == 2 { // the client's browser, subscribed as the button does
						b := f.push.Subscribe(f.vapidPublic)
						p256dh, auth := b.Keys()
						if _, err := tx.ExecContext(ctx, `INSERT INTO push_subscriptions (id, user_id, client_key, appointment_id, endpoint, p256dh, auth, created_at)
							VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, uuid.NewString(), o.id, booking.ClientKey(phone, c.email), id, b.Endpoint, p256dh, auth, time.Now().UTC()); err != nil {
							return err
						}
						c.endpoint = b.Endpoint
					}
					clients = append(clients, c)
				}
			}
			return nil
		}))
	}
	seeded := time.Since(seedStart)
	due := time.Now()
	res, err := d.ExecContext(ctx, `UPDATE jobs SET run_at = ? WHERE kind = 'booking.reminder' AND run_at = ? AND done_at IS NULL`, due.UTC(), parked)
	must(err)
	if n, _ := res.RowsAffected(); int(n) != len(clients) {
		log.Fatalf("reminders: %d of %d reminders made due", n, len(clients))
	}
	label := fmt.Sprintf("%d instance(s)", len(instances))
	if kill {
		label += ", the first SIGKILLed at " + fmt.Sprintf("%.0f%%", 100*killAt)
	}
	killed := time.Duration(0)
	subscribed := 0
	for _, cl := range clients {
		if cl.endpoint != "" {
			subscribed++
		}
	}
	var c counts
	for deadline := due.Add(remindersWait); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		c = t.count(f.graph, f.push, f.operatorPhoneID, clients)
		if kill && killed == 0 && float64(c.reached) >= killAt*float64(len(clients)) {
			must(instances[0].cmd.Process.Signal(syscall.SIGKILL))
			_, _ = instances[0].cmd.Process.Wait()
			killed = time.Since(due)
			fmt.Printf("  pass %d: SIGKILLed the first instance (pid %d) at %.1f s, %d of %d reminded\n", pass, instances[0].cmd.Process.Pid, killed.Seconds(), c.reached, len(clients))
		}
		if c.reached == len(clients) && c.pushed == subscribed {
			break
		}
	}
	took := time.Since(due)
	// Whatever is still queued (a retry, a late duplicate) has its say
	// before the counts are final.
	for end := time.Now().Add(remindersWait); time.Now().Before(end) && pendingSends(d, day) > 0; time.Sleep(200 * time.Millisecond) {
	}
	c = t.count(f.graph, f.push, f.operatorPhoneID, clients)
	lost := len(clients) - c.reached + subscribed - c.pushed
	duplicates := c.duplicates + c.pushDuplicates
	var retaken, unknown int
	pass1 := []any{day.Format("2006-01-02")}
	must(d.QueryRowContext(ctx, `SELECT COUNT(*) FROM jobs WHERE attempts > 1 AND appointment_id IN (SELECT id FROM appointments WHERE appointment_date = ?)`, pass1...).Scan(&retaken))
	must(d.QueryRowContext(ctx, `SELECT COUNT(*) FROM whatsapp_messages WHERE state = 'unknown' AND appointment_id IN (SELECT id FROM appointments WHERE appointment_date = ?)`, pass1...).Scan(&unknown))
	fmt.Printf("  pass %d (%s): %d reminders (%d by WhatsApp — %d of them from the Agendei number —, %d by e-mail; %d of %d subscribed browsers pushed too) seeded in %.1f s; all sent %.1f s after they came due (%.0f/s); duplicates %d (both channels %d, e-mails repeating a Message-ID %d, pushes %d); lost %d; jobs run more than once %d, WhatsApp messages of unknown outcome e-mailed instead %d\n",
		pass, label, len(clients), c.byWhatsApp, c.byOperator, c.reached-c.byWhatsApp, c.pushed, subscribed, seeded.Seconds(), took.Seconds(), float64(c.reached)/took.Seconds(),
		duplicates, c.both, c.sameMessageID, c.pushDuplicates, lost, retaken, unknown)
	what := fmt.Sprintf("reminders (%s, %s): %d due in the same minute all sent in %.1f s (≤ 60 s) over e-mail, WhatsApp (owners' and Agendei numbers) and push, 0 duplicates (%d), 0 lost (%d)",
		engine, label, len(clients), took.Seconds(), duplicates, lost)
	if kill {
		// The killed instance's leased jobs wait out their lease (jobs.Lease)
		// before the second takes them: the time is reported, the target is
		// none lost and none twice.
		what = fmt.Sprintf("reminders (%s, %s): the second instance finished all %d in %.1f s, 0 duplicates (%d), 0 lost (%d)", engine, label, len(clients), took.Seconds(), duplicates, lost)
		check(what, duplicates == 0 && lost == 0 && killed > 0)
		return
	}
	check(what, took <= time.Minute && duplicates == 0 && lost == 0 && c.byOperator > 0)
}

// pendingSends counts the reminder and send jobs of the pass's
// appointments (those on day) still to run.
func pendingSends(d *db.DB, day time.Time) int {
	var n int
	must(d.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM jobs WHERE done_at IS NULL AND attempts < max_attempts
		AND kind IN ('booking.reminder', 'mail.send', 'whatsapp.send', 'push.send')
		AND appointment_id IN (SELECT id FROM appointments WHERE appointment_date = ?)`, day.Format("2006-01-02")).Scan(&n))
	return n
}
