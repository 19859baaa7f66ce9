package payments

// Receita Saúde and the Carnê-Leão Web (issue 43 §4). Since 2025 a
// self-employed health professional issues each receipt through the
// Receita Federal's Receita Saúde (IN RFB 2.240/2024), with the payer's CPF;
// the payments received in a month are also the rendimentos of the
// Carnê-Leão, which imports them from a file. Agendei keeps the payer's CPF
// on the appointments, lists each payment received (a deposit, or what the
// owner marked paid), prints a receipt for each and writes the month's
// file.

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agendei/agendei/internal/pix"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/profiles"
	"github.com/agendei/agendei/internal/team"
)

// ReceiptSettings is the owner's "Emitir recibos do Receita Saúde".
type ReceiptSettings struct {
	Enabled bool `json:"enabled"`
	// Document is the payee's CPF (11 digits) or CNPJ (14 digits).
	Document string `json:"document"`
	// Occupation is the Carnê-Leão occupation code of the rendimentos
	// (Occupations).
	Occupation string `json:"occupation"`
}

// Occupations are the Carnê-Leão Web's occupation codes of the health
// professions Agendei serves (the manual's "Tabelas auxiliares" →
// Ocupações; 230–232 replace 229 from the 2024 calendar year, IN RFB
// 2.177/2024).
var Occupations = map[string]string{
	"255": "Psicólogo", "254": "Psicanalista", "225": "Médico", "226": "Odontólogo",
	"227": "Enfermeiro de nível superior, nutricionista, farmacêutico e afins", "230": "Fonoaudiólogo",
	"231": "Fisioterapeuta", "232": "Terapeuta ocupacional", "224": "Profissional da educação física (exceto professor)",
	"221": "Biólogo, biomédico e afins", "515": "Trabalhador dos serviços de saúde",
}

var (
	errDocument   = httpx.Validation("CPF ou CNPJ inválido: confira os dígitos (11 do CPF ou 14 do CNPJ).")
	errOccupation = httpx.Validation("Escolha a ocupação do Carnê-Leão (por exemplo, 255 — Psicólogo).")
	// ErrPayerCPF is a payer's CPF whose check digits are wrong.
	ErrPayerCPF = httpx.Validation("CPF inválido: confira os 11 dígitos.")
)

func digits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// NormalizeCPF reads a CPF as typed ("529.982.247-25") into its 11 digits,
// "" for nothing typed, ErrPayerCPF when it is not a CPF.
func NormalizeCPF(raw string) (string, error) {
	if strings.TrimSpace(raw) == "" {
		return "", nil
	}
	d := digits(raw)
	if utf8.RuneCountInString(raw) > 20 || !pix.CPF(d) {
		return "", ErrPayerCPF
	}
	return d, nil
}

// ValidateReceiptSettings checks and tidies the settings: with receipts on,
// a CPF or CNPJ with right check digits and a known occupation. Off keeps
// whatever was typed, checked the same when given.
func ValidateReceiptSettings(s *ReceiptSettings) error {
	d := digits(s.Document)
	switch {
	case d == "" && strings.TrimSpace(s.Document) == "" && !s.Enabled:
	case len(d) == 11 && pix.CPF(d), len(d) == 14 && pix.CNPJ(d):
	default:
		return errDocument
	}
	s.Document = d
	s.Occupation = strings.TrimSpace(s.Occupation)
	if _, ok := Occupations[s.Occupation]; !ok && (s.Enabled || s.Occupation != "") {
		return errOccupation
	}
	return nil
}

// ReadReceiptSettings reads the owner's settings (zero when none).
func ReadReceiptSettings(ctx context.Context, q db.Querier, ownerID string) (ReceiptSettings, error) {
	var s ReceiptSettings
	err := q.QueryRowContext(ctx, `SELECT receipts_enabled, payee_document, payee_occupation FROM profiles WHERE id = ?`, ownerID).
		Scan(&s.Enabled, &s.Document, &s.Occupation)
	if err == sql.ErrNoRows {
		return ReceiptSettings{}, nil
	}
	return s, err
}

// SaveReceiptSettings writes validated settings.
func SaveReceiptSettings(ctx context.Context, q db.Querier, ownerID string, s ReceiptSettings, now time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE profiles SET receipts_enabled = ?, payee_document = ?, payee_occupation = ?, updated_at = ? WHERE id = ?`,
		s.Enabled, s.Document, s.Occupation, now, ownerID)
	return err
}

// Receipt is one payment received: a deposit, or the rest of a session's
// price on the day the owner marked it paid. Each is one receipt of the
// Receita Saúde and one line of the Carnê-Leão file.
type Receipt struct {
	AppointmentID string `json:"appointmentId"`
	// Part is "deposit" (the sinal) or "payment" (the rest, or the whole).
	Part         string `json:"part"`
	Date         string `json:"date"` // the payment's day, YYYY-MM-DD in the owner's zone
	AmountCents  int64  `json:"amountCents"`
	AmountWords  string `json:"amountWords"`
	SessionDate  string `json:"sessionDate"`
	Service      string `json:"service"`
	Professional string `json:"professional"`
	Council      string `json:"council"` // "CRP 06/12345"; "" when none
	PayerName    string `json:"payerName"`
	PayerCPF     string `json:"payerCpf"` // 11 digits; "" when not given: no file line
}

// ReceivedIn lists the payments received in a month ("2026-11"), by their
// day in the owner's zone, oldest first.
func ReceivedIn(ctx context.Context, q db.Querier, ownerID, month string, now time.Time) ([]Receipt, error) {
	first, _, err := ParseMonth(month)
	if err != nil {
		return nil, err
	}
	loc, err := profiles.Zone(ctx, q, ownerID)
	if err != nil {
		return nil, err
	}
	f, _ := time.ParseInLocation("2006-01-02", first, loc)
	start, end := f.UTC(), f.AddDate(0, 1, 0).UTC()
	type row struct {
		Line
		council, uf, number, payer, cpf string
	}
	var rows []row
	err = db.Each(ctx, q, `SELECT `+lineColumns+`, COALESCE(p.council, ''), COALESCE(p.council_uf, ''), COALESCE(p.council_number, ''), a.client_name, a.payer_cpf`+
		fromJoin+`LEFT JOIN professionals p ON p.id = a.professional_id AND p.user_id = a.user_id
		WHERE a.user_id = ? AND ((a.paid_at >= ? AND a.paid_at < ?) OR (d.paid_at >= ? AND d.paid_at < ?))
		ORDER BY a.appointment_date, a.appointment_time, a.id`,
		append(append([]any{}, receivedStates...), ownerID, start, end, start, end), func(r *sql.Rows) error {
			var x row
			var paidAt, depositAt sql.NullTime
			if err := r.Scan(&x.AppointmentID, &x.Date, &x.Time, &x.Service, &x.Professional, &x.Status, &x.PriceCents, &paidAt, &x.paidBy,
				&x.DepositCents, &depositAt, &x.council, &x.uf, &x.number, &x.payer, &x.cpf); err != nil {
				return err
			}
			if paidAt.Valid {
				t := paidAt.Time.UTC()
				x.PaidAt = &t
			}
			if depositAt.Valid {
				t := depositAt.Time.UTC()
				x.DepositAt = &t
			} else {
				x.DepositCents = 0
			}
			x.settle(now)
			rows = append(rows, x)
			return nil
		})
	if err != nil {
		return nil, err
	}
	in := func(t *time.Time) bool { return t != nil && !t.Before(start) && t.Before(end) }
	out := []Receipt{}
	for _, x := range rows {
		base := Receipt{AppointmentID: x.AppointmentID, SessionDate: x.Date, Service: x.Service, Professional: x.Professional,
			Council: team.CouncilLabel(x.council, x.uf, x.number), PayerName: x.payer, PayerCPF: x.cpf}
		if in(x.DepositAt) && x.DepositCents > 0 {
			r := base
			r.Part, r.Date, r.AmountCents = "deposit", x.DepositAt.In(loc).Format("2006-01-02"), x.DepositCents
			out = append(out, r)
		}
		if rest := x.PriceCents - x.DepositCents; in(x.PaidAt) && x.Billable && rest > 0 {
			r := base
			r.Part, r.Date, r.AmountCents = "payment", x.PaidAt.In(loc).Format("2006-01-02"), rest
			out = append(out, r)
		}
	}
	for i := range out {
		out[i].AmountWords = brfmt.MoneyWords(out[i].AmountCents)
	}
	// By the day paid, then as listed (the session's order).
	sortStable(out)
	return out, nil
}

func sortStable(rs []Receipt) {
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && rs[j].Date < rs[j-1].Date; j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
}

// CarneLeaoLayout names the layout CarneLeaoFile writes, for its comment
// and the docs.
//
// The Receita Federal's "Manual do Carnê-Leão", section "Escrituração" →
// importação (https://www.gov.br/receitafederal/pt-br/assuntos/meu-imposto-de-renda/pagamento/carne-leao/manual),
// and its "Modelos de escrituração para o Carnê-Leão" (escrituracao-carne-leao.zip,
// updated 20/10/2025, under .../centrais-de-conteudo/publicacoes/documentos-tecnicos/escrituracao-do-carne-leao):
// a CSV of up to 1,000 lines, fields separated by ";", one rendimento a line,
// no header line, 13 fields:
//
//  1. Data — DD/MM/AAAA, the day received
//  2. Código do rendimento — R01.001.001, trabalho não assalariado
//  3. Código de ocupação — the occupation table's code (255 psicólogo…)
//  4. Valor recebido — reais with a decimal comma, "150,00"
//  5. Valor de dedução — empty (only for rents)
//  6. Histórico — free text, at most 255 characters, no ";"
//  7. Recebido de — PF (pessoa física)
//  8. CPF do titular do pagamento — 11 digits (who paid)
//  9. CPF do beneficiário — 11 digits (who was attended; here the payer,
//     Agendei keeps one CPF a client)
//  10. CPF do beneficiário não informado — empty (a CPF is given)
//  11. CNPJ — empty (PJ only)
//  12. Houve IRRF — empty (PJ only)
//  13. Valor do IRRF — empty
//
// The models' own example line of "trabalho não assalariado" from a
// pessoa física is the shape TestCarneLeaoFile_FollowsTheModelsExample
// checks. The zip itself could not be opened from this build's machine
// (gov.br is out of its reach); the 13 fields, their order, the example
// lines of the "Trabalho não assalariado" model (with a beneficiary's CPF;
// without one, "S" in field 10; from a PJ, CNPJ and "S"/"N" in 11–12) and
// the occupation codes (229 until 2023, 230/231/232 from 2024, IN RFB
// 2.177/2024) agree with an independent public transcription of the same
// 20/10/2025 models, checked on 28/11/2026. The first import of a real
// month should still be looked at in the Carnê-Leão Web.
const CarneLeaoLayout = "Carnê-Leão Web, importação de escrituração (rendimentos), modelos de 20/10/2025"

// CarneLeaoMaxLines is the import's bound of lines a file.
const CarneLeaoMaxLines = 1000

// CarneLeaoFile writes the month's rendimentos in the import's layout: the
// receipts with a payer's CPF, one line each (those without one are left
// out: the import refuses a pessoa física's rendimento without it), at most
// CarneLeaoMaxLines. It also answers how many were left out.
func CarneLeaoFile(receipts []Receipt, occupation string) (file []byte, missingCPF int) {
	var b bytes.Buffer
	n := 0
	for _, r := range receipts {
		if r.PayerCPF == "" {
			missingCPF++
			continue
		}
		if n == CarneLeaoMaxLines {
			break
		}
		n++
		d, _ := time.Parse("2006-01-02", r.Date)
		history := "Atendimento de " + brfmt.Date(r.SessionDate) + " - " + r.Service
		if r.Part == "deposit" {
			history = "Sinal do atendimento de " + brfmt.Date(r.SessionDate) + " - " + r.Service
		}
		fields := []string{d.Format("02/01/2006"), "R01.001.001", occupation, fmt.Sprintf("%d,%02d", r.AmountCents/100, r.AmountCents%100), "",
			historyText(history), "PF", r.PayerCPF, r.PayerCPF, "", "", "", ""}
		b.WriteString(strings.Join(fields, ";"))
		b.WriteString("\r\n")
	}
	return b.Bytes(), missingCPF
}

// historyText is a Histórico the import takes: one line, no ";", at most
// 255 characters.
func historyText(s string) string {
	s = brfmt.OneLine(strings.NewReplacer(";", ",", "\"", "'").Replace(s))
	if utf8.RuneCountInString(s) > 255 {
		s = string([]rune(s)[:255])
	}
	return s
}

// ErrPayeeCNPJ: the Carnê-Leão is a pessoa física's; a CNPJ files its
// receipts otherwise.
var ErrPayeeCNPJ = httpx.NewError(http.StatusConflict, "payee_cnpj",
	"O Carnê-Leão é de pessoa física: com CNPJ, os recibos são emitidos pela nota fiscal do seu CNPJ, não por este arquivo.")
