package profiles_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

type profile struct {
	Name, Email, Area, Instagram, Linkedin, Whatsapp, Website, TimeZone string
	PublicUsername                                                      *string
	TrialEndsAt                                                         *time.Time
}

func form(username string) map[string]string {
	return map[string]string{"name": " Ana Souza ", "email": "contato@ana.com", "area": "Psicologia", "publicUsername": username,
		"instagram": "@ana.psi", "linkedin": "ana-souza", "whatsapp": "(11) 98888-7777", "website": "ana.com.br"}
}

func TestProfile_SaveFormatsSocialLinksAndNormalisesUsername(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		r := c.Do("PUT", "/api/profile", form("  Ana.Psi "))
		if r.StatusCode != 200 {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		var p profile
		r.JSON(t, &p)
		if p.Name != "Ana Souza" || *p.PublicUsername != "ana.psi" || p.Instagram != "https://instagram.com/ana.psi" ||
			p.Linkedin != "https://linkedin.com/in/ana-souza" || p.Whatsapp != "+5511988887777" || p.Website != "ana.com.br" || p.TimeZone != "America/Sao_Paulo" {
			t.Fatalf("%+v", p)
		}
		for _, tc := range []struct{ field, value, code string }{
			{"name", "  ", "validation_failed"},
			{"area", "", "validation_failed"},
			{"email", "nao-email", "validation_failed"},
			{"publicUsername", "ab", "validation_failed"},
			{"publicUsername", "admin", "validation_failed"},
			{"publicUsername", "com espaço", "validation_failed"},
			{"timeZone", "Europe/Lisbon", "validation_failed"},
		} {
			f := form("ana.psi")
			f[tc.field] = tc.value
			if r := c.Do("PUT", "/api/profile", f); r.StatusCode != 400 || r.Err(t).Error.Code != tc.code {
				t.Errorf("%s=%q: %d %s", tc.field, tc.value, r.StatusCode, r.Body)
			}
		}
		if r := c.Do("PUT", "/api/profile", form("")); r.StatusCode != 200 {
			t.Fatalf("clearing the username: %d %s", r.StatusCode, r.Body)
		}
	})
}

func TestProfile_UsernameIsUniqueRegardlessOfCaseAndSpaces(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a, b := e.Client(), e.Client()
		a.Signup("Ana", "ana@example.com", "segredo1", "gato")
		b.Signup("Bia", "bia@example.com", "segredo1", "gato")
		if r := a.Do("PUT", "/api/profile", form("clinica")); r.StatusCode != 200 {
			t.Fatal(r.StatusCode)
		}
		r := b.Do("PUT", "/api/profile", form(" CLINICA "))
		if r.StatusCode != 409 || r.Err(t).Error.Message != "Este nome de usuário já está sendo usado. Escolha outro." {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		var avail struct {
			Available bool
			Message   string
		}
		b.Do("GET", "/api/profile/username-availability?username=Clinica", nil).JSON(t, &avail)
		if avail.Available {
			t.Fatal("taken username reported available")
		}
		a.Do("GET", "/api/profile/username-availability?username=clinica", nil).JSON(t, &avail)
		if !avail.Available {
			t.Fatal("one's own username is available to oneself")
		}
		if r := a.Do("PUT", "/api/profile", form("clinica")); r.StatusCode != 200 {
			t.Fatal("re-saving one's own username must work")
		}
	})
}

func TestProfile_TwoOwnersRacingForAUsernameOneWins(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		const n = 6
		clients := make([]*servertest.Client, n)
		for i := range clients {
			clients[i] = e.Client()
			clients[i].Signup("Dona", "dona"+string(rune('a'+i))+"@example.com", "segredo1", "gato")
		}
		var wg sync.WaitGroup
		codes := make([]int, n)
		for i, c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i] = c.Do("PUT", "/api/profile", form("disputado")).StatusCode
			}()
		}
		wg.Wait()
		won := 0
		for _, code := range codes {
			switch code {
			case 200:
				won++
			case 409:
			default:
				t.Errorf("status %d", code)
			}
		}
		if won != 1 {
			t.Fatalf("%d owners got the username: %v", won, codes)
		}
	})
}

type setup struct {
	Complete bool
	Items    struct{ Profile, Professional, Service, Availability bool }
	Trial    struct {
		InTrial, Expired bool
		DaysRemaining    int
	}
}

func TestSetup_ChecklistCompletesOnlyWithAllFourAndStartsTheTrial(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		get := func() setup {
			var s setup
			r := c.Do("GET", "/api/setup-status", nil)
			if r.StatusCode != 200 {
				t.Fatalf("setup-status: %d %s", r.StatusCode, r.Body)
			}
			r.JSON(t, &s)
			return s
		}
		s := get()
		if s.Complete || s.Items.Profile || !s.Trial.InTrial || s.Trial.DaysRemaining != 7 {
			t.Fatalf("fresh account: %+v", s)
		}
		c.Do("PUT", "/api/profile", form("ana"))
		var pr struct{ ID string }
		c.Do("POST", "/api/professionals", map[string]string{"name": "Ana", "specialization": "Psicóloga"}).JSON(t, &pr)
		c.Do("POST", "/api/services", map[string]any{"name": "Consulta", "duration": 50, "priceCents": 15000})
		if s = get(); s.Complete || !s.Items.Profile || !s.Items.Professional || !s.Items.Service || s.Items.Availability {
			t.Fatalf("without hours: %+v", s)
		}
		week := map[string]any{"days": []map[string]any{}}
		for d := range 7 {
			week["days"] = append(week["days"].([]map[string]any), map[string]any{"dayOfWeek": d, "enabled": d == 1, "start": "09:00", "end": "12:00"})
		}
		if r := c.Do("PUT", "/api/availability", week); r.StatusCode != 200 {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		if s = get(); !s.Complete {
			t.Fatalf("all four: %+v", s)
		}
		// Turning the only professional off makes setup incomplete again.
		c.Do("PATCH", "/api/professionals/"+pr.ID, map[string]bool{"active": false})
		if s = get(); s.Complete || s.Items.Professional {
			t.Fatalf("inactive professional: %+v", s)
		}
		// The trial started when the basic info was first complete: 7 days.
		e.Clock.Advance(6*24*time.Hour + time.Hour)
		c.Login("ana@example.com", "segredo1") // the access token lives 15 minutes
		if s = get(); s.Trial.DaysRemaining != 1 || !s.Trial.InTrial {
			t.Fatalf("last day: %+v", s.Trial)
		}
		e.Clock.Advance(23 * time.Hour)
		c.Login("ana@example.com", "segredo1")
		if s = get(); !s.Trial.Expired || s.Trial.InTrial {
			t.Fatalf("after the end: %+v", s.Trial)
		}
	})
}

// The public page never shows the account's login e-mail (nor the profile's
// e-mail); only the contact e-mail the owner chose to show, empty by default.
func TestPublicProfile_ShowsOnlyTheContactEmailTheOwnerChose(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana.login@example.com", "segredo1", "gato")
		f := form("ana")
		f["email"] = "ana.perfil@example.com"
		if r := c.Do("PUT", "/api/profile", f); r.StatusCode != 200 {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		public := func() (map[string]any, string) {
			r := e.Client().Do("GET", "/api/public/profiles/ana", nil)
			if r.StatusCode != 200 {
				t.Fatalf("public: %d %s", r.StatusCode, r.Body)
			}
			var m map[string]any
			r.JSON(t, &m)
			return m, string(r.Body)
		}
		m, body := public()
		if strings.Contains(body, "ana.login@example.com") || strings.Contains(body, "ana.perfil@example.com") || strings.Contains(body, "@") {
			t.Fatalf("public profile shows an e-mail by default: %s", body)
		}
		if _, ok := m["email"]; ok || m["contactEmail"] != "" {
			t.Fatalf("fields: %v", m)
		}

		// A bad contact e-mail is refused in pt-BR; a good one is saved and shown.
		f["contactEmail"] = "nao-e-email"
		r := c.Do("PUT", "/api/profile", f)
		if r.StatusCode != 400 || r.Err(t).Error.Message != "Informe um e-mail de contato válido ou deixe o campo em branco." {
			t.Fatalf("bad contact e-mail: %d %s", r.StatusCode, r.Body)
		}
		f["contactEmail"] = " Contato@Clinica-Ana.com.br "
		var p struct{ ContactEmail string }
		r = c.Do("PUT", "/api/profile", f)
		r.JSON(t, &p)
		if r.StatusCode != 200 || p.ContactEmail != "contato@clinica-ana.com.br" {
			t.Fatalf("save: %d %s", r.StatusCode, r.Body)
		}
		p.ContactEmail = ""
		c.Do("GET", "/api/profile", nil).JSON(t, &p)
		if p.ContactEmail != "contato@clinica-ana.com.br" {
			t.Fatalf("owner's GET: %+v", p)
		}
		m, body = public()
		if m["contactEmail"] != "contato@clinica-ana.com.br" || strings.Contains(body, "ana.login@example.com") || strings.Contains(body, "ana.perfil@example.com") {
			t.Fatalf("public with a contact e-mail: %s", body)
		}

		// Clearing it hides it again.
		f["contactEmail"] = ""
		c.Do("PUT", "/api/profile", f)
		if m, _ = public(); m["contactEmail"] != "" {
			t.Fatalf("cleared: %v", m)
		}
	})
}

// The WhatsApp templates start as the default texts, keep what the owner
// writes, and refuse a placeholder that does not exist, naming it.
func TestMessageTemplates_DefaultsSaveAndRefuseUnknownPlaceholders(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Dona", "dona@example.com", "segredo1", "gato")
		var m struct{ Confirmation, Reminder, Reschedule string }
		c.Do("GET", "/api/message-templates", nil).JSON(t, &m)
		if !strings.Contains(m.Confirmation, "{nome}") || !strings.Contains(m.Reschedule, "{link}") || m.Reminder == "" {
			t.Fatalf("defaults: %+v", m)
		}
		mine := map[string]string{"confirmation": "  Oi {nome}, até {data} às {hora}!  ", "reminder": "Lembrete: {servico} com {profissional}", "reschedule": "Remarcado: {data} {hora} {link}. Para cancelar ou remarcar: {link_cliente}"}
		if r := c.Do("PUT", "/api/message-templates", mine); r.StatusCode != 200 {
			t.Fatalf("save: %d %s", r.StatusCode, r.Body)
		}
		c.Do("GET", "/api/message-templates", nil).JSON(t, &m)
		if m.Confirmation != "Oi {nome}, até {data} às {hora}!" || m.Reminder != mine["reminder"] || m.Reschedule != mine["reschedule"] {
			t.Fatalf("saved: %+v", m)
		}
		for _, bad := range []map[string]string{
			{"confirmation": "Oi {cliente}", "reminder": "x", "reschedule": "y"},
			{"confirmation": "x", "reminder": "", "reschedule": "y"},
			{"confirmation": "x", "reminder": "y", "reschedule": strings.Repeat("a", 1001)},
		} {
			r := c.Do("PUT", "/api/message-templates", bad)
			if r.StatusCode != 400 {
				t.Fatalf("%v: %d", bad, r.StatusCode)
			}
			if strings.Contains(bad["confirmation"], "{cliente}") && !strings.Contains(r.Err(t).Error.Message, "{cliente}") {
				t.Fatalf("the unknown placeholder must be named: %s", r.Body)
			}
		}
		c.Do("GET", "/api/message-templates", nil).JSON(t, &m)
		if m.Confirmation != "Oi {nome}, até {data} às {hora}!" {
			t.Fatal("a refused save must change nothing")
		}
	})
}

// The practice's name is saved as one line: it goes into every WhatsApp
// message, whose parameters Meta refuses with a tab, a new line or more
// than four consecutive spaces.
func TestProfile_NameIsSavedAsOneLine(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		f := form("ana.psi")
		f["name"] = "Clínica\tSorriso     Centro\r\n"
		var p profile
		c.Do("PUT", "/api/profile", f).JSON(t, &p)
		if p.Name != "Clínica Sorriso Centro" {
			t.Fatalf("saved as %q", p.Name)
		}
	})
}
