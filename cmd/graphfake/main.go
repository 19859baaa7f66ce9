// Command graphfake serves internal/whatsapp/graphtest — the in-process
// fake of Meta's Graph API endpoints Agendei calls — on a local address,
// for the browser tests (web/e2e), which start `agendei serve` with
// --whatsapp-graph-url pointed at it. Never part of a deployment.
//
// Besides the Graph API paths it answers a few test-only calls:
//
//	POST /_fake/accounts          a new business; answers its ids, token and app secret
//	POST /_fake/approve?waba=ID   approves every template of that account
//	POST /_fake/signup            a business as Meta's Embedded Signup window leaves it (a number
//	                              not registered yet) and the one-time code FB.login would give the
//	                              browser for it; needs -app-id and -app-secret, the operator's app
//	GET  /_fake/messages?to=N     the messages sent to that number (digits), oldest first
//	GET  /_fake/templates?waba=ID the templates created in that account
//	GET  /_fake/subscribed?waba=ID whether the operator's app gets that account's webhooks
//	POST /_fake/tap?message=ID&button=I
//	                              the client taps the I-th quick reply of a message sent: its webhook,
//	                              signed as Meta signs it with -app-secret, goes to -webhook (the
//	                              operator app's, where the operator's number and the numbers connected
//	                              by Embedded Signup report); answers the webhook's HTTP status
//
// With -operator-waba, -operator-phone and -operator-token the fake has the
// operator's own number (AGENDEI_WHATSAPP_OPERATOR_*), whose app secret is
// -app-secret and whose templates Meta approves as they are created.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"strconv"
	"time"

	"github.com/agendei/agendei/internal/platform/connect/connecttest"
	"github.com/agendei/agendei/internal/whatsapp/graphtest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18999", "address to listen on (loopback only)")
	appID := flag.String("app-id", "", "the operator's Meta app id, for Embedded Signup's code exchange (optional)")
	appSecret := flag.String("app-secret", "", "that app's secret (also the operator's number's)")
	opWABA := flag.String("operator-waba", "", "the operator's WABA id (optional)")
	opPhone := flag.String("operator-phone", "", "the operator's phone-number id")
	opToken := flag.String("operator-token", "", "the operator's access token")
	webhook := flag.String("webhook", "", "the operator app's webhook URL, for /_fake/tap")
	flag.Parse()
	fake, graph := graphtest.NewHandler()
	fake.SetApp(graphtest.App{ID: *appID, Secret: *appSecret})
	if *opWABA != "" {
		fake.AddAccount(graphtest.Account{WABAID: *opWABA, PhoneNumberID: *opPhone, Token: *opToken, AppSecret: *appSecret,
			VerifiedName: "Agendei", DisplayPhoneNumber: "+55 11 4000-1234", AutoApprove: true})
	}
	mux := http.NewServeMux()
	mux.Handle("/", graph)
	mux.HandleFunc("POST /_fake/accounts", func(w http.ResponseWriter, r *http.Request) {
		a := fake.AddAccount(graphtest.Account{VerifiedName: "Clínica Teste", DisplayPhoneNumber: "+55 11 3333-4444"})
		writeJSON(w, map[string]string{"wabaId": a.WABAID, "phoneNumberId": a.PhoneNumberID, "token": a.Token, "appSecret": a.AppSecret})
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
		writeJSON(w, map[string]string{"wabaId": a.WABAID, "phoneNumberId": a.PhoneNumberID, "code": fake.SignupCode(a)})
	})
	mux.HandleFunc("GET /_fake/messages", func(w http.ResponseWriter, r *http.Request) {
		to := r.URL.Query().Get("to")
		out := []map[string]any{}
		for _, m := range fake.Messages() {
			if m.To == to {
				out = append(out, map[string]any{"id": m.ID, "phoneNumberId": m.PhoneNumberID, "template": m.Template, "body": m.Body, "text": m.Text})
			}
		}
		writeJSON(w, out)
	})
	mux.HandleFunc("GET /_fake/templates", func(w http.ResponseWriter, r *http.Request) {
		out := []map[string]string{}
		for _, t := range fake.Templates(r.URL.Query().Get("waba")) {
			out = append(out, map[string]string{"name": t.Name, "status": t.Status})
		}
		writeJSON(w, out)
	})
	mux.HandleFunc("GET /_fake/subscribed", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]bool{"subscribed": fake.Subscribed(r.URL.Query().Get("waba"))})
	})
	mux.HandleFunc("POST /_fake/tap", func(w http.ResponseWriter, r *http.Request) {
		status, err := tap(fake, *webhook, *appSecret, r.URL.Query().Get("message"), r.URL.Query().Get("button"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		writeJSON(w, map[string]int{"status": status})
	})
	mux.HandleFunc("GET /_fake/ready", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	s := &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	log.Fatal(s.ListenAndServe())
}

// tap posts to the webhook the client's tap on a message's button: a
// "button" message whose context is the message, with the payload the
// message carried for that button and the button's text.
func tap(fake *graphtest.Fake, webhook, appSecret, messageID, button string) (int, error) {
	if webhook == "" || appSecret == "" {
		return 0, fmt.Errorf("tap needs -webhook and -app-secret")
	}
	i, err := strconv.Atoi(button)
	if err != nil {
		return 0, fmt.Errorf("button: %w", err)
	}
	for _, m := range fake.Messages() {
		if m.ID != messageID {
			continue
		}
		a, _ := fake.AccountOf(m.PhoneNumberID)
		payload, ok := m.Payloads[i]
		if !ok {
			return 0, fmt.Errorf("message %s has no button %d", messageID, i)
		}
		text := ""
		for _, t := range fake.Templates(a.WABAID) {
			if t.Name == m.Template && i < len(t.QuickReplies) {
				text = t.QuickReplies[i]
			}
		}
		body := fake.ButtonReply(a, "wamid.IN"+connecttest.RandHex(16), m.To, m.ID, payload, text, time.Now())
		return graphtest.Post(webhook, appSecret, body)
	}
	return 0, fmt.Errorf("no message %s", messageID)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
