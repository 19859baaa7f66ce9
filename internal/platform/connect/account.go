package connect

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/secretbox"
)

// The webhook errors every provider answers the same way.
var (
	ErrHook      = httpx.NewError(http.StatusNotFound, "not_found", "Webhook não encontrado.")
	ErrSignature = httpx.NewError(http.StatusUnauthorized, "invalid_signature", "Assinatura do webhook inválida.")
)

// Field is one value of a connect form, kept in its own column; a Secret
// one is sealed at rest, never shown back, and may be left empty when a
// connection is replaced: the stored one stays.
type Field struct {
	Name   string // the seal's context and the key in Values ("token", "app_secret", "waba_id")
	Column string // the table's column ("access_token_sealed"); "" is Name
	Secret bool
}

func (f Field) column() string {
	if f.Column == "" {
		return f.Name
	}
	return f.Column
}

// Provider describes one kind of connection: the rest of the life-cycle is
// the kit's.
type Provider struct {
	// Name is the provider's word in seals' contexts ("<owner>:<name>.<field>")
	// and in the webhook's address (/webhooks/<name>/<key>).
	Name string
	// Table holds one row per owner: user_id (the key), every Field's
	// column, every Keys column, webhook_key, connected_at, updated_at.
	Table  string
	Fields []Field
	// Keys are more random values made at the first connection and kept
	// through every replacement, like webhook_key (WhatsApp's verify_token).
	Keys []string
	// Owned are the provider's other tables of an owner (by user_id),
	// emptied on disconnect before the account.
	Owned []string
	// Required answers a connection missing a field (after the stored
	// secrets were kept); NotConnected a disconnect with nothing connected.
	Required, NotConnected error
}

// Values are a connection's fields by Field.Name (and its keys by column).
type Values map[string]string

// Account is a stored connection. Its secrets are opened only by Load.
type Account struct {
	UserID      string
	Values      Values
	WebhookKey  string
	ConnectedAt time.Time
}

// Col is one of a provider's own columns read with the account into Into
// (a pointer, as for Scan).
type Col struct {
	Name string
	Into any
}

// Accounts is the life-cycle of one provider's accounts.
type Accounts struct {
	DB       *db.DB
	Box      *secretbox.Box
	Clock    clock.Clock
	BaseURL  string // the public origin webhook URLs are shown with
	Provider Provider
}

func (a *Accounts) sealCtx(userID, field string) string {
	return userID + ":" + a.Provider.Name + "." + field
}

// WebhookURL is the address the owner pastes in the provider's panel.
func (a *Accounts) WebhookURL(key string) string {
	return a.BaseURL + "/webhooks/" + a.Provider.Name + "/" + key
}

// Load reads an owner's connection with its secrets opened (nil when
// none), and the provider's own columns into more. A secret that no
// configured key opens is secretbox.ErrOpen.
func (a *Accounts) Load(ctx context.Context, q db.Querier, userID string, more ...Col) (*Account, error) {
	return a.read(ctx, q, userID, true, more)
}

// Peek reads an owner's connection without its secrets (nil when none):
// what a status shows, which a key change does not break.
func (a *Accounts) Peek(ctx context.Context, userID string, more ...Col) (*Account, error) {
	return a.read(ctx, a.DB, userID, false, more)
}

func (a *Accounts) read(ctx context.Context, q db.Querier, userID string, secrets bool, more []Col) (*Account, error) {
	acc := &Account{UserID: userID, Values: Values{}}
	var cols []string
	var dest []any
	raw := make([]string, len(a.Provider.Fields)+len(a.Provider.Keys))
	for i, f := range a.Provider.Fields {
		if f.Secret && !secrets {
			continue
		}
		cols, dest = append(cols, f.column()), append(dest, &raw[i])
	}
	for i, k := range a.Provider.Keys {
		cols, dest = append(cols, k), append(dest, &raw[len(a.Provider.Fields)+i])
	}
	cols, dest = append(cols, "webhook_key", "connected_at"), append(dest, &acc.WebhookKey, &acc.ConnectedAt)
	for _, c := range more {
		cols, dest = append(cols, c.Name), append(dest, c.Into)
	}
	err := q.QueryRowContext(ctx, `SELECT `+strings.Join(cols, ", ")+` FROM `+a.Provider.Table+` WHERE user_id = ?`, userID).Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for i, f := range a.Provider.Fields {
		switch {
		case !f.Secret:
			acc.Values[f.Name] = raw[i]
		case secrets:
			if acc.Values[f.Name], err = a.Box.Open(raw[i], a.sealCtx(userID, f.Name)); err != nil {
				return nil, err
			}
		}
	}
	for i, k := range a.Provider.Keys {
		acc.Values[k] = raw[len(a.Provider.Fields)+i]
	}
	return acc, nil
}

// Owner is the owner whose webhook key this is ("" when none).
func (a *Accounts) Owner(ctx context.Context, key string) (string, error) {
	var userID string
	err := a.DB.QueryRowContext(ctx, `SELECT user_id FROM `+a.Provider.Table+` WHERE webhook_key = ?`, key).Scan(&userID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return userID, err
}

// Hooked is the connection, secrets opened, of the webhook key in a
// request's path: ErrHook when no connection has it (or its secrets no
// longer open).
func (a *Accounts) Hooked(ctx context.Context, key string, more ...Col) (*Account, error) {
	userID, err := a.Owner(ctx, key)
	if err != nil {
		return nil, err
	}
	if userID == "" {
		return nil, ErrHook
	}
	acc, err := a.Load(ctx, a.DB, userID, more...)
	if err != nil || acc == nil {
		return nil, errors.Join(err, ErrHook)
	}
	return acc, nil
}

// Connected reports whether an owner has a working connection (its
// secrets open under the configured keys).
func (a *Accounts) Connected(ctx context.Context, userID string) (bool, error) {
	acc, err := a.Load(ctx, a.DB, userID)
	if errors.Is(err, secretbox.ErrOpen) {
		return false, nil
	}
	return acc != nil, err
}

// Verified is what a provider learnt checking a connection with it: more
// of its own columns to store (e.g. the account's display name), and
// Save, its own rows written in the account's transaction (nil: none).
type Verified struct {
	Columns map[string]any
	Save    func(ctx context.Context, tx *db.Tx) error
}

// Connection is one connect: the form's values, the provider's checks of
// their shape (before anything is read; nil: none) and its verification
// with the provider (with every field filled, the stored secrets kept).
type Connection struct {
	In     Values
	Check  func(in Values) error
	Verify func(ctx context.Context, in Values) (Verified, error)
}

// Connect trims the form's values, checks them, keeps each stored secret
// whose field is empty, verifies the whole with the provider, and keeps
// the connection with its secrets sealed; the keys (webhook_key, …) and
// connected_at of an earlier connection stay.
func (a *Accounts) Connect(ctx context.Context, userID string, c Connection) error {
	in := Values{}
	for _, f := range a.Provider.Fields {
		in[f.Name] = strings.TrimSpace(c.In[f.Name])
	}
	if c.Check != nil {
		if err := c.Check(in); err != nil {
			return err
		}
	}
	old, err := a.Load(ctx, a.DB, userID)
	if err != nil && !errors.Is(err, secretbox.ErrOpen) {
		return err
	}
	in = KeepSecrets(a.Provider.Fields, in, old)
	for _, f := range a.Provider.Fields {
		if in[f.Name] == "" {
			return a.Provider.Required
		}
	}
	v, err := c.Verify(ctx, in)
	if err != nil {
		return err
	}
	return a.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		if err := a.Save(ctx, tx, userID, in, v.Columns); err != nil {
			return err
		}
		if v.Save == nil {
			return nil
		}
		return v.Save(ctx, tx)
	})
}

// Save writes an owner's connection in tx (which holds the owner's lock):
// every Field from in, secrets sealed, and the provider's own columns;
// the keys (webhook_key, …) and connected_at of a stored connection stay.
// Connect ends with it; a provider whose values come from elsewhere than a
// form (an OAuth grant, its renewal) calls it in its own OwnerTx.
func (a *Accounts) Save(ctx context.Context, tx *db.Tx, userID string, in Values, columns map[string]any) error {
	now := a.Clock.Now().UTC()
	cols := []string{"user_id"}
	args := []any{userID}
	var update []string
	for _, f := range a.Provider.Fields {
		val := in[f.Name]
		if f.Secret {
			var err error
			if val, err = a.Box.Seal(val, a.sealCtx(userID, f.Name)); err != nil {
				return err
			}
		}
		cols, args, update = append(cols, f.column()), append(args, val), append(update, f.column())
	}
	for _, name := range slices.Sorted(maps.Keys(columns)) { // one statement text per provider
		cols, args, update = append(cols, name), append(args, columns[name]), append(update, name)
	}
	// New keys for a first connection; a stored one keeps its own (the
	// conflict's update leaves them alone).
	for _, k := range append([]string{"webhook_key"}, a.Provider.Keys...) {
		cols, args = append(cols, k), append(args, RandomToken(24))
	}
	cols, args, update = append(cols, "connected_at", "updated_at"), append(args, now, now), append(update, "updated_at")
	set := make([]string, len(update))
	for i, c := range update {
		set[i] = c + " = excluded." + c
	}
	upsert := `INSERT INTO ` + a.Provider.Table + ` (` + strings.Join(cols, ", ") + `) VALUES (?` + strings.Repeat(", ?", len(cols)-1) +
		`) ON CONFLICT (user_id) DO UPDATE SET ` + strings.Join(set, ", ")
	_, err := tx.ExecContext(ctx, upsert, args...)
	return err
}

// Seal seals one more secret of an owner's connection for the provider's
// own column (bound to the owner and name, as the Fields' are); Open opens it.
func (a *Accounts) Seal(userID, name, value string) (string, error) {
	return a.Box.Seal(value, a.sealCtx(userID, name))
}

// Open opens what Seal sealed.
func (a *Accounts) Open(userID, name, sealed string) (string, error) {
	return a.Box.Open(sealed, a.sealCtx(userID, name))
}

// KeepSecrets is the replacement rule: a secret field left empty takes the
// stored connection's value (old nil: nothing stored, nothing kept). Other
// fields are what the form says.
func KeepSecrets(fields []Field, in Values, old *Account) Values {
	out := Values{}
	for _, f := range fields {
		out[f.Name] = in[f.Name]
		if f.Secret && out[f.Name] == "" && old != nil {
			out[f.Name] = old.Values[f.Name]
		}
	}
	return out
}

// Disconnect removes the connection, its sealed secrets and the
// provider's Owned rows of the owner; Provider.NotConnected when there was none.
func (a *Accounts) Disconnect(ctx context.Context, userID string) error {
	return a.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		for _, t := range a.Provider.Owned {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+t+` WHERE user_id = ?`, userID); err != nil {
				return err
			}
		}
		return db.ExecOwned(ctx, tx, a.Provider.NotConnected, `DELETE FROM `+a.Provider.Table+` WHERE user_id = ?`, userID)
	})
}

// RandomToken is n random bytes, URL-safe base64: a webhook's key, a
// verify token.
func RandomToken(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
