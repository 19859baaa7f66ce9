// The owner's side of the Receita Saúde (issue 43 §4): the switch with the
// payee's CPF or CNPJ, the month's receipts and the Carnê-Leão file.

package agenda

import (
	"net/http"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/payments"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

func (h *Handlers) registerReceipts(mux *http.ServeMux) {
	mux.Handle("GET /api/receita-saude/settings", h.Auth.RequireUser(httpx.Handle(h.receiptSettings)))
	mux.Handle("PUT /api/receita-saude/settings", h.Auth.RequireUser(httpx.Handle(h.saveReceiptSettings)))
	mux.Handle("GET /api/receita-saude/receipts", h.Auth.RequireUser(httpx.Handle(h.receipts)))
	mux.Handle("GET /api/receita-saude/carne-leao", h.Auth.RequireUser(httpx.Handle(h.carneLeao)))
}

func (h *Handlers) receiptSettings(w http.ResponseWriter, r *http.Request) error {
	s, err := payments.ReadReceiptSettings(r.Context(), h.Svc.DB, auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, s, err)
}

func (h *Handlers) saveReceiptSettings(w http.ResponseWriter, r *http.Request) error {
	var in payments.ReceiptSettings
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if err := payments.ValidateReceiptSettings(&in); err != nil {
		return err
	}
	ctx, owner := r.Context(), auth.UserID(r.Context())
	err := h.Svc.DB.OwnerTx(ctx, owner, func(tx *db.Tx) error {
		return payments.SaveReceiptSettings(ctx, tx, owner, in, h.Svc.Clock.Now())
	})
	return httpx.Respond(w, http.StatusOK, in, err)
}

// MonthReceipts is a month's payments received, each a receipt.
type MonthReceipts struct {
	Month    string             `json:"month"`
	Practice string             `json:"practice"`
	Payee    string             `json:"payee"` // CPF or CNPJ digits; "" when not set
	Receipts []payments.Receipt `json:"receipts"`
	// MissingCPF counts the receipts without the payer's CPF: the
	// Carnê-Leão file leaves them out until the client's CPF is filled in.
	MissingCPF int   `json:"missingCpf"`
	TotalCents int64 `json:"totalCents"`
}

var errReceiptsOff = httpx.NewError(http.StatusConflict, "receipts_off",
	"Ative \"Emitir recibos do Receita Saúde\" no Perfil, com o CPF ou CNPJ de quem recebe, para gerar os recibos e o arquivo do Carnê-Leão.")

func (h *Handlers) monthReceipts(r *http.Request) (*MonthReceipts, payments.ReceiptSettings, error) {
	ctx, owner, month := r.Context(), auth.UserID(r.Context()), r.URL.Query().Get("month")
	if _, _, err := payments.ParseMonth(month); err != nil {
		return nil, payments.ReceiptSettings{}, err
	}
	s, err := payments.ReadReceiptSettings(ctx, h.Svc.DB, owner)
	if err != nil {
		return nil, s, err
	}
	if !s.Enabled {
		return nil, s, errReceiptsOff
	}
	now, err := h.Svc.today(ctx, owner)
	if err != nil {
		return nil, s, err
	}
	list, err := payments.ReceivedIn(ctx, h.Svc.DB, owner, month, now)
	if err != nil {
		return nil, s, err
	}
	out := &MonthReceipts{Month: month, Payee: s.Document, Receipts: list}
	if err := h.Svc.DB.QueryRowContext(ctx, `SELECT name FROM profiles WHERE id = ?`, owner).Scan(&out.Practice); err != nil {
		return nil, s, err
	}
	for _, x := range list {
		out.TotalCents += x.AmountCents
		if x.PayerCPF == "" {
			out.MissingCPF++
		}
	}
	return out, s, nil
}

func (h *Handlers) receipts(w http.ResponseWriter, r *http.Request) error {
	out, _, err := h.monthReceipts(r)
	return httpx.Respond(w, http.StatusOK, out, err)
}

// carneLeao downloads the month's file for the Carnê-Leão Web's import
// (payments.CarneLeaoFile). A GET that changes nothing.
func (h *Handlers) carneLeao(w http.ResponseWriter, r *http.Request) error {
	m, s, err := h.monthReceipts(r)
	if err != nil {
		return err
	}
	if len(s.Document) == 14 {
		return payments.ErrPayeeCNPJ
	}
	file, _ := payments.CarneLeaoFile(m.Receipts, s.Occupation)
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="carne-leao-`+m.Month+`.csv"`)
	w.Header().Set("Cache-Control", "no-store")
	_, err = w.Write(file)
	return err
}
