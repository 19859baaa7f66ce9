package whatsapp_test

import (
	"context"
	"errors"
	"testing"

	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/whatsapp"
	"github.com/agendei/agendei/internal/whatsapp/graphtest"
)

func fake(t *testing.T) (*graphtest.Fake, graphtest.Account, *whatsapp.Graph) {
	t.Helper()
	f := graphtest.New()
	t.Cleanup(f.Close)
	return f, f.AddAccount(graphtest.Account{VerifiedName: "Clínica Sorriso"}), whatsapp.NewGraph(f.URL())
}

func TestGraph_ReadsThePhoneNumberAndRefusesAWrongToken(t *testing.T) {
	f, a, g := fake(t)
	ctx := context.Background()
	p, err := g.PhoneNumber(ctx, a.Token, a.PhoneNumberID)
	if err != nil || p.VerifiedName != "Clínica Sorriso" || p.DisplayPhoneNumber != a.DisplayPhoneNumber {
		t.Fatalf("PhoneNumber = %+v, %v", p, err)
	}
	_, err = g.PhoneNumber(ctx, "EAAG-errado", a.PhoneNumberID)
	var ge *whatsapp.GraphError
	if !errors.As(err, &ge) || !ge.Auth() || ge.Code != 190 {
		t.Fatalf("wrong token: %v", err)
	}
	if _, err = g.PhoneNumber(ctx, a.Token, "999"); !errors.As(err, &ge) || ge.Code != 100 || ge.Auth() {
		t.Fatalf("unknown number: %v", err)
	}
	if p := f.Problems(); len(p) > 0 {
		t.Fatalf("requests not shaped as Meta documents: %v", p)
	}
}

func TestGraph_CreatesListsAndSendsATemplateWithQuickReplies(t *testing.T) {
	f, a, g := fake(t)
	ctx := context.Background()
	tpl := whatsapp.ReminderTemplate()
	created, err := g.CreateTemplate(ctx, a.Token, a.WABAID, tpl)
	if err != nil || created.ID == "" || created.Status != "PENDING" {
		t.Fatalf("CreateTemplate = %+v, %v", created, err)
	}
	var ge *whatsapp.GraphError
	if _, err := g.CreateTemplate(ctx, a.Token, a.WABAID, tpl); !errors.As(err, &ge) || ge.Subcode != 2388024 {
		t.Fatalf("a second create must say it exists: %v", err)
	}
	msg := whatsapp.TemplateMessage{To: "5511987654321", Template: tpl.Name, Language: "pt_BR",
		Body: []string{"Ana", "Clínica", "Limpeza", "quinta, 26/11", "14:00"}, QuickReply: []string{"c:x", "r:x", "n:x"}}
	if _, err := g.SendTemplate(ctx, a.Token, a.PhoneNumberID, msg); !errors.As(err, &ge) || ge.Code != 132015 || ge.Temporary() {
		t.Fatalf("a pending template must not send: %v", err)
	}
	f.SetTemplateStatus(a.WABAID, tpl.Name, "APPROVED")
	list, err := g.Templates(ctx, a.Token, a.WABAID)
	if err != nil || len(list) != 1 || list[0].Status != "APPROVED" || list[0].Language != "pt_BR" {
		t.Fatalf("Templates = %+v, %v", list, err)
	}
	id, err := g.SendTemplate(ctx, a.Token, a.PhoneNumberID, msg)
	if err != nil || len(id) < 10 || id[:6] != "wamid." {
		t.Fatalf("SendTemplate = %q, %v", id, err)
	}
	sent := f.Messages()
	if len(sent) != 1 || sent[0].To != "5511987654321" || sent[0].Payloads[2] != "n:x" || sent[0].Body[0] != "Ana" {
		t.Fatalf("sent %+v", sent)
	}
	msg.To = "+5511987654321"
	if _, err := g.SendTemplate(ctx, a.Token, a.PhoneNumberID, msg); err == nil {
		t.Fatal("the fake accepted a number with '+'")
	}
	if p := f.Problems(); len(p) != 1 {
		t.Fatalf("want exactly the '+' number refused, got %v", p)
	}
}

func TestGraph_ThrottlingIsTemporaryAnUndeliverableNumberIsNot(t *testing.T) {
	f, a, g := fake(t)
	ctx := context.Background()
	tpl := whatsapp.ConfirmationTemplate()
	if _, err := g.CreateTemplate(ctx, a.Token, a.WABAID, tpl); err != nil {
		t.Fatal(err)
	}
	f.SetTemplateStatus(a.WABAID, tpl.Name, "APPROVED")
	f.FailNextSends(1, 503, 131000, "Something went wrong")
	f.FailNextSends(1, 400, 131026, "Message undeliverable")
	msg := whatsapp.TemplateMessage{To: "5511987654321", Template: tpl.Name, Language: "pt_BR", Body: []string{"Ana", "Clínica", "Limpeza", "quinta, 26/11", "14:00"}}
	if _, err := g.SendTemplate(ctx, a.Token, a.PhoneNumberID, msg); !connect.Temporary(err) {
		t.Fatalf("503 must be temporary: %v", err)
	}
	if _, err := g.SendTemplate(ctx, a.Token, a.PhoneNumberID, msg); err == nil || connect.Temporary(err) {
		t.Fatalf("131026 must be final: %v", err)
	}
}
