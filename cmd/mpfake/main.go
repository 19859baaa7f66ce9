// Command mpfake serves internal/mercadopago/mptest — the in-process fake
// of the Mercado Pago API endpoints Agendei calls — on a local address, for
// the browser tests (web/e2e), which start `agendei serve` with
// --mercadopago-api-url pointed at it. Never part of a deployment.
//
// Besides the API paths it answers test-only calls:
//
//	POST /_fake/accounts           a new Brazilian seller; answers its token and webhook secret
//	POST /_fake/approve?id=ID      marks a payment paid and sends its webhook, signed
//	POST /_fake/authorize-as?userId=ID  the seller the authorization page logs in as
//	GET  /_fake/ready              204 once listening
//
// With -redirect-uri it also plays the operator's Mercado Pago application
// (-client-id, -client-secret, -webhook-secret, which the e2e server is
// given too): its authorization page (GET /authorization) logs in as the
// seller named by /_fake/authorize-as (else the one made last by
// /_fake/accounts) and sends the browser straight back
// to the redirect URI with a code, which POST /oauth/token exchanges.
package main

import (
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"strconv"
	"time"

	"github.com/agendei/agendei/internal/mercadopago/mptest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18998", "address to listen on (loopback only)")
	clientID := flag.String("client-id", "4934588586838432", "the application's client id")
	clientSecret := flag.String("client-secret", "e2e-client-secret-0123456789", "the application's client secret")
	webhookSecret := flag.String("webhook-secret", "e2e-webhook-secret-0123456789abcdef", "the application's webhook signing secret")
	redirectURI := flag.String("redirect-uri", "", "the application's registered redirect URI (empty: no application)")
	flag.Parse()
	fake, api := mptest.NewHandler()
	if *redirectURI != "" {
		fake.SetApp(mptest.App{ClientID: *clientID, ClientSecret: *clientSecret, WebhookSecret: *webhookSecret, RedirectURI: *redirectURI})
	}
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
	mux.HandleFunc("POST /_fake/authorize-as", func(w http.ResponseWriter, r *http.Request) {
		id, err := strconv.ParseInt(r.URL.Query().Get("userId"), 10, 64)
		if err != nil {
			http.Error(w, "userId must be a number", http.StatusBadRequest)
			return
		}
		fake.AuthorizeAs(mptest.Account{UserID: id}, false)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /_fake/ready", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	s := &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	log.Fatal(s.ListenAndServe())
}
