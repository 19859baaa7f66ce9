// Command mpfake serves internal/mercadopago/mptest — the in-process fake
// of the Mercado Pago API endpoints Agendei calls — on a local address, for
// the browser tests (web/e2e), which start `agendei serve` with
// --mercadopago-api-url pointed at it. Never part of a deployment.
//
// Besides the API paths it answers test-only calls:
//
//	POST /_fake/accounts           a new Brazilian seller; answers its token and webhook secret
//	POST /_fake/approve?id=ID      marks a payment paid and sends its webhook, signed
//	GET  /_fake/ready              204 once listening
package main

import (
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/mercadopago/mptest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18998", "address to listen on (loopback only)")
	flag.Parse()
	fake, api := mptest.NewHandler()
	mux := http.NewServeMux()
	mux.Handle("/", api)
	mux.HandleFunc("POST /_fake/accounts", func(w http.ResponseWriter, r *http.Request) {
		a := fake.AddAccount(mptest.Account{Nickname: "CLINICATESTE"})
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"userId": a.UserID, "token": a.Token, "webhookSecret": a.WebhookSecret, "nickname": a.Nickname})
	})
	mux.HandleFunc("POST /_fake/approve", func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Query().Get("id")
		if _, ok := fake.Payment(id); !ok {
			http.Error(w, "no such payment", http.StatusNotFound)
			return
		}
		fake.Approve(id)
		code, err := fake.Notify(id).Send()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]int{"webhookStatus": code})
	})
	mux.HandleFunc("GET /_fake/ready", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	s := &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	log.Fatal(s.ListenAndServe())
}
