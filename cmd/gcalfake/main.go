// Command gcalfake serves internal/platform/gcal/gcaltest — the in-process
// fake of Google's OAuth 2.0 endpoints and Calendar API v3 that Agendei
// calls — on a local address, for the browser tests (web/e2e), which start
// `agendei serve` with --google-client-id/-secret and the --google-*-url
// overrides pointed at it. Never part of a deployment.
//
// The fake has one Google account (-account, its primary calendar, owner),
// with a second calendar it may write ("Consultório", writer) and one it
// may only read ("Feriados no Brasil", reader). Its consent page
// (GET /o/oauth2/v2/auth) is a page with a "Permitir" button, as Google's
// is, which sends the browser back to -redirect-uri with a code.
//
// Besides Google's paths it answers test-only calls:
//
//	GET  /_fake/ready                  204 once listening
//	POST /_fake/events?calendar=ID     the owner adds an event in Google Calendar itself:
//	                                   {"id", "summary", "start", "end"} (RFC 3339)
//	GET  /_fake/events?calendar=ID     the calendar's events now: id, summary, location,
//	                                   start, end, zone, cancelled
//	POST /_fake/revoke                 the owner removes Agendei's access in their Google account
//	GET  /_fake/problems               the requests the fake refused as not shaped as Google documents
package main

import (
	"encoding/json"
	"flag"
	"html/template"
	"log"
	"net/http"
	"slices"
	"time"

	"github.com/agendei/agendei/internal/platform/connect/connecttest"
	"github.com/agendei/agendei/internal/platform/gcal/gcaltest"
)

// consentPage is the fake's consent page: the app's name, what it asks, and
// "Permitir", which goes on to the fake's own consent handler with the same
// query.
var consentPage = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fazer login com o Google (fake)</title></head>
<body style="font-family:sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem">
<h1 style="font-size:1.25rem">O Agendei quer acessar sua Conta do Google</h1>
<p>{{.Account}}</p>
<ul><li>Ver a lista das suas agendas</li><li>Ver os horários ocupados</li><li>Ver e editar eventos</li></ul>
<p><a href="/o/oauth2/v2/auth/approve?{{.Query}}" role="button">Permitir</a></p>
</body></html>`))

func main() {
	addr := flag.String("addr", "127.0.0.1:21931", "address to listen on (loopback only)")
	clientID := flag.String("client-id", "123456789012-e2e.apps.googleusercontent.com", "the operator's OAuth client id")
	clientSecret := flag.String("client-secret", "GOCSPX-e2e-client-secret", "the operator's OAuth client secret")
	redirectURI := flag.String("redirect-uri", "", "the client's authorised redirect URI ({base URL}/profile/google)")
	account := flag.String("account", "dona.e2e@gmail.com", "the Google account's e-mail (its primary calendar's id)")
	flag.Parse()
	fake, google := gcaltest.NewHandler(*clientID, *clientSecret, *redirectURI)
	calendars := []string{*account, "c_consultorio.e2e@group.calendar.google.com", "pt-br.brazilian#holiday@group.v.calendar.google.com"}
	fake.AddCalendar(calendars[0], "Dona", "owner", true)
	fake.AddCalendar(calendars[1], "Consultório", "writer", false)
	fake.AddCalendar(calendars[2], "Feriados no Brasil", "reader", false)

	mux := http.NewServeMux()
	mux.Handle("/", google)
	mux.HandleFunc("GET /o/oauth2/v2/auth", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = consentPage.Execute(w, map[string]any{"Account": *account, "Query": template.URL(r.URL.RawQuery)})
	})
	mux.HandleFunc("GET /o/oauth2/v2/auth/approve", func(w http.ResponseWriter, r *http.Request) {
		r.URL.Path = "/o/oauth2/v2/auth"
		google.ServeHTTP(w, r)
	})
	known := func(w http.ResponseWriter, r *http.Request) (string, bool) {
		cal := r.URL.Query().Get("calendar")
		if !slices.Contains(calendars, cal) {
			http.Error(w, "no such calendar", http.StatusNotFound)
			return "", false
		}
		return cal, true
	}
	mux.HandleFunc("POST /_fake/events", func(w http.ResponseWriter, r *http.Request) {
		cal, ok := known(w, r)
		if !ok {
			return
		}
		var in struct {
			ID, Summary string
			Start, End  time.Time
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || !in.Start.Before(in.End) {
			http.Error(w, "want {id, summary, start, end} in RFC 3339, end after start", http.StatusBadRequest)
			return
		}
		if in.ID == "" {
			in.ID = connecttest.RandHex(10)
		}
		fake.AddEvent(cal, gcaltest.Event{ID: in.ID, Summary: in.Summary, Start: in.Start, End: in.End})
		writeJSON(w, map[string]string{"id": in.ID})
	})
	mux.HandleFunc("GET /_fake/events", func(w http.ResponseWriter, r *http.Request) {
		cal, ok := known(w, r)
		if !ok {
			return
		}
		out := []map[string]any{}
		for _, e := range fake.Events(cal) {
			out = append(out, map[string]any{"id": e.ID, "summary": e.Summary, "location": e.Location, "start": e.Start, "end": e.End, "zone": e.Zone, "cancelled": e.Cancelled})
		}
		slices.SortFunc(out, func(a, b map[string]any) int { return a["start"].(time.Time).Compare(b["start"].(time.Time)) })
		writeJSON(w, out)
	})
	mux.HandleFunc("POST /_fake/revoke", func(w http.ResponseWriter, r *http.Request) {
		fake.RevokeAll()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /_fake/problems", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, append([]string{}, fake.Problems()...))
	})
	// The browser on the consent page asks for it; Agendei never does.
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("GET /_fake/ready", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	s := &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	log.Fatal(s.ListenAndServe())
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
