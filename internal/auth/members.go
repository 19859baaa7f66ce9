// A practice's professionals sign in as themselves (issue 43 §0): the owner
// invites a professional of the team by e-mail, the professional sets a
// password and a recovery keyword through the one-time link, and from then
// on signs in like anyone. A professional's account is a users row whose
// owner_id is the practice; members ties it to the professional of the team.
// The owner revokes the access in one tap: the account's sessions end at
// once (its session generation moves on), and sign-in is refused until the
// owner invites again.

package auth

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	agmail "github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/ratelimit"
)

// InviteTTL is how long an invitation's link works.
const InviteTTL = 7 * 24 * time.Hour

// ruleInviteOwner bounds the invitations (e-mails) one owner sends a day.
var ruleInviteOwner = ratelimit.Rule{Name: "invite:owner", Max: 30, Window: 24 * time.Hour}

var (
	errOwnerOnly          = httpx.NewError(http.StatusForbidden, "owner_only", "Esta área é do titular da conta. Fale com o titular se precisar dela.")
	errMemberEnded        = httpx.NewError(http.StatusForbidden, "member_revoked", "Seu acesso a esta agenda foi encerrado pelo titular da conta.")
	errInviteInvalid      = httpx.NewError(http.StatusNotFound, "invite_invalid", "Este convite é inválido, já foi usado ou expirou. Peça um novo convite ao titular da agenda.")
	errMemberNotFound     = httpx.NewError(http.StatusNotFound, "not_found", "Profissional não encontrado.")
	errMemberEmailTaken   = httpx.NewError(http.StatusConflict, "email_taken", "Este e-mail já tem outra conta no Agendei. Convide o profissional com outro e-mail.")
	errMemberEmailMissing = httpx.Validation("Informe o e-mail do profissional para enviar o convite.")
	errMemberActive       = httpx.NewError(http.StatusConflict, "member_active", "Este profissional já entra com o próprio acesso. Encerre o acesso antes de convidar outro e-mail.")
	errInviteLimit        = httpx.NewError(http.StatusTooManyRequests, "rate_limited", "Você enviou muitos convites hoje. Tente novamente amanhã.")
)

// Member is a professional's sign-in as the owner's team screen shows it.
type Member struct {
	ProfessionalID string     `json:"professionalId"`
	Email          string     `json:"email"`
	State          string     `json:"state"` // invited, active, revoked
	ExpiresAt      *time.Time `json:"expiresAt,omitempty"`
}

// activeMember is the professional an account is, while its access stands
// ("" when it was revoked or the professional deleted).
func activeMember(ctx context.Context, q db.Querier, userID string) (string, error) {
	var pro string
	err := q.QueryRowContext(ctx, `SELECT professional_id FROM members WHERE user_id = ? AND state = 'active'`, userID).Scan(&pro)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return pro, err
}

// Members lists the owner's professionals' sign-ins.
func (s *Service) Members(ctx context.Context, ownerID string) ([]Member, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT professional_id, email, state, invite_expires_at FROM members WHERE owner_id = ? ORDER BY created_at, professional_id`, ownerID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Member{}
	for rows.Next() {
		var m Member
		var exp sql.NullTime
		if err := rows.Scan(&m.ProfessionalID, &m.Email, &m.State, &exp); err != nil {
			return nil, err
		}
		if exp.Valid && m.State == "invited" {
			t := exp.Time.UTC()
			m.ExpiresAt = &t
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Invite sends a professional of the owner's team a link to set their own
// sign-in (again, with a fresh link, when an earlier one was not used or the
// access was revoked).
func (s *Service) Invite(ctx context.Context, ownerID, professionalID, rawEmail string) (*Member, error) {
	if strings.TrimSpace(rawEmail) == "" {
		return nil, errMemberEmailMissing
	}
	email, err := NormalizeEmail(rawEmail)
	if err != nil {
		return nil, err
	}
	token, hash := OpaqueToken()
	var m Member
	err = s.db.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		now := s.clock.Now()
		var proName, practice string
		err := tx.QueryRowContext(ctx, `SELECT pr.name, COALESCE(p.name, '') FROM professionals pr LEFT JOIN profiles p ON p.id = pr.user_id
			WHERE pr.id = ? AND pr.user_id = ?`, professionalID, ownerID).Scan(&proName, &practice)
		if errors.Is(err, sql.ErrNoRows) {
			return errMemberNotFound
		}
		if err != nil {
			return err
		}
		var state string
		var account sql.NullString
		err = tx.QueryRowContext(ctx, `SELECT state, user_id FROM members WHERE professional_id = ?`, professionalID).Scan(&state, &account)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if state == "active" {
			return errMemberActive
		}
		// The e-mail may be nobody's, or this professional's own account
		// (invited again after a revoke); never another account.
		var other string
		err = tx.QueryRowContext(ctx, `SELECT id FROM users WHERE email = ?`, email).Scan(&other)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if other != "" && other != account.String {
			return errMemberEmailTaken
		}
		if ok, _, err := ratelimit.AllowTx(ctx, tx, now, ruleInviteOwner, ownerID); err != nil {
			return err
		} else if !ok {
			return errInviteLimit
		}
		expires := now.Add(InviteTTL)
		if state == "" {
			_, err = tx.ExecContext(ctx, `INSERT INTO members (professional_id, owner_id, email, invite_hash, invite_expires_at, state, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, 'invited', ?, ?)`, professionalID, ownerID, email, hash, expires, now, now)
		} else {
			_, err = tx.ExecContext(ctx, `UPDATE members SET email = ?, invite_hash = ?, invite_expires_at = ?, state = 'invited', updated_at = ? WHERE professional_id = ?`,
				email, hash, expires, now, professionalID)
		}
		if err != nil {
			return err
		}
		m = Member{ProfessionalID: professionalID, Email: email, State: "invited", ExpiresAt: &expires}
		return s.queueMail(ctx, tx, email, inviteEmail(s.baseURL+"/convite/"+token, proName, practice))
	})
	if err != nil {
		return nil, err
	}
	return &m, nil
}

// Revoke ends a professional's access: an unused invitation stops working,
// and the account's sessions end at once, on every device.
func (s *Service) Revoke(ctx context.Context, ownerID, professionalID string) error {
	var account string
	err := s.db.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		var err error
		account, err = revokeMember(ctx, tx, s.clock.Now(), ownerID, professionalID)
		return err
	})
	if account != "" {
		s.sessions.forget(account, "")
	}
	return err
}

// revokeMember ends the access in the caller's transaction and returns the
// professional's account ("" when they never accepted).
func revokeMember(ctx context.Context, tx *db.Tx, now time.Time, ownerID, professionalID string) (string, error) {
	var account sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT user_id FROM members WHERE professional_id = ? AND owner_id = ?`, professionalID, ownerID).Scan(&account)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errMemberNotFound
	}
	if err != nil {
		return "", err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE members SET state = 'revoked', invite_hash = NULL, invite_expires_at = NULL, updated_at = ? WHERE professional_id = ?`,
		now, professionalID); err != nil {
		return "", err
	}
	if account.Valid {
		if err := endAllSessions(ctx, tx, account.String, now); err != nil {
			return "", err
		}
	}
	return account.String, nil
}

// DropMember removes a professional's account with the professional (team's
// delete, in its transaction): nothing of it can sign in again. The records
// the professional signed keep their author's name and council (issue 43 §1).
func DropMember(ctx context.Context, tx *db.Tx, ownerID, professionalID string) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM users WHERE owner_id = ? AND id = (SELECT user_id FROM members WHERE professional_id = ? AND owner_id = ?)`,
		ownerID, professionalID, ownerID)
	return err
}

// Invitation is what the invitation's page shows before the professional
// sets a password.
type Invitation struct {
	Practice     string `json:"practice"`
	Professional string `json:"professional"`
	Email        string `json:"email"`
}

func (s *Service) invitation(ctx context.Context, q db.Querier, token string) (inv Invitation, professionalID, ownerID string, account sql.NullString, err error) {
	if token == "" {
		return inv, "", "", account, errInviteInvalid
	}
	err = q.QueryRowContext(ctx, `SELECT m.professional_id, m.owner_id, m.email, m.user_id, pr.name, COALESCE(p.name, '')
		FROM members m JOIN professionals pr ON pr.id = m.professional_id LEFT JOIN profiles p ON p.id = m.owner_id
		WHERE m.invite_hash = ? AND m.state = 'invited' AND m.invite_expires_at > ?`, HashToken(token), s.clock.Now()).
		Scan(&professionalID, &ownerID, &inv.Email, &account, &inv.Professional, &inv.Practice)
	if errors.Is(err, sql.ErrNoRows) {
		err = errInviteInvalid
	}
	return inv, professionalID, ownerID, account, err
}

// Invitation reads an invitation by its link (a GET: it changes nothing).
func (s *Service) Invitation(ctx context.Context, token string) (*Invitation, error) {
	inv, _, _, _, err := s.invitation(ctx, s.db, token)
	if err != nil {
		return nil, err
	}
	return &inv, nil
}

// AcceptInput is what the professional sets on the invitation's page.
type AcceptInput struct {
	Password        string `json:"password"`
	RecoveryKeyword string `json:"recoveryKeyword"`
}

// AcceptInvite uses the invitation once: the professional's account gets its
// password and recovery keyword (a new account, or the one a revoke left),
// the access becomes active, and the professional is signed in.
func (s *Service) AcceptInvite(ctx context.Context, token string, in AcceptInput, ip string) (*Session, error) {
	password := strings.TrimSpace(in.Password)
	keyword := strings.TrimSpace(in.RecoveryKeyword)
	if password == "" || keyword == "" {
		return nil, errResetRequired
	}
	if err := checkSecrets(password, keyword); err != nil {
		return nil, err
	}
	if err := s.limiter.Check(ctx, ruleSignupIP, ip); err != nil {
		return nil, err
	}
	if _, _, _, _, err := s.invitation(ctx, s.db, token); err != nil {
		return nil, err // before hashing: a bad link costs no argon2
	}
	pwHash, kwHash, err := hashSecrets(password, keyword)
	if err != nil {
		return nil, err
	}
	var sess *Session
	var ended string
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		inv, professionalID, ownerID, account, err := s.invitation(ctx, tx, token)
		if err != nil {
			return err
		}
		if err := tx.LockOwner(ctx, ownerID); err != nil {
			return err
		}
		now := s.clock.Now()
		id := account.String
		if id == "" {
			id = uuid.NewString()
			if _, err := tx.ExecContext(ctx, `INSERT INTO users (id, email, password_hash, keyword_hash, owner_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				id, inv.Email, pwHash, kwHash, ownerID, now, now); err != nil {
				if db.IsUniqueViolation(err) {
					return errMemberEmailTaken
				}
				return err
			}
		} else {
			// The account a revoke left: new secrets, and whatever sign-in
			// it had stays ended.
			if _, err := tx.ExecContext(ctx, `UPDATE users SET email = ?, password_hash = ?, keyword_hash = ?, reset_failures = 0, reset_locked_until = NULL, updated_at = ? WHERE id = ? AND owner_id = ?`,
				inv.Email, pwHash, kwHash, now, id, ownerID); err != nil {
				if db.IsUniqueViolation(err) {
					return errMemberEmailTaken
				}
				return err
			}
			if err := endAllSessions(ctx, tx, id, now); err != nil {
				return err
			}
			ended = id
		}
		if _, err := tx.ExecContext(ctx, `UPDATE members SET user_id = ?, state = 'active', invite_hash = NULL, invite_expires_at = NULL, updated_at = ? WHERE professional_id = ?`,
			id, now, professionalID); err != nil {
			return err
		}
		u, err := userByID(ctx, tx, id)
		if err != nil {
			return err
		}
		sess, err = s.newSession(ctx, tx, u, "")
		return err
	})
	if ended != "" {
		s.sessions.forget(ended, "")
	}
	return sess, err
}

func inviteEmail(link, professional, practice string) agmail.Content {
	where := "a agenda"
	if practice != "" {
		where = "a agenda de " + practice
	}
	return agmail.Content{
		Subject:  "Seu acesso à agenda no Agendei",
		Greeting: "Olá, " + professional + "!",
		Paragraphs: []string{
			"Você foi convidado(a) para entrar em " + where + " no Agendei com o seu próprio acesso: você verá a sua agenda e os seus clientes, e poderá marcar e remarcar os seus atendimentos.",
			"Use o botão abaixo para criar sua senha e sua palavra-chave de recuperação. O link vale por 7 dias e pode ser usado uma única vez.",
		},
		Button: &agmail.Link{Label: "Criar meu acesso", URL: link},
		Footer: "Você recebeu este e-mail porque o titular desta agenda informou este endereço. Se não esperava o convite, ignore este e-mail.",
	}
}

func (h *Handlers) members(w http.ResponseWriter, r *http.Request) error {
	ms, err := h.svc.Members(r.Context(), UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, map[string]any{"members": ms}, err)
}

func (h *Handlers) invite(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Email string `json:"email"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	m, err := h.svc.Invite(r.Context(), UserID(r.Context()), r.PathValue("id"), in.Email)
	return httpx.Respond(w, http.StatusOK, m, err)
}

func (h *Handlers) revoke(w http.ResponseWriter, r *http.Request) error {
	if err := h.svc.Revoke(r.Context(), UserID(r.Context()), r.PathValue("id")); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, success)
	return nil
}

func (h *Handlers) inviteInfo(w http.ResponseWriter, r *http.Request) error {
	inv, err := h.svc.Invitation(r.Context(), r.PathValue("token"))
	return httpx.Respond(w, http.StatusOK, inv, err)
}

func (h *Handlers) acceptInvite(w http.ResponseWriter, r *http.Request) error {
	var in AcceptInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	sess, err := h.svc.AcceptInvite(r.Context(), r.PathValue("token"), in, h.ip(r))
	if err != nil {
		return err
	}
	h.writeSession(w, http.StatusOK, sess)
	return nil
}
