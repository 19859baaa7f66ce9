// The owner's LGPD copy (Lei 13.709/2018 art. 18 II and V, art. 19 II):
// everything the account keeps about the owner and the practice, as one
// JSON file. Each domain adds its part with OnCopy, as each adds its own
// clean-up with OnDelete; this package writes the account's own.

package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"time"
)

// CopyPart is one part of the owner's copy: its key in the file and what
// the owner's answers say (the same views the screens read, so a secret an
// answer never carries is never in the copy either).
type CopyPart struct {
	Key  string
	Read func(ctx context.Context, userID string) (any, error)
}

// OnCopy adds a part to the owner's copy, in the order of the calls.
func (s *Service) OnCopy(key string, read func(ctx context.Context, userID string) (any, error)) {
	s.copyParts = append(s.copyParts, CopyPart{Key: key, Read: read})
}

// copyAccount is the account's own part: who signs in and how, never a
// password, keyword or token (kept only as hashes, which the file says).
type copyAccount struct {
	ID          string       `json:"id"`
	Email       string       `json:"email"`
	CreatedAt   time.Time    `json:"createdAt"`
	Password    string       `json:"senha"`
	Keyword     string       `json:"palavraDeRecuperacao"`
	SignIns     []copySignIn `json:"sessoesAtivas"`
	Secrets     string       `json:"segredos"`
	ClientsNote string       `json:"clientes"`
}

// copySignIn is one device still signed in: its sign-in's live token.
type copySignIn struct {
	RenewedAt time.Time `json:"renovadaEm"`
	ExpiresAt time.Time `json:"expiraEm"`
}

const (
	copyHashed  = "guardada apenas como hash (argon2id); não há como exportá-la"
	copySecrets = "Endereços de agenda, senhas de aplicativo e tokens de Google, WhatsApp e Mercado Pago ficam guardados selados (criptografados) e não saem nesta cópia; cada conexão aparece com o que a tela mostra dela."
	copyClients = "Os dados dos seus clientes e agendamentos saem em Clientes: \"Exportar CSV\" e, por cliente, \"Exportar dados (LGPD)\"."
)

// Copy writes the owner's copy as JSON: when it was made, the account, then
// every part in order. A part that fails fails the copy (never a partial
// file that looks whole).
func (s *Service) Copy(ctx context.Context, userID string) ([]byte, error) {
	a := copyAccount{Password: copyHashed, Secrets: copySecrets, ClientsNote: copyClients, SignIns: []copySignIn{}}
	var keyword *string
	if err := s.db.QueryRowContext(ctx, `SELECT id, email, created_at, keyword_hash FROM users WHERE id = ?`, userID).
		Scan(&a.ID, &a.Email, &a.CreatedAt, &keyword); err != nil {
		return nil, err
	}
	a.Keyword = "não configurada"
	if keyword != nil {
		a.Keyword = copyHashed
	}
	// A sign-in is a family of rotated refresh tokens; its live token says since and until when.
	rows, err := s.db.QueryContext(ctx, `SELECT created_at, expires_at FROM refresh_tokens
		WHERE user_id = ? AND revoked_at IS NULL AND used_at IS NULL AND expires_at > ? ORDER BY created_at`, userID, s.clock.Now())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var c copySignIn
		if err := rows.Scan(&c.RenewedAt, &c.ExpiresAt); err != nil {
			return nil, err
		}
		a.SignIns = append(a.SignIns, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}

	var b bytes.Buffer
	b.WriteString("{\n")
	write := func(key string, v any, last bool) error {
		k, _ := json.Marshal(key)
		body, err := json.MarshalIndent(v, "  ", "  ")
		if err != nil {
			return err
		}
		b.WriteString("  ")
		b.Write(k)
		b.WriteString(": ")
		b.Write(body)
		if !last {
			b.WriteString(",")
		}
		b.WriteString("\n")
		return nil
	}
	if err := write("geradoEm", s.clock.Now().UTC(), false); err != nil {
		return nil, err
	}
	if err := write("conta", a, len(s.copyParts) == 0); err != nil {
		return nil, err
	}
	for i, p := range s.copyParts {
		v, err := p.Read(ctx, userID)
		if err != nil {
			return nil, err
		}
		if err := write(p.Key, v, i == len(s.copyParts)-1); err != nil {
			return nil, err
		}
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}
