// Command graphfake serves internal/whatsapp/graphtest — the in-process
// fake of Meta's Graph API endpoints Agendei calls — on a local address,
// for the browser tests (web/e2e), which start `agendei serve` with
// --whatsapp-graph-url pointed at it. Never part of a deployment.
//
// Besides the Graph API paths it answers two test-only calls:
//
//	POST /_fake/accounts          a new business; answers its ids, token and app secret
//	POST /_fake/approve?waba=ID   approves every template of that account
//	POST /_fake/signup            a business as Meta's Embedded Signup window leaves it (a number
//	                              not registered yet) and the one-time code FB.login would give the
//	                              browser for it; needs -app-id and -app-secret, the operator's app
package main

import (
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/whatsapp/graphtest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18999", "address to listen on (loopback only)")
	appID := flag.String("app-id", "", "the operator's Meta app id, for Embedded Signup's code exchange (optional)")
	appSecret := flag.String("app-secret", "", "that app's secret")
	flag.Parse()
	fake, graph := graphtest.NewHandler()
	fake.SetApp(graphtest.App{ID: *appID, Secret: *appSecret})
	mux := http.NewServeMux()
	mux.Handle("/", graph)
	mux.HandleFunc("POST /_fake/accounts", func(w http.ResponseWriter, r *http.Request) {
		a := fake.AddAccount(graphtest.Account{VerifiedName: "Clínica Teste", DisplayPhoneNumber: "+55 11 3333-4444"})
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"wabaId": a.WABAID, "phoneNumberId": a.PhoneNumberID, "token": a.Token, "appSecret": a.AppSecret})
	})
	mux.HandleFunc("POST /_fake/approve", func(w http.ResponseWriter, r *http.Request) {
		waba := r.URL.Query().Get("waba")
		for _, t := range fake.Templates(waba) {
			fake.SetTemplateStatus(waba, t.Name, "APPROVED")
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /_fake/signup", func(w http.ResponseWriter, r *http.Request) {
		a := fake.AddAccount(graphtest.Account{VerifiedName: "Clínica Teste", DisplayPhoneNumber: "+55 11 3222-1000", Unregistered: true})
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"wabaId": a.WABAID, "phoneNumberId": a.PhoneNumberID, "code": fake.SignupCode(a)})
	})
	mux.HandleFunc("GET /_fake/ready", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	s := &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	log.Fatal(s.ListenAndServe())
}
