package server_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/server/servertest"
)

// Fuzz targets for every request decoder: each JSON body, query string, path
// token and upload the API reads. Whatever arrives, the server answers — never
// a 5xx, always a response api/openapi.yaml allows (servertest checks each),
// and every refusal carries a pt-BR message. Their seed corpus is in
// testdata/fuzz; `make test` runs each for a few seconds (scripts/fuzz.sh).

type fuzzEnv struct {
	owner, anon *servertest.Client
	data        ownerData
	visitors    atomic.Int64
}

func startFuzz(f *testing.F) *fuzzEnv {
	e := servertest.Start(f, db.SQLite)
	fe := &fuzzEnv{owner: e.Client(), anon: e.Client()}
	fe.data = seedOwner(f, e, fe.owner)
	return fe
}

// check holds the invariants for any answer to any input.
func check(t *testing.T, r *servertest.Response) {
	t.Helper()
	if r.StatusCode >= 500 || r.StatusCode < 200 {
		t.Fatalf("answered %d: %s", r.StatusCode, r.Body)
	}
	if r.StatusCode >= 400 && r.StatusCode != http.StatusNotFound && r.StatusCode != http.StatusMethodNotAllowed {
		if e := r.Err(t); e.Error.Code == "" || e.Error.Message == "" {
			t.Fatalf("a refusal without code or message: %d %s", r.StatusCode, r.Body)
		}
	}
}

// body fuzzes one JSON body; public bodies come from ever-new visitors so the
// per-visitor limits do not hide the decoder behind 429s.
func (fe *fuzzEnv) body(f *testing.F, method, path string, asOwner bool, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"a":1}{"b":2}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		check(t, fe.client(t, asOwner).Do(method, fe.fill(path), raw))
	})
}

// query fuzzes named query parameters.
func (fe *fuzzEnv) query(f *testing.F, path string, asOwner bool, names []string, seeds ...[]string) {
	for _, s := range seeds {
		args := make([]any, len(s))
		for i := range s {
			args[i] = s[i]
		}
		f.Add(args...)
	}
	switch len(names) {
	case 1:
		f.Fuzz(func(t *testing.T, a string) { fe.get(t, path, asOwner, names, a) })
	case 2:
		f.Fuzz(func(t *testing.T, a, b string) { fe.get(t, path, asOwner, names, a, b) })
	case 3:
		f.Fuzz(func(t *testing.T, a, b, c string) { fe.get(t, path, asOwner, names, a, b, c) })
	case 5:
		f.Fuzz(func(t *testing.T, a, b, c, d, e string) { fe.get(t, path, asOwner, names, a, b, c, d, e) })
	default:
		f.Fatalf("no fuzz shape for %d parameters", len(names))
	}
}

func (fe *fuzzEnv) get(t *testing.T, path string, asOwner bool, names []string, values ...string) {
	q := url.Values{}
	for i, n := range names {
		q.Set(n, values[i])
	}
	check(t, fe.client(t, asOwner).Do("GET", fe.fill(path)+"?"+q.Encode(), nil))
}

// client is the owner or an anonymous visitor, from an address of its own.
func (fe *fuzzEnv) client(t *testing.T, asOwner bool) *servertest.Client {
	c := fe.anon
	if asOwner {
		c = fe.owner
	}
	c = c.As(t)
	n := fe.visitors.Add(1)
	c.ForwardedFor = fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255)
	return c
}

// fill puts the owner's ids into a path template.
func (fe *fuzzEnv) fill(path string) string {
	for prefix, id := range fe.data.ids {
		if strings.HasPrefix(path, prefix) {
			return strings.Replace(path, "{id}", id, 1)
		}
	}
	return path
}

func FuzzSignup(f *testing.F) {
	startFuzz(f).body(f, "POST", "/api/auth/signup", false,
		`{"name":"Bia","email":"bia@example.com","password":"segredo1","recoveryKeyword":"cão"}`,
		`{"name":"","email":"x","password":"1","recoveryKeyword":""}`)
}

func FuzzLogin(f *testing.F) {
	startFuzz(f).body(f, "POST", "/api/auth/login", false,
		`{"email":"anabela.sigilo@example.com","password":"senha-da-ana-1"}`, `{"email":5,"password":[]}`)
}

func FuzzPasswordReset(f *testing.F) {
	startFuzz(f).body(f, "POST", "/api/auth/password-reset", false,
		`{"email":"anabela.sigilo@example.com","recoveryKeyword":"gato","newPassword":"outra-senha-1"}`)
}

func FuzzAccountRecovery(f *testing.F) {
	startFuzz(f).body(f, "POST", "/api/auth/account-recovery", false, `{"email":"anabela.sigilo@example.com"}`)
}

func FuzzAccountRecoveryComplete(f *testing.F) {
	startFuzz(f).body(f, "POST", "/api/auth/account-recovery/complete", false,
		`{"token":"abc","newPassword":"segredo1","recoveryKeyword":"gato"}`)
}

func FuzzPublicBooking(f *testing.F) {
	fe := startFuzz(f)
	fe.body(f, "POST", "/api/public/profiles/anabela/bookings", false,
		fmt.Sprintf(`{"professionalId":%q,"serviceId":%q,"date":"2026-11-26","time":"09:00","clientName":"Maria","clientPhone":"11988887777","clientEmail":"m@example.com"}`,
			fe.data.ids["/api/professionals/"], fe.data.ids["/api/services/"]),
		`{"professionalId":"x","serviceId":"y","date":"2026-02-30","time":"25:61","clientName":"","clientPhone":"1"}`)
}

func FuzzPublicDays(f *testing.F) {
	fe := startFuzz(f)
	fe.query(f, "/api/public/profiles/anabela/days", false, []string{"month", "professional", "service"},
		[]string{"2026-12", fe.data.ids["/api/professionals/"], fe.data.ids["/api/services/"]}, []string{"2026-13", "", "x"})
}

func FuzzPublicTimes(f *testing.F) {
	fe := startFuzz(f)
	fe.query(f, "/api/public/profiles/anabela/times", false, []string{"date", "professional", "service"},
		[]string{"2026-11-26", fe.data.ids["/api/professionals/"], fe.data.ids["/api/services/"]}, []string{"9999-99-99", "", ""})
}

func FuzzPublicBookingToken(f *testing.F) {
	fe := startFuzz(f)
	f.Add("abc")
	f.Add("../../etc/passwd")
	f.Fuzz(func(t *testing.T, token string) {
		if token == "" {
			return // another route ("/api/public/bookings/cancel"), not a token
		}
		c := fe.client(t, false)
		check(t, c.Do("GET", "/api/public/bookings/"+url.PathEscape(token), nil))
		check(t, c.Do("POST", "/api/public/bookings/"+url.PathEscape(token)+"/cancel", nil))
	})
}

func FuzzProfile(f *testing.F) {
	startFuzz(f).body(f, "PUT", "/api/profile", true,
		`{"name":"Ana","area":"Psicologia","publicUsername":"anabela","bio":"Oi","instagram":"@ana","whatsapp":"11988887777"}`)
}

func FuzzOnboarding(f *testing.F) {
	startFuzz(f).body(f, "POST", "/api/onboarding", true,
		`{"name":"Ana","area":"Psi","publicUsername":"anabela","services":[{"name":"S","duration":30,"priceCents":100}],"days":[{"dayOfWeek":1,"enabled":true,"start":"09:00","end":"12:00"}]}`)
}

func FuzzAvailability(f *testing.F) {
	startFuzz(f).body(f, "PUT", "/api/availability", true,
		`{"days":[{"dayOfWeek":1,"enabled":true,"start":"09:00","end":"12:00"},{"dayOfWeek":7,"enabled":true,"start":"12:00","end":"09:00"}]}`)
}

func FuzzServiceCreate(f *testing.F) {
	startFuzz(f).body(f, "POST", "/api/services", true,
		`{"name":"Consulta","duration":50,"priceCents":15000,"professionalIds":[]}`, `{"name":"x","duration":-1,"priceCents":1e99}`)
}

func FuzzServiceUpdate(f *testing.F) {
	startFuzz(f).body(f, "PUT", "/api/services/{id}", true, `{"name":"Consulta","duration":50,"priceCents":15000}`)
}

func FuzzProfessionalCreate(f *testing.F) {
	startFuzz(f).body(f, "POST", "/api/professionals", true, `{"name":"Bia","specialization":"Nutricionista"}`)
}

func FuzzProfessionalUpdate(f *testing.F) {
	startFuzz(f).body(f, "PUT", "/api/professionals/{id}", true, `{"name":"Bia","specialization":"Nutricionista"}`)
}

func FuzzProfessionalActive(f *testing.F) {
	startFuzz(f).body(f, "PATCH", "/api/professionals/{id}", true, `{"active":false}`, `{"active":"sim"}`)
}

func FuzzAppointmentStatus(f *testing.F) {
	startFuzz(f).body(f, "PATCH", "/api/appointments/{id}", true, `{"status":"completed"}`, `{"status":"cancelled"}`)
}

func FuzzNotificationRead(f *testing.F) {
	startFuzz(f).body(f, "PATCH", "/api/notifications/{id}", true, `{"read":true}`)
}

func FuzzDeleteAccount(f *testing.F) {
	startFuzz(f).body(f, "DELETE", "/api/account", true, `{"password":"errada","confirmation":"EXCLUIR"}`)
}

func FuzzAppointmentsQuery(f *testing.F) {
	fe := startFuzz(f)
	fe.query(f, "/api/appointments", true, []string{"from", "to", "status", "professional", "q"},
		[]string{"2026-11-01", "2026-11-30", "confirmed", fe.data.ids["/api/professionals/"], "maria"},
		[]string{"2026-11-30", "2020-01-01", "x", "", "%_'"})
}

func FuzzClientsQuery(f *testing.F) {
	startFuzz(f).query(f, "/api/clients", true, []string{"q", "limit", "offset"},
		[]string{"maria", "50", "0"}, []string{"", "-1", "99999999999999999999"})
}

func FuzzReportsQuery(f *testing.F) {
	fe := startFuzz(f)
	fe.query(f, "/api/reports", true, []string{"professional", "service"},
		[]string{fe.data.ids["/api/professionals/"], fe.data.ids["/api/services/"]}, []string{"x", ""})
}

// A report's period: named, custom with any dates, or nonsense, never a 500.
func FuzzReportsPeriod(f *testing.F) {
	startFuzz(f).query(f, "/api/reports", true, []string{"period", "from", "to"},
		[]string{"custom", "2026-10-01", "2026-10-31"}, []string{"year", "", ""}, []string{"custom", "2026-13-01", "9999-12-31"}, []string{"x", "0001-01-01", "2026-10-01"})
}

func FuzzPhotoUpload(f *testing.F) {
	fe := startFuzz(f)
	f.Add([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"))
	f.Add([]byte("GIF89a\x01\x00\x01\x00"))
	f.Add([]byte("\xff\xd8\xff\xe0"))
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, fe.owner.As(t).Upload("/api/profile/photo", "photo", "foto.png", data))
	})
}
