package calendars

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/gcal"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// KindGoogle is a professional's Google account, connected with one button
// ("Conectar Google Agenda", issue 42 §3) and read by freeBusy; it names the
// source of its busy time too.
const KindGoogle = "google"

// GoogleStateLife is how long a started "Conectar Google Agenda" may take
// to come back from Google's consent page.
const GoogleStateLife = 10 * time.Minute

// maxGoogleStarts is how many unfinished starts an owner may have at once;
// another forgets the oldest.
const maxGoogleStarts = 5

// freeBusyDays is the longest range one freeBusy query asks for (Google
// refuses long ones with timeRangeTooLong; 60 days is well inside).
const freeBusyDays = 60

// Google is the operator's OAuth client and the access tokens of the
// connected accounts, kept only in memory (the refresh token is sealed in
// calendar_sources.secret_sealed).
type Google struct {
	App *gcal.App
	// Webhook is where Google posts push notices (PushAddress; "" polls),
	// and ChannelKey signs each channel's token (google_watch.go).
	Webhook    string
	ChannelKey []byte

	mu     sync.Mutex
	access map[string]gcal.Token // by calendar_sources.id
}

// NewGoogle is the Google source of the operator's client.
func NewGoogle(app *gcal.App) *Google {
	return &Google{App: app, access: map[string]gcal.Token{}}
}

func (g *Google) remember(id string, t gcal.Token) {
	g.mu.Lock()
	defer g.mu.Unlock()
	t.Refresh = "" // never kept in memory: it is sealed at rest
	g.access[id] = t
}

func (g *Google) forget(id string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.access, id)
}

// token is a live access token for the account: the one in memory while it
// lasts another minute, or a new one from its refresh token.
func (g *Google) token(ctx context.Context, id, refresh string, now time.Time) (string, error) {
	g.mu.Lock()
	t, ok := g.access[id]
	g.mu.Unlock()
	if ok && now.Add(time.Minute).Before(t.Expiry) {
		return t.Access, nil
	}
	t, err := g.App.Refresh(ctx, refresh, now)
	if err != nil {
		return "", err
	}
	g.remember(id, t)
	return t.Access, nil
}

// RefusedGoogle is what the card and the dashboard say of an account whose
// grant Google no longer accepts (revoked in the Google account, expired).
const RefusedGoogle = "O Google recusou o acesso à agenda: conecte de novo."

var (
	errGoogleOff = httpx.NewError(http.StatusNotFound, "google_off",
		"A conexão com o Google Agenda não está disponível neste Agendei: use o endereço iCal da agenda.")
	errGoogleState = httpx.NewError(http.StatusBadRequest, "google_oauth_state",
		"Este retorno do Google não vale mais (expirou, já foi usado ou é de outra conta). Clique em “Conectar Google Agenda” de novo.")
	errGoogleDenied = httpx.NewError(http.StatusBadRequest, "google_oauth_denied",
		"A conexão não foi autorizada no Google. Para conectar, clique em “Conectar Google Agenda” e permita o acesso do Agendei.")
	errGoogleGrant = httpx.NewError(http.StatusBadRequest, "google_oauth_refused",
		"O Google não aceitou a autorização (ela vale só alguns minutos e uma vez). Clique em “Conectar Google Agenda” de novo.")
	errGoogleScopes = httpx.NewError(http.StatusBadRequest, "google_oauth_partial",
		"Nem todas as permissões foram marcadas na tela do Google. Clique em “Conectar Google Agenda” de novo e marque todas: ver a lista de agendas, ver os horários ocupados e gerenciar os eventos.")
	errGoogleDown = httpx.NewError(http.StatusBadGateway, "google_unavailable",
		"Não conseguimos falar com o Google agora. Tente de novo em alguns minutos.")
	errGoogleRefused = httpx.NewError(http.StatusConflict, "google_refused", RefusedGoogle)
	errGoogleChoice  = httpx.Validation("Escolha ao menos uma agenda do Google (no máximo 50) entre as da conta.")
	errNoGoogle      = httpx.NewError(http.StatusNotFound, "not_found", "Nenhuma conta do Google conectada a este profissional.")
)

func googleStateHash(state string) string {
	sum := sha256.Sum256([]byte(state))
	return hex.EncodeToString(sum[:])
}

// GoogleStart is where to send the owner: Google's consent page.
type GoogleStart struct {
	URL string `json:"url"`
}

// GoogleFinish is what Google sent back to /profile/google.
type GoogleFinish struct {
	Code  string `json:"code"`
	State string `json:"state"`
	// Error is Google's error parameter (access_denied when the owner
	// refused); then there is no code.
	Error string `json:"error"`
}

// StartGoogle begins "Conectar Google Agenda" for a professional: a random
// state (kept as its hash, bound to the owner and the professional, for
// GoogleStateLife, good once) and a PKCE verifier kept sealed server-side.
func (s *Service) StartGoogle(ctx context.Context, ownerID, professionalID string) (*GoogleStart, error) {
	if s.Google == nil {
		return nil, errGoogleOff
	}
	state, verifier := connect.RandomToken(32), gcal.Verifier()
	sealed, err := s.Box.Seal(verifier, ownerID+":calendars.google.verifier")
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now().UTC()
	err = s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		var found string
		if err := tx.QueryRowContext(ctx, `SELECT id FROM professionals WHERE id = ? AND user_id = ?`, professionalID, ownerID).Scan(&found); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return errNotFound
			}
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM google_oauth_states WHERE user_id = ? AND expires_at < ?`, ownerID, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO google_oauth_states (state_hash, user_id, professional_id, verifier_sealed, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			googleStateHash(state), ownerID, professionalID, sealed, now.Add(GoogleStateLife), now); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM google_oauth_states WHERE user_id = ? AND state_hash NOT IN
			(SELECT state_hash FROM google_oauth_states WHERE user_id = ? ORDER BY created_at DESC, state_hash LIMIT ?)`, ownerID, ownerID, maxGoogleStarts)
		return err
	})
	if errors.Is(err, db.ErrOwnerGone) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	return &GoogleStart{URL: s.Google.App.AuthCodeURL(state, verifier)}, nil
}

// FinishGoogle ends "Conectar Google Agenda": the state must be one this
// owner started, unexpired and unused (it is used up here whatever
// follows); the code is exchanged with the verifier; a grant without every
// scope asked is revoked and refused; the refresh token is kept sealed, the
// account is the primary calendar's id (the account's e-mail), and the
// primary calendar counts as busy until the owner chooses others.
func (s *Service) FinishGoogle(ctx context.Context, ownerID string, in GoogleFinish) (*Source, error) {
	if s.Google == nil {
		return nil, errGoogleOff
	}
	if in.State == "" || len(in.State) > 200 || len(in.Code) > 1000 || len(in.Error) > 200 {
		return nil, errGoogleState
	}
	now := s.Clock.Now().UTC()
	var professionalID, sealed string
	var expires time.Time
	found := false
	err := s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		var owner string
		err := tx.QueryRowContext(ctx, `SELECT user_id, professional_id, verifier_sealed, expires_at FROM google_oauth_states WHERE state_hash = ?`,
			googleStateHash(in.State)).Scan(&owner, &professionalID, &sealed, &expires)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && owner != ownerID) {
			return nil // unknown, used, or another owner's: theirs stays theirs
		}
		if err != nil {
			return err
		}
		found = true
		_, err = tx.ExecContext(ctx, `DELETE FROM google_oauth_states WHERE state_hash = ?`, googleStateHash(in.State))
		return err
	})
	if err != nil {
		return nil, err
	}
	if !found || !now.Before(expires) {
		return nil, errGoogleState
	}
	if in.Error != "" {
		return nil, errGoogleDenied
	}
	if in.Code == "" {
		return nil, errGoogleGrant
	}
	verifier, err := s.Box.Open(sealed, ownerID+":calendars.google.verifier")
	if err != nil {
		return nil, err
	}
	tok, err := s.Google.App.Exchange(ctx, in.Code, verifier, now)
	var ge *gcal.Error
	if errors.As(err, &ge) && !ge.Temporary() {
		return nil, errGoogleGrant
	}
	if err != nil {
		s.logGoogle("exchange", err)
		return nil, errGoogleDown
	}
	if len(tok.Missing()) > 0 {
		// A grant Agendei cannot use is not kept at Google either.
		s.revokeGoogle(ctx, tok.Refresh)
		return nil, errGoogleScopes
	}
	if tok.Refresh == "" {
		return nil, errGoogleGrant
	}
	cals, err := s.Google.App.Calendars(ctx, tok.Access)
	if err != nil {
		s.logGoogle("calendar list", err)
		return nil, errGoogleDown
	}
	i := slices.IndexFunc(cals, func(c gcal.Calendar) bool { return c.Primary })
	if i < 0 {
		return nil, errGoogleDown
	}
	account := cals[i].ID
	secret, err := s.rows().Seal(ownerID, professionalID, fieldGoogle, tok.Refresh)
	if err != nil {
		return nil, err
	}
	chosen, _ := json.Marshal([]string{account})
	var out *Source
	var id string
	err = s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		var found string
		if err := tx.QueryRowContext(ctx, `SELECT id FROM professionals WHERE id = ? AND user_id = ?`, professionalID, ownerID).Scan(&found); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return errNotFound
			}
			return err
		}
		var prevAccount, prevCalendars string
		err := tx.QueryRowContext(ctx, `SELECT id, account, calendars FROM calendar_sources WHERE user_id = ? AND professional_id = ? AND kind = ?`,
			ownerID, professionalID, KindGoogle).Scan(&id, &prevAccount, &prevCalendars)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			id = uuid.NewString()
			_, err = tx.ExecContext(ctx, `INSERT INTO calendar_sources (id, user_id, professional_id, kind, url_sealed, host, account, secret_sealed, calendars, sync, next_read_at, created_at, updated_at)
				VALUES (?, ?, ?, ?, '', ?, ?, ?, ?, '{}', ?, ?, ?)`, id, ownerID, professionalID, KindGoogle, account, account, secret, string(chosen), now, now, now)
		case err != nil:
			return err
		default:
			// Connected again: the same account keeps the owner's choice of calendars.
			cals := string(chosen)
			if prevAccount == account {
				cals = prevCalendars
			}
			_, err = tx.ExecContext(ctx, `UPDATE calendar_sources SET host = ?, account = ?, secret_sealed = ?, calendars = ?, sync = '{}', last_parsed_at = NULL,
				last_error = '', last_error_at = NULL, failing_since = NULL, next_read_at = ?, updated_at = ? WHERE id = ?`, account, account, secret, cals, now, now, id)
			if err == nil {
				err = s.googleReconnected(ctx, tx, ownerID, id, prevAccount == account) // google_write.go
			}
		}
		if err != nil {
			return err
		}
		if err := s.Queue.Enqueue(ctx, tx, jobs.About{UserID: ownerID}, JobRead, readJob{ID: id}, now, 1); err != nil {
			return err
		}
		tx.OnCommit(s.Queue.Wake)
		out, err = s.oneKind(ctx, tx, ownerID, professionalID, KindGoogle)
		return err
	})
	if errors.Is(err, db.ErrOwnerGone) {
		return nil, errNotFound
	}
	if err != nil {
		s.revokeGoogle(ctx, tok.Refresh)
		return nil, err
	}
	s.Google.remember(id, tok)
	return out, nil
}

// googleRow is a connected Google account as the service needs it.
type googleRow struct {
	id, owner, professional, secret, account string
	calendars                                []string
	sync                                     map[string]string
	parsed, failing                          sql.NullTime
	onFailure, lastError                     string
}

func (s *Service) googleRow(ctx context.Context, where string, args ...any) (*googleRow, error) {
	var r googleRow
	var cals, syncJSON string
	err := s.DB.QueryRowContext(ctx, `SELECT id, user_id, professional_id, secret_sealed, account, calendars, sync, last_parsed_at, failing_since, on_failure, last_error
		FROM calendar_sources WHERE kind = 'google' AND `+where, args...).Scan(&r.id, &r.owner, &r.professional, &r.secret, &r.account, &cals, &syncJSON, &r.parsed, &r.failing, &r.onFailure, &r.lastError)
	if err != nil {
		return nil, err
	}
	_ = json.Unmarshal([]byte(cals), &r.calendars)
	if json.Unmarshal([]byte(syncJSON), &r.sync) != nil || r.sync == nil {
		r.sync = map[string]string{}
	}
	return &r, nil
}

// ownedGoogle is the professional's Google account and a live access token.
func (s *Service) ownedGoogle(ctx context.Context, ownerID, professionalID string) (*googleRow, string, error) {
	if s.Google == nil {
		return nil, "", errGoogleOff
	}
	r, err := s.googleRow(ctx, `user_id = ? AND professional_id = ?`, ownerID, professionalID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", errNoGoogle
	}
	if err != nil {
		return nil, "", err
	}
	access, err := s.googleAccess(ctx, r)
	if googleAuthFailure(err) {
		return r, "", errGoogleRefused
	}
	if err != nil {
		s.logGoogle("token", err)
		return r, "", errGoogleDown
	}
	return r, access, nil
}

// GoogleCalendar is one of the account's calendars on the card.
type GoogleCalendar struct {
	ID      string `json:"id"`
	Summary string `json:"summary"`
	Primary bool   `json:"primary"`
	// Busy: its events count as busy time.
	Busy bool `json:"busy"`
	// Writable: the account may write there (owner or writer), so it may
	// receive the appointments.
	Writable bool `json:"writable"`
}

// GoogleAccount is the connected account and its calendars, to choose from.
type GoogleAccount struct {
	Account   string           `json:"account"`
	Calendars []GoogleCalendar `json:"calendars"`
}

func googleCalendars(list []gcal.Calendar, chosen []string) []GoogleCalendar {
	out := make([]GoogleCalendar, 0, len(list))
	for _, c := range list {
		out = append(out, GoogleCalendar{ID: c.ID, Summary: c.Summary, Primary: c.Primary, Busy: slices.Contains(chosen, c.ID), Writable: c.Writable()})
	}
	return out
}

// GoogleCalendars lists the account's calendars as Google has them now,
// each with whether it counts as busy.
func (s *Service) GoogleCalendars(ctx context.Context, ownerID, professionalID string) (*GoogleAccount, error) {
	r, access, err := s.ownedGoogle(ctx, ownerID, professionalID)
	if err != nil {
		return nil, err
	}
	list, err := s.Google.App.Calendars(ctx, access)
	if err != nil {
		return nil, s.googleAPIError("calendar list", err)
	}
	return &GoogleAccount{Account: r.account, Calendars: googleCalendars(list, r.calendars)}, nil
}

// GoogleChoice is the card's choice: which calendars count as busy, and
// what a failing account's last busy time does.
type GoogleChoice struct {
	Calendars []string `json:"calendars"`
	OnFailure string   `json:"onFailure"`
}

// ChooseGoogle saves which of the account's calendars count as busy (each
// one the account has) and reads them at once.
func (s *Service) ChooseGoogle(ctx context.Context, ownerID, professionalID string, in GoogleChoice) (*Source, error) {
	if in.OnFailure == "" {
		in.OnFailure = "keep"
	}
	if in.OnFailure != "keep" && in.OnFailure != "drop" {
		return nil, errChoice
	}
	if len(in.Calendars) == 0 || len(in.Calendars) > gcal.FreeBusyMax {
		return nil, errGoogleChoice
	}
	r, access, err := s.ownedGoogle(ctx, ownerID, professionalID)
	if err != nil {
		return nil, err
	}
	list, err := s.Google.App.Calendars(ctx, access)
	if err != nil {
		return nil, s.googleAPIError("calendar list", err)
	}
	var chosen []string
	for _, c := range list {
		if slices.Contains(in.Calendars, c.ID) {
			chosen = append(chosen, c.ID)
		}
	}
	if len(chosen) != len(slices.Compact(slices.Sorted(slices.Values(in.Calendars)))) {
		return nil, errGoogleChoice
	}
	raw, _ := json.Marshal(chosen)
	now := s.Clock.Now()
	var out *Source
	err = s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE calendar_sources SET calendars = ?, on_failure = ?, sync = '{}', last_parsed_at = NULL, next_read_at = ?, updated_at = ?
			WHERE id = ? AND user_id = ?`, string(raw), in.OnFailure, now, now, r.id, ownerID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return errNoGoogle
		}
		if err := s.Queue.Enqueue(ctx, tx, jobs.About{UserID: ownerID}, JobRead, readJob{ID: r.id}, now, 1); err != nil {
			return err
		}
		tx.OnCommit(s.Queue.Wake)
		out, err = s.oneKind(ctx, tx, ownerID, professionalID, KindGoogle)
		return err
	})
	if errors.Is(err, db.ErrOwnerGone) {
		return nil, errNotFound
	}
	return out, err
}

// DisconnectGoogle ends the grant at Google (best effort: the owner may
// have revoked it already, or Google be down) and forgets the account and
// the busy time it gave.
func (s *Service) DisconnectGoogle(ctx context.Context, ownerID, professionalID string) error {
	r, err := s.googleRow(ctx, `user_id = ? AND professional_id = ?`, ownerID, professionalID)
	if errors.Is(err, sql.ErrNoRows) {
		return errNoGoogle
	}
	if err != nil {
		return err
	}
	if s.Google != nil {
		if refresh, err := s.rows().Open(r.owner, r.professional, fieldGoogle, r.secret); err == nil {
			if access, err := s.Google.token(ctx, r.id, refresh, s.Clock.Now()); err == nil {
				s.stopWatches(ctx, r, access)
			}
			s.revokeGoogle(ctx, refresh)
		}
		s.Google.forget(r.id)
	}
	if _, err := s.Busy.ImportBusy(ctx, ownerID, professionalID, KindGoogle, nil); err != nil {
		return err
	}
	return s.DB.OwnerExec(ctx, ownerID, errNoGoogle, `DELETE FROM calendar_sources WHERE id = ? AND user_id = ?`, r.id, ownerID)
}

func (s *Service) revokeGoogle(ctx context.Context, refresh string) {
	if refresh == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := s.Google.App.Revoke(ctx, refresh); err != nil {
		s.logGoogle("revoke", err)
	}
}

func (s *Service) googleAPIError(what string, err error) error {
	var ge *gcal.Error
	if errors.As(err, &ge) && ge.Auth() {
		return errGoogleRefused
	}
	s.logGoogle(what, err)
	return errGoogleDown
}

// logGoogle logs a failed call: Google's status and reason, never a token
// nor the account.
func (s *Service) logGoogle(what string, err error) {
	if s.Log == nil {
		return
	}
	var ge *gcal.Error
	if errors.As(err, &ge) {
		s.Log.Warn("calendars: google "+what+" failed", "status", ge.Status, "reason", ge.Reason)
		return
	}
	// A transport error's URL may name a calendar (an e-mail): only its cause is logged.
	var ue *url.Error
	if errors.As(err, &ue) {
		s.Log.Warn("calendars: google "+what+" failed", "op", ue.Op, "err", ue.Err.Error())
		return
	}
	s.Log.Warn("calendars: google "+what+" failed", "err", err.Error())
}
