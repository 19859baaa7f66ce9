package payments

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/pix"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Statement is a client's month: each attended session (oldest first) and
// the totals, with the owner's static Pix for what is due.
type Statement struct {
	Month      string `json:"month"` // "2026-11"
	Lines      []Line `json:"lines"`
	TotalCents int64  `json:"totalCents"`
	PaidCents  int64  `json:"paidCents"`
	DueCents   int64  `json:"dueCents"`
	// Pix is the BR Code for DueCents; nil when nothing is due or the
	// owner has no Pix key (Perfil → Sinal via Pix).
	Pix *Charge `json:"pix"`
}

// Charge is a static Pix for an amount.
type Charge struct {
	CopyPaste string `json:"copyPaste"`
	QRCode    string `json:"qrCode"` // a data: URL of the PNG
	Receiver  string `json:"receiver"`
	PNG       []byte `json:"-"` // the QR code, for an e-mail's inline part
}

var errMonth = httpx.Validation("Informe o mês no formato AAAA-MM, como 2026-11.")

// ParseMonth checks a "2026-11" month and returns its first and last days.
func ParseMonth(month string) (first, last string, err error) {
	t, perr := time.Parse("2006-01", month)
	if perr != nil || t.Year() < 2000 || t.Year() > 2100 {
		return "", "", errMonth
	}
	return t.Format("2006-01-02"), t.AddDate(0, 1, -1).Format("2006-01-02"), nil
}

// MonthOf is a client's statement for a month: the attended sessions dated
// in it, whatever day they were paid.
func MonthOf(ctx context.Context, q db.Querier, ownerID, clientKey, month string, now time.Time) (*Statement, error) {
	first, last, err := ParseMonth(month)
	if err != nil {
		return nil, err
	}
	ls, err := lines(ctx, q, now, `WHERE a.user_id = ? AND a.client_key = ? AND a.appointment_date >= ? AND a.appointment_date <= ? AND `+billableSQL+`
		ORDER BY a.appointment_date, a.appointment_time, a.id`, append([]any{ownerID, clientKey, first, last}, nowArgs(now)...)...)
	if err != nil {
		return nil, err
	}
	s := &Statement{Month: month, Lines: ls}
	for _, l := range ls {
		s.TotalCents += l.PriceCents
		s.PaidCents += l.PaidCents
		s.DueCents += l.DueCents
	}
	if s.DueCents > 0 {
		p, err := deposits.ReadPix(ctx, q, ownerID)
		if err != nil {
			return nil, err
		}
		if p.Key != "" {
			s.Pix, err = pixCharge(p, s.DueCents)
			if err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

func pixCharge(p deposits.PixSettings, cents int64) (*Charge, error) {
	payload, err := pix.Build(pix.Static{Key: p.Key, Name: p.Name, City: p.City, AmountCents: cents})
	if err != nil {
		return nil, err
	}
	png, err := pix.PNG(payload, 320)
	if err != nil {
		return nil, err
	}
	return &Charge{CopyPaste: payload, QRCode: "data:image/png;base64," + base64.StdEncoding.EncodeToString(png),
		Receiver: pix.Normalize(p.Name, pix.MaxName), PNG: png}, nil
}

// Text is the statement as a message to the client (WhatsApp's prefilled
// text, the e-mail's body): the sessions, the totals and the Pix.
func (s *Statement) Text(practice, client string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Olá, %s! Segue o extrato de %s com %s:\n", firstName(client), brfmt.Month(s.Month), practice)
	for _, l := range s.Lines {
		state := "pago"
		if !l.Paid {
			state = "a pagar " + brfmt.Money(l.DueCents)
		}
		fmt.Fprintf(&b, "- %s %s, %s: %s (%s)\n", brfmt.Date(l.Date), l.Time, l.Service, brfmt.Money(l.PriceCents), state)
	}
	fmt.Fprintf(&b, "Total: %s. Pago: %s. A pagar: %s.", brfmt.Money(s.TotalCents), brfmt.Money(s.PaidCents), brfmt.Money(s.DueCents))
	if s.Pix != nil {
		fmt.Fprintf(&b, "\nPix Copia e Cola (%s):\n%s", s.Pix.Receiver, s.Pix.CopyPaste)
	}
	return b.String()
}

func firstName(name string) string {
	if f := strings.Fields(name); len(f) > 0 {
		return f[0]
	}
	return name
}
