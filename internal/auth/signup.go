// Signup: a new account with its profile, signed in at once.

package auth

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/platform/db"
)

// SignupInput is the signup payload.
type SignupInput struct {
	Name            string `json:"name"`
	Email           string `json:"email"`
	Password        string `json:"password"`
	RecoveryKeyword string `json:"recoveryKeyword"`
}

// Signup creates a confirmed account with its profile and signs it in. An
// existing e-mail is refused; it never replaces that account.
func (s *Service) Signup(ctx context.Context, in SignupInput, ip string) (*Session, error) {
	name := strings.TrimSpace(in.Name)
	password := strings.TrimSpace(in.Password)
	keyword := strings.TrimSpace(in.RecoveryKeyword)
	if name == "" || strings.TrimSpace(in.Email) == "" || password == "" || keyword == "" {
		return nil, errRequiredSignup
	}
	email, err := NormalizeEmail(in.Email)
	if err != nil {
		return nil, err
	}
	if utf8.RuneCountInString(name) > maxName {
		return nil, errNameLong
	}
	if err := checkSecrets(password, keyword); err != nil {
		return nil, err
	}
	if err := s.limiter.Check(ctx, ruleSignupIP, ip); err != nil {
		return nil, err
	}
	if err := s.limiter.Check(ctx, ruleSignupEmail, email); err != nil {
		return nil, err
	}
	if existing, err := userByEmail(ctx, s.db, email); err != nil {
		return nil, err
	} else if existing != nil {
		return nil, errEmailTaken
	}
	pwHash, kwHash, err := hashSecrets(password, keyword)
	if err != nil {
		return nil, err
	}
	u := &user{ID: uuid.NewString(), Email: email}
	var sess *Session
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		if _, err := tx.ExecContext(ctx, `INSERT INTO users (id, email, password_hash, keyword_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
			u.ID, email, pwHash, kwHash, now, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO profiles (id, name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			u.ID, name, email, now, now); err != nil {
			return err
		}
		var err error
		sess, err = s.newSession(ctx, tx, u, "")
		return err
	})
	if db.IsUniqueViolation(err) {
		return nil, errEmailTaken // lost a race with a signup for the same e-mail
	}
	return sess, err
}
