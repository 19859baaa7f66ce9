package main

import (
	"bytes"
	"context"
	"crypto/ecdh"
	crand "crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/tz"
	"github.com/agendei/agendei/internal/push"
	"github.com/agendei/agendei/internal/server"
)

// The demo practice's login, printed when it starts.
const (
	demoEmail    = "demo@agendei.app"
	demoPassword = "demo-agendei"
	demoDataDir  = "demo-data"
)

// demo serves a full demo practice: three professionals with their
// councils, six services, hours with a lunch break, three months of
// appointments around today with Brazilian names, blocks and notifications,
// the owner attending as one of the team with a signed prontuário, and a
// professional invited to sign in. Its account's password is
// public, so it runs on its own database: ./demo-data unless the command
// line says another (--data-dir, --database-url). The environment does not
// redirect it: AGENDEI_DATA_DIR and DATABASE_URL name the production
// database (the Docker image sets /data). It marks its database as a demo,
// refuses one that serve has used or that holds any other account, so a
// real practice's data is never mixed with the demo's. Nothing it sends
// leaves the machine: its e-mails land in <data dir>/outbox (the
// environment's SMTP server is not read either; --smtp-url asks for one) and
// its push notifications at a sink in the process (demoPush).
func demo(ctx context.Context, args []string) error {
	if !hasFlag(args, "data-dir") {
		args = append([]string{"--data-dir", demoDataDir}, args...)
	}
	getenv := func(key string) string {
		if key == "AGENDEI_DATA_DIR" || key == "DATABASE_URL" || key == "AGENDEI_SMTP_URL" {
			return ""
		}
		return os.Getenv(key)
	}
	return run(ctx, "agendei demo", args, getenv, markDemo, func(ctx context.Context, cfg *config.Config, d *db.DB, srv *server.Server) error {
		demoPush(srv.Push)
		var mine int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE email = ?`, demoEmail).Scan(&mine); err != nil {
			return err
		}
		if mine == 0 {
			if err := seedDemo(ctx, srv.Handler); err != nil {
				return fmt.Errorf("demo: %w", err)
			}
			// The bell shows the latest dozen, as a practice that reads them would.
			if _, err := d.ExecContext(ctx, `DELETE FROM notifications WHERE id NOT IN (SELECT id FROM notifications ORDER BY created_at DESC LIMIT 12)`); err != nil {
				return err
			}
		}
		fmt.Printf("\nDemonstração pronta em %s\n  e-mail: %s\n  senha:  %s\n  página pública: %s/agende/bemviver-demo\n\n", cfg.BaseURL, demoEmail, demoPassword, cfg.BaseURL)
		return nil
	}, demoFlags)
}

// demoFlags says in the demo's help where its database is: its own folder
// unless the command line names one, never the environment's (whose
// variables serve names, and the demo ignores).
func demoFlags(fs *flag.FlagSet) {
	if f := fs.Lookup("data-dir"); f != nil {
		f.Usage = "folder for the demo's SQLite file, photos, outbox and generated secrets (the environment is not read: the demo never opens a real practice's database)"
		f.DefValue = "./" + demoDataDir
	}
	if f := fs.Lookup("database-url"); f != nil {
		f.Usage = "postgres://… to run the demo on PostgreSQL (default: SQLite in its own folder; the environment is not read)"
		f.DefValue = ""
	}
	if f := fs.Lookup("smtp-url"); f != nil {
		f.Usage = "smtp://user:pass@host:port or smtps://… to send the demo's e-mails (default: .eml files in the demo's outbox folder; the environment is not read: the demo sends no e-mail out unless asked here)"
	}
}

// demoPushHost is the push service the demo's clients' browsers are
// subscribed at: a name that resolves nowhere (RFC 2606's .invalid).
const demoPushHost = "push.demo.invalid"

// demoPush keeps the demo's push notifications on the machine: the
// endpoints of its seeded browsers (demoPushHost) are accepted, and every
// message — theirs, or a real browser's that subscribed on the demo — is
// answered by a sink in the process as a push service answers (201
// Created), so reminders and offers are marked sent and no request leaves.
// The payload is still encrypted and signed by the real code path.
func demoPush(p *push.Service) {
	hosts := p.Hosts
	if hosts == nil {
		hosts = push.DefaultHosts
	}
	p.Hosts = append(append([]string(nil), hosts...), demoPushHost)
	p.HTTP = &http.Client{Timeout: 5 * time.Second, Transport: pushSink{}}
}

// pushSink answers every push request itself.
type pushSink struct{}

func (pushSink) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	return &http.Response{StatusCode: http.StatusCreated, Status: "201 Created", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
}

// demoBrowser is a browser's subscription as PushSubscription.toJSON()
// gives it: an endpoint at demoPushHost and fresh keys (a P-256 public key
// and a 16-byte auth secret), so the server encrypts to it as to a phone.
func demoBrowser() (map[string]any, error) {
	k, err := ecdh.P256().GenerateKey(crand.Reader)
	if err != nil {
		return nil, err
	}
	secret, id := make([]byte, 16), make([]byte, 24)
	if _, err := crand.Read(secret); err != nil {
		return nil, err
	}
	if _, err := crand.Read(id); err != nil {
		return nil, err
	}
	b64 := base64.RawURLEncoding.EncodeToString
	return map[string]any{"endpoint": "https://" + demoPushHost + "/send/" + b64(id),
		"keys": map[string]string{"p256dh": b64(k.PublicKey().Bytes()), "auth": b64(secret)}}, nil
}

// markDemo marks the database as the demo's, unless serve has used it or
// it holds another account; then it is left as it was.
func markDemo(ctx context.Context, _ *slog.Logger, _ *config.Config, d *db.DB) (bool, error) {
	err := d.InTx(ctx, func(tx *db.Tx) error {
		served, err := marked(ctx, tx, "served")
		if err != nil {
			return err
		}
		if served {
			return fmt.Errorf("este banco já foi usado pelo agendei serve: o demo não roda num banco de verdade, porque a conta de demonstração tem senha pública (rode sem --data-dir e sem --database-url para usar ./%s, ou aponte para uma pasta vazia)", demoDataDir)
		}
		// A database served before serve marked it: known by its accounts.
		var others int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE email <> ?`, demoEmail).Scan(&others); err != nil {
			return err
		}
		if others > 0 {
			return fmt.Errorf("este banco já tem %d conta(s) que não são da demonstração: o demo usa um banco próprio (rode sem --data-dir e sem --database-url para usar ./%s, ou aponte para uma pasta vazia)", others, demoDataDir)
		}
		return setMark(ctx, tx, "demo")
	})
	return err == nil, err
}

// markServed marks the database as served and says whether it holds the
// demo, which it warns about: the demo's account has a public password.
func markServed(ctx context.Context, log *slog.Logger, cfg *config.Config, d *db.DB) (bool, error) {
	var demo bool
	err := d.InTx(ctx, func(tx *db.Tx) error {
		var err error
		if demo, err = marked(ctx, tx, "demo"); err != nil {
			return err
		}
		return setMark(ctx, tx, "served")
	})
	if err != nil {
		return false, err
	}
	if demo {
		log.Warn("!!! BANCO DE DEMONSTRAÇÃO: este banco foi criado pelo agendei demo e tem a conta "+demoEmail+", de senha pública. Não use em produção: comece com uma pasta ou um banco vazio. !!!",
			"data_dir", cfg.DataDir, "postgres", cfg.DatabaseURL != "")
	}
	return demo, nil
}

func marked(ctx context.Context, q db.Querier, mark string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM database_marks WHERE mark = ?`, mark).Scan(&n)
	return n > 0, err
}

func setMark(ctx context.Context, tx *db.Tx, mark string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO database_marks (mark, marked_at) VALUES (?, ?) ON CONFLICT (mark) DO NOTHING`, mark, clock.Real{}.Now())
	return err
}

func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "-"+name || a == "--"+name || strings.HasPrefix(a, "-"+name+"=") || strings.HasPrefix(a, "--"+name+"=") {
			return true
		}
	}
	return false
}

// caller drives the server's own handler, as the web app would.
type caller struct {
	h     http.Handler
	token string
	ip    string
}

func (c *caller) do(method, path string, body, out any) (int, error) {
	var buf bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&buf).Encode(body); err != nil {
			return 0, err
		}
	}
	req := httptest.NewRequest(method, path, &buf)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Agendei-Client", "demo")
	if c.ip != "" {
		req.RemoteAddr = c.ip + ":40000"
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, req)
	if rec.Code >= 300 && rec.Code != http.StatusConflict {
		return rec.Code, fmt.Errorf("%s %s: %d %s", method, path, rec.Code, strings.TrimSpace(rec.Body.String()))
	}
	if out != nil && rec.Code < 300 {
		return rec.Code, json.Unmarshal(rec.Body.Bytes(), out)
	}
	return rec.Code, nil
}

var demoClients = []string{
	"Ana Beatriz Oliveira", "Bruno Henrique Santos", "Camila Ferreira", "Diego Almeida", "Eduarda Lima", "Felipe Rocha", "Gabriela Martins",
	"Henrique Barbosa", "Isabela Carvalho", "João Pedro Ribeiro", "Larissa Gomes", "Lucas Pereira", "Mariana Costa", "Matheus Araújo",
	"Natália Souza", "Otávio Cardoso", "Paula Fernandes", "Rafaela Moreira", "Renato Teixeira", "Sabrina Nunes", "Thiago Correia",
	"Vanessa Dias", "Vinícius Castro", "Yasmin Mendes", "Aline Pinto", "Caio Monteiro", "Débora Freitas", "Fernanda Vieira",
	"Gustavo Ramos", "Helena Batista", "Igor Moura", "Júlia Azevedo", "Leonardo Duarte", "Letícia Farias", "Marcelo Tavares",
	"Priscila Campos", "Rodrigo Lopes", "Simone Rezende", "Tatiane Borges", "Wagner Cunha",
}

// seedDemo fills the demo practice through the API, so every rule of a
// real one holds: the onboarding, the team, the services and hours, then
// appointments written as an owner would write them, their statuses, a
// weekly series, a block and a few bookings from the public page.
func seedDemo(ctx context.Context, h http.Handler) error {
	c := &caller{h: h, ip: "127.0.0.1"}
	var session struct{ AccessToken string }
	if _, err := c.do("POST", "/api/auth/signup", map[string]string{"name": "Carla Mendes", "email": demoEmail, "password": demoPassword, "recoveryKeyword": "agenda"}, &session); err != nil {
		return err
	}
	c.token = session.AccessToken
	lunch := []map[string]string{{"start": "08:00", "end": "12:00"}, {"start": "13:00", "end": "18:00"}}
	var days []map[string]any
	for d := range 7 {
		day := map[string]any{"dayOfWeek": d, "enabled": d >= 1 && d <= 5, "start": "08:00", "end": "18:00"}
		days = append(days, day)
	}
	if _, err := c.do("POST", "/api/onboarding", map[string]any{"name": "Espaço Bem Viver", "area": "Psicologia, nutrição e fisioterapia", "publicUsername": "bemviver-demo",
		"services": []map[string]any{{"name": "Psicoterapia individual", "duration": 50, "priceCents": 18000}}, "days": days}, nil); err != nil {
		return err
	}
	if _, err := c.do("PUT", "/api/profile", map[string]any{"name": "Espaço Bem Viver", "email": demoEmail, "area": "Psicologia, nutrição e fisioterapia", "publicUsername": "bemviver-demo",
		"description": "Clínica integrada em São Paulo: psicoterapia, nutrição e fisioterapia, presencial e online. Agende seu horário a qualquer hora.",
		"phone":       "(11) 3456-7890", "whatsapp": "(11) 98765-4321", "instagram": "https://instagram.com/bemviver.demo"}, nil); err != nil {
		return err
	}
	// The week with a lunch break, and Saturday mornings.
	var week []map[string]any
	for d := range 7 {
		switch {
		case d >= 1 && d <= 5:
			week = append(week, map[string]any{"dayOfWeek": d, "enabled": true, "windows": lunch})
		case d == 6:
			week = append(week, map[string]any{"dayOfWeek": d, "enabled": true, "windows": []map[string]string{{"start": "08:00", "end": "12:00"}}})
		default:
			week = append(week, map[string]any{"dayOfWeek": d, "enabled": false})
		}
	}
	if _, err := c.do("PUT", "/api/availability", map[string]any{"days": week}, nil); err != nil {
		return err
	}
	type ref struct{ ID string }
	pros := map[string]string{}
	// Each with their council's registration, as the public page shows it.
	for _, p := range []struct{ name, role, council, number, email string }{
		{"Dra. Carla Mendes", "Psicóloga", "CRP", "06/123456", demoEmail}, {"Rafael Souza", "Nutricionista", "CRN", "3/98765", "rafael.souza@example.com"},
		{"Juliana Costa", "Fisioterapeuta", "CREFITO", "3/54321-F", "juliana.costa@example.com"},
	} {
		var r ref
		if _, err := c.do("POST", "/api/professionals", map[string]string{"name": p.name, "specialization": p.role, "email": p.email,
			"council": p.council, "councilUf": "SP", "councilNumber": p.number}, &r); err != nil {
			return err
		}
		pros[p.name] = r.ID
	}
	// The owner is Dra. Carla Mendes: she writes her own clients' records.
	if _, err := c.do("PUT", "/api/records/self", map[string]string{"professionalId": pros["Dra. Carla Mendes"]}, nil); err != nil {
		return err
	}
	// Rafael is invited to sign in as himself (the e-mail lands in the outbox).
	if _, err := c.do("PUT", "/api/members/"+pros["Rafael Souza"], map[string]string{"email": "rafael.souza@example.com"}, nil); err != nil {
		return err
	}
	type svc struct {
		id, pro string
		minutes int
	}
	var services []svc
	var first []struct{ ID string }
	if _, err := c.do("GET", "/api/services", nil, &first); err != nil || len(first) != 1 {
		return fmt.Errorf("the onboarding's service: %v", err)
	}
	if _, err := c.do("PUT", "/api/services/"+first[0].ID, map[string]any{"name": "Psicoterapia individual", "duration": 50, "priceCents": 18000,
		"description": "Sessão individual de psicoterapia, presencial ou online.", "professionalIds": []string{pros["Dra. Carla Mendes"]}}, nil); err != nil {
		return err
	}
	services = append(services, svc{first[0].ID, pros["Dra. Carla Mendes"], 50})
	for _, s := range []struct {
		name, pro string
		minutes   int
		cents     int
	}{
		{"Terapia de casal", "Dra. Carla Mendes", 80, 26000},
		{"Consulta nutricional", "Rafael Souza", 60, 22000}, {"Retorno nutricional", "Rafael Souza", 30, 12000},
		{"Fisioterapia", "Juliana Costa", 50, 15000}, {"Pilates clínico", "Juliana Costa", 50, 9000},
	} {
		var r ref
		if _, err := c.do("POST", "/api/services", map[string]any{"name": s.name, "duration": s.minutes, "priceCents": s.cents, "professionalIds": []string{pros[s.pro]}}, &r); err != nil {
			return err
		}
		services = append(services, svc{r.ID, pros[s.pro], s.minutes})
	}

	// Three months of appointments around today, some of each status.
	rng := rand.New(rand.NewPCG(2026, 11))
	loc := tz.Load(tz.Default)
	today := time.Now().In(loc)
	phone := func(i int) string { return fmt.Sprintf("(11) 9%04d-%04d", 7000+i*37%3000, 1000+i*151%9000) }
	email := func(name string) string {
		return strings.ToLower(strings.NewReplacer(" ", ".", "á", "a", "ú", "u", "é", "e", "í", "i", "ô", "o", "ç", "c", "ã", "a", "ó", "o").Replace(name)) + "@example.com"
	}
	for offset := -45; offset <= 45; offset++ {
		day := today.AddDate(0, 0, offset)
		if day.Weekday() == time.Sunday {
			continue
		}
		date := day.Format("2006-01-02")
		for _, s := range services {
			for range 1 + rng.IntN(2) {
				hour := 8 + rng.IntN(9)
				if hour == 12 || (day.Weekday() == time.Saturday && hour >= 11) {
					continue
				}
				at := fmt.Sprintf("%02d:%02d", hour, 30*rng.IntN(2))
				i := rng.IntN(len(demoClients))
				// An appointment ahead is written as a practice writes one:
				// the client told, so their confirmation and reminders go
				// (those gone by were told in their time).
				ahead := offset > 0 || (offset == 0 && at > today.Format("15:04"))
				body := map[string]any{"professionalId": s.pro, "serviceId": s.id, "date": date, "time": at, "clientName": demoClients[i], "clientPhone": phone(i),
					"notifyClient": ahead}
				if i%3 != 0 {
					body["clientEmail"] = email(demoClients[i])
				}
				var a ref
				code, err := c.do("POST", "/api/appointments", body, &a)
				if err != nil {
					return err
				}
				if code != http.StatusCreated {
					continue // taken, or outside the hours: as an owner would, try another time
				}
				status := ""
				switch r := rng.IntN(20); {
				case offset < 0 && r < 2:
					status = "no_show"
				case r < 3:
					status = "cancelled"
				case offset < 0:
					status = "completed"
				}
				if status != "" {
					if _, err := c.do("PATCH", "/api/appointments/"+a.ID, map[string]string{"status": status}, nil); err != nil {
						return err
					}
				}
			}
		}
	}
	// A patient seen weekly at a fixed hour, and the team's meeting.
	next := today.AddDate(0, 0, 1)
	for next.Weekday() != time.Tuesday {
		next = next.AddDate(0, 0, 1)
	}
	if _, err := c.do("POST", "/api/appointments", map[string]any{"professionalId": pros["Dra. Carla Mendes"], "serviceId": services[0].id, "date": next.Format("2006-01-02"),
		"time": "07:00", "outsideHours": true, "clientName": "Roberta Siqueira", "clientPhone": "(11) 97777-2323", "repeat": map[string]any{"every": "week", "count": 8},
		"notifyClient": true}, nil); err != nil {
		return err
	}
	if _, err := c.do("POST", "/api/blocks", map[string]any{"date": next.AddDate(0, 0, 2).Format("2006-01-02"), "start": "12:00", "end": "13:30", "reason": "Reunião de equipe"}, nil); err != nil {
		return err
	}
	if err := seedRecord(c, today.AddDate(0, 0, -45), today, pros["Dra. Carla Mendes"]); err != nil {
		return err
	}
	// A few bookings from the public page, each from its own visitor.
	var times struct{ Times []string }
	booked := 0
	for offset := 2; offset < 12 && booked < 3; offset++ {
		date := today.AddDate(0, 0, offset).Format("2006-01-02")
		s := services[offset%len(services)]
		if _, err := c.do("GET", fmt.Sprintf("/api/public/profiles/bemviver-demo/times?date=%s&professional=%s&service=%s", date, s.pro, s.id), nil, &times); err != nil {
			return err
		}
		if len(times.Times) == 0 {
			continue
		}
		visitor := &caller{h: h, ip: fmt.Sprintf("10.20.30.%d", offset)}
		name := demoClients[(offset*7)%len(demoClients)]
		if code, err := visitor.do("POST", "/api/public/profiles/bemviver-demo/bookings", map[string]string{"professionalId": s.pro, "serviceId": s.id, "date": date,
			"time": times.Times[len(times.Times)/2], "clientName": name, "clientPhone": phone(offset * 7), "clientEmail": email(name)}, nil); err != nil {
			return err
		} else if code == http.StatusCreated {
			booked++
		}
	}
	if booked == 0 {
		return errors.New("no public booking could be made")
	}
	// A few clients who gave only a phone booked on the public page and
	// tapped "Receber lembretes neste celular" on the confirmation: their
	// browsers are subscribed through the public route, so their
	// reminders — of this booking and of those the practice wrote for
	// them — reach their phone by push. The other phone-only clients stay
	// unreached, as they would be: the reminders card names them.
	subscribed := 0
	for n, i := range []int{0, 3, 6, 9} { // of the clients without e-mail (i%3 == 0)
		visitor := &caller{h: h, ip: fmt.Sprintf("10.20.31.%d", n)}
		for offset := 3 + 2*n; offset < 30; offset++ {
			date := today.AddDate(0, 0, offset).Format("2006-01-02")
			s := services[(n+offset)%len(services)]
			if _, err := visitor.do("GET", fmt.Sprintf("/api/public/profiles/bemviver-demo/times?date=%s&professional=%s&service=%s", date, s.pro, s.id), nil, &times); err != nil {
				return err
			}
			if len(times.Times) == 0 {
				continue
			}
			var b struct{ Token string }
			code, err := visitor.do("POST", "/api/public/profiles/bemviver-demo/bookings", map[string]string{"professionalId": s.pro, "serviceId": s.id, "date": date,
				"time": times.Times[0], "clientName": demoClients[i], "clientPhone": phone(i)}, &b)
			if err != nil {
				return err
			}
			if code != http.StatusCreated {
				continue
			}
			sub, err := demoBrowser()
			if err != nil {
				return err
			}
			if _, err := visitor.do("POST", "/api/public/bookings/"+b.Token+"/push", sub, nil); err != nil {
				return err
			}
			subscribed++
			break
		}
	}
	if subscribed == 0 {
		return errors.New("no client's browser could be subscribed to push")
	}
	return ctx.Err()
}

// seedRecord writes the prontuário of the client Dra. Carla Mendes saw most
// often in the weeks gone by: an anamnese at their first session and an
// evolução at each later one (at most four), each signed on its session's
// date, as the owner who is that professional writes them.
func seedRecord(c *caller, from, to time.Time, carla string) error {
	var list struct {
		Appointments []struct {
			ID, ClientName, Date, Status string
			ProfessionalID               *string
		}
	}
	if _, err := c.do("GET", "/api/appointments?from="+from.Format("2006-01-02")+"&to="+to.AddDate(0, 0, -1).Format("2006-01-02"), nil, &list); err != nil {
		return err
	}
	seen := map[string][]string{} // client → their completed sessions' ids, in date order (the list's)
	dates := map[string]string{}
	best := ""
	for _, a := range list.Appointments {
		if a.Status != "completed" || a.ProfessionalID == nil || *a.ProfessionalID != carla {
			continue
		}
		seen[a.ClientName] = append(seen[a.ClientName], a.ID)
		dates[a.ID] = a.Date
		if best == "" || len(seen[a.ClientName]) > len(seen[best]) {
			best = a.ClientName
		}
	}
	if best == "" {
		return errors.New("no session of Dra. Carla Mendes to keep a record of")
	}
	notes := []string{
		"Queixa principal: ansiedade ligada ao trabalho, com dificuldade para dormir há cerca de três meses.\nHistórico: sem acompanhamento anterior.\nCombinados: sessões semanais de 50 minutos.",
		"Temas trabalhados: rotina de sono e limites no trabalho.\nTécnicas: respiração diafragmática e registro de pensamentos.\nPróximos passos: observar os gatilhos da semana.",
		"Temas trabalhados: relato de melhora do sono.\nTécnicas: reestruturação cognitiva.\nPróximos passos: manter os registros.",
		"Temas trabalhados: conversa com a gestora sobre prazos.\nTécnicas: ensaio comportamental.\nPróximos passos: revisar os combinados.",
		"Temas trabalhados: balanço do primeiro mês.\nPróximos passos: manter a frequência semanal.",
	}
	sessions := seen[best]
	for i, id := range sessions[:min(len(sessions), len(notes))] {
		template := "evolucao"
		if i == 0 {
			template = "anamnese"
		}
		if _, err := c.do("POST", "/api/records/entries", map[string]string{"client": id, "appointmentId": id, "kind": "prontuario", "template": template,
			"sessionDate": dates[id], "body": notes[i]}, nil); err != nil {
			return err
		}
	}
	return nil
}
