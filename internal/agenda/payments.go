// The owner's side of sessions paid month by month (issue 43 §4): an
// appointment's "Pago" / "A receber" and its one-tap toggle, a client's
// monthly statement, sent by e-mail or opened in the owner's WhatsApp.

package agenda

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/payments"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/ratelimit"
)

func (h *Handlers) registerPayments(mux *http.ServeMux) {
	mux.Handle("GET /api/appointments/{id}/payment", h.Auth.RequireUser(httpx.Handle(h.payment)))
	mux.Handle("PUT /api/appointments/{id}/payment", h.Auth.RequireUser(httpx.Handle(h.setPayment)))
	mux.Handle("GET /api/clients/statement", h.Auth.RequireUser(httpx.Handle(h.statement)))
	mux.Handle("POST /api/clients/statement/email", h.Auth.RequireUser(httpx.Handle(h.emailStatement)))
}

func (h *Handlers) payment(w http.ResponseWriter, r *http.Request) error {
	ctx, owner := r.Context(), auth.UserID(r.Context())
	now, err := h.Svc.today(ctx, owner)
	if err != nil {
		return err
	}
	l, err := payments.Of(ctx, h.Svc.DB, owner, r.PathValue("id"), now)
	return httpx.Respond(w, http.StatusOK, l, err)
}

// setPayment is the one tap: {"paid": true} is "Pago", false "A receber".
func (h *Handlers) setPayment(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Paid *bool `json:"paid"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.Paid == nil {
		return httpx.Validation("Diga se o atendimento foi pago (paid: true ou false).")
	}
	ctx, owner := r.Context(), auth.UserID(r.Context())
	now, err := h.Svc.today(ctx, owner)
	if err != nil {
		return err
	}
	var out *payments.Line
	err = h.Svc.DB.OwnerTx(ctx, owner, func(tx *db.Tx) error {
		out, err = payments.Mark(ctx, tx, owner, r.PathValue("id"), auth.UserID(ctx), *in.Paid, h.Svc.Clock.Now(), now)
		return err
	})
	return httpx.Respond(w, http.StatusOK, out, err)
}

// StatementPage is a client's month as the statement page shows it.
type StatementPage struct {
	*payments.Statement
	Client struct {
		Name  string `json:"name"`
		Email string `json:"email"`
		Phone string `json:"phone"`
	} `json:"client"`
	Practice string `json:"practice"`
	// Message is the statement as text, and WhatsAppURL a wa.me link that
	// opens the owner's WhatsApp with it prefilled ("" without a phone).
	Message     string `json:"message"`
	WhatsAppURL string `json:"whatsappUrl"`
}

// Statement reads a client's statement for a month (ref: the client
// page's reference, booking.ClientKeyOf).
func (s *Service) Statement(ctx context.Context, owner, ref, month string) (*StatementPage, error) {
	key, err := booking.ClientKeyOf(ctx, s.DB, owner, ref)
	if err != nil {
		return nil, err
	}
	now, err := s.today(ctx, owner)
	if err != nil {
		return nil, err
	}
	st, err := payments.MonthOf(ctx, s.DB, owner, key, month, now)
	if err != nil {
		return nil, err
	}
	p := &StatementPage{Statement: st}
	err = s.DB.QueryRowContext(ctx, `SELECT client_name, client_email, client_phone FROM appointments WHERE user_id = ? AND client_key = ?
		ORDER BY appointment_date DESC, appointment_time DESC, created_at DESC LIMIT 1`, owner, key).Scan(&p.Client.Name, &p.Client.Email, &p.Client.Phone)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errClientNotFound
	}
	if err != nil {
		return nil, err
	}
	if err := s.DB.QueryRowContext(ctx, `SELECT name FROM profiles WHERE id = ?`, owner).Scan(&p.Practice); err != nil {
		return nil, err
	}
	p.Message = st.Text(p.Practice, p.Client.Name)
	if wa := brfmt.WhatsApp(p.Client.Phone); wa != "" {
		p.WhatsAppURL = wa + "?text=" + url.QueryEscape(p.Message)
	}
	return p, nil
}

func (h *Handlers) statement(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	out, err := h.Svc.Statement(r.Context(), auth.UserID(r.Context()), q.Get("key"), q.Get("month"))
	return httpx.Respond(w, http.StatusOK, out, err)
}

// ruleStatementMail bounds the statements e-mailed to one client.
var ruleStatementMail = ratelimit.Rule{Name: "statement:client", Max: 3, Window: 24 * time.Hour}

var errNoClientEmail = httpx.NewError(http.StatusConflict, "no_email",
	"Este cliente não tem e-mail cadastrado. Envie o extrato pelo WhatsApp ou corrija os dados do cliente.")

// emailStatement queues the statement to the client's e-mail through the
// outbox, at most ruleStatementMail a client a day; the answer's notice is
// "email" only when it was queued.
func (h *Handlers) emailStatement(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Key   string `json:"key"`
		Month string `json:"month"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	ctx, owner := r.Context(), auth.UserID(r.Context())
	p, err := h.Svc.Statement(ctx, owner, in.Key, in.Month)
	if err != nil {
		return err
	}
	if p.Client.Email == "" {
		return errNoClientEmail
	}
	if h.Booking == nil || h.Booking.Mailer == nil {
		return httpx.NewError(http.StatusServiceUnavailable, "no_mail", "O envio de e-mails não está disponível agora.")
	}
	key, err := booking.ClientKeyOf(ctx, h.Svc.DB, owner, in.Key)
	if err != nil {
		return err
	}
	content := mail.Content{
		Subject:    "Extrato de " + brfmt.Month(p.Month) + " — " + p.Practice,
		Greeting:   "Olá, " + p.Client.Name + "!",
		Paragraphs: []string{"Segue o extrato de " + brfmt.Month(p.Month) + " com " + p.Practice + "."},
		Footer:     "Dúvidas sobre o extrato? Responda este e-mail para falar com " + p.Practice + ".",
	}
	for _, l := range p.Lines {
		state := "pago"
		if !l.Paid {
			state = "a pagar " + brfmt.Money(l.DueCents)
		}
		content.Details = append(content.Details, mail.Detail{Label: brfmt.Date(l.Date) + " " + l.Time + " · " + l.Service,
			Value: brfmt.Money(l.PriceCents) + " (" + state + ")"})
	}
	content.Details = append(content.Details, mail.Detail{Label: "Total", Value: brfmt.Money(p.TotalCents)},
		mail.Detail{Label: "Pago", Value: brfmt.Money(p.PaidCents)}, mail.Detail{Label: "A pagar", Value: brfmt.Money(p.DueCents)})
	if p.Pix != nil {
		content.Paragraphs = append(content.Paragraphs, "Pague "+brfmt.Money(p.DueCents)+" com o QR Code abaixo no app do seu banco, ou copie este código (Pix Copia e Cola):",
			p.Pix.CopyPaste)
		content.Image = &mail.Image{ContentID: statementQRCodeID, Alt: "QR Code Pix de " + brfmt.Money(p.DueCents), Width: 240}
	}
	msg, err := mail.Compose(p.Client.Email, content)
	if err != nil {
		return err
	}
	if p.Pix != nil {
		msg.Inline = []mail.Attachment{{Name: "pix-qrcode.png", ContentType: "image/png", Data: p.Pix.PNG, ContentID: statementQRCodeID}}
	}
	// The limit's key is a digest: the client's phone or e-mail stays out
	// of rate_limits, which an erase does not rewrite.
	sum := sha256.Sum256([]byte(owner + "\x00" + key))
	err = h.Svc.DB.OwnerTx(ctx, owner, func(tx *db.Tx) error {
		ok, wait, err := ratelimit.AllowTx(ctx, tx, h.Svc.Clock.Now(), ruleStatementMail, hex.EncodeToString(sum[:16]))
		if err != nil {
			return err
		}
		if !ok {
			return ratelimit.TooMany(wait)
		}
		return h.Booking.Mailer.QueueToClient(ctx, tx, jobs.About{UserID: owner, ClientKey: key}, msg)
	})
	if err != nil {
		return err
	}
	return httpx.Respond(w, http.StatusOK, map[string]string{"notice": "email"}, nil)
}

const statementQRCodeID = "pix-qrcode@agendei"
