// Package gcal is Agendei's client of Google Calendar (issue 42 §3): the
// operator's OAuth 2.0 client signs an owner in with one button
// (authorization code with PKCE and state, offline access), and with the
// owner's token it lists their calendars, reads busy times (freeBusy),
// writes Agendei's appointments as events (idempotent per appointment),
// follows changes (syncToken) and asks for push notices (events.watch).
// It knows no owner and no table; the calendars domain decides what is
// read and written and keeps the tokens sealed.
//
// Written from Google's documentation (OAuth 2.0 for web server
// applications; Calendar API v3 reference: calendarList.list, freebusy.query,
// events.insert/patch/delete/list/watch, channels.stop; "Handle API
// errors"); gcaltest is the in-process fake that refuses what it refuses.
package gcal

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/platform/connect"
)

// Endpoints are Google's addresses (a test points them at gcaltest).
type Endpoints struct {
	AuthURL   string // the consent page: https://accounts.google.com/o/oauth2/v2/auth
	TokenURL  string // https://oauth2.googleapis.com/token
	RevokeURL string // https://oauth2.googleapis.com/revoke
	API       string // https://www.googleapis.com/calendar/v3
}

// Google is the real service.
var Google = Endpoints{
	AuthURL:   "https://accounts.google.com/o/oauth2/v2/auth",
	TokenURL:  "https://oauth2.googleapis.com/token",
	RevokeURL: "https://oauth2.googleapis.com/revoke",
	API:       "https://www.googleapis.com/calendar/v3",
}

// Scopes are what Agendei asks of an owner's Google account, the least that
// does the job: the list of their calendars (to choose), their busy times
// (not the events' contents), and the events Agendei writes.
var Scopes = []string{
	"https://www.googleapis.com/auth/calendar.calendarlist.readonly",
	"https://www.googleapis.com/auth/calendar.freebusy",
	"https://www.googleapis.com/auth/calendar.events",
}

// App is the operator's OAuth client (Google Cloud console → Credentials →
// OAuth client ID, type "Web application", with RedirectURI authorised).
type App struct {
	ClientID, ClientSecret string
	RedirectURI            string // {base URL}/profile/google
	Endpoints
	HTTP *http.Client // nil: a client with a 15 s timeout
}

func (a *App) http() *http.Client {
	if a.HTTP != nil {
		return a.HTTP
	}
	return defaultHTTP
}

var defaultHTTP = &http.Client{Timeout: 15 * time.Second}

// maxAnswer bounds each answer read (a page of events is the largest).
const maxAnswer = 4 << 20

// Verifier is a fresh PKCE code verifier (RFC 7636 §4.1: 43 to 128
// characters of [A-Za-z0-9-._~]): 32 random bytes, base64url.
func Verifier() string {
	a, b := uuid.New(), uuid.New()
	return base64.RawURLEncoding.EncodeToString(append(a[:], b[:]...))
}

// Challenge is the S256 code challenge of a verifier (RFC 7636 §4.2).
func Challenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// AuthCodeURL is the consent page the owner is sent to. access_type=offline
// and prompt=consent make Google answer a refresh token every time (it
// gives one only at a first consent otherwise).
func (a *App) AuthCodeURL(state, verifier string) string {
	q := url.Values{
		"client_id":              {a.ClientID},
		"redirect_uri":           {a.RedirectURI},
		"response_type":          {"code"},
		"scope":                  {strings.Join(Scopes, " ")},
		"access_type":            {"offline"},
		"prompt":                 {"consent"},
		"include_granted_scopes": {"true"},
		"state":                  {state},
		"code_challenge":         {Challenge(verifier)},
		"code_challenge_method":  {"S256"},
	}
	return a.AuthURL + "?" + q.Encode()
}

// Token is an owner's grant.
type Token struct {
	Access  string
	Refresh string // empty on a refresh: the refresh token stays the same
	Expiry  time.Time
	Scope   string // the scopes granted, space-separated (the owner may untick some)
}

// Missing is which of Scopes the grant lacks (the consent page lets the
// owner untick each).
func (t Token) Missing() []string {
	granted := strings.Fields(t.Scope)
	var out []string
	for _, s := range Scopes {
		found := false
		for _, g := range granted {
			found = found || g == s
		}
		if !found {
			out = append(out, s)
		}
	}
	return out
}

// Exchange trades the code the consent page sent back for the owner's token.
func (a *App) Exchange(ctx context.Context, code, verifier string, now time.Time) (Token, error) {
	return a.token(ctx, url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {code},
		"code_verifier": {verifier},
		"redirect_uri":  {a.RedirectURI},
	}, now)
}

// Refresh gets a new access token. A grant the owner revoked (or Google
// expired) answers an Error whose Auth() is true: stop and tell the owner.
func (a *App) Refresh(ctx context.Context, refreshToken string, now time.Time) (Token, error) {
	t, err := a.token(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refreshToken}}, now)
	if err == nil && t.Refresh == "" {
		t.Refresh = refreshToken
	}
	return t, err
}

func (a *App) token(ctx context.Context, form url.Values, now time.Time) (Token, error) {
	form.Set("client_id", a.ClientID)
	form.Set("client_secret", a.ClientSecret)
	var out struct {
		AccessToken  string `json:"access_token"`
		ExpiresIn    int64  `json:"expires_in"`
		RefreshToken string `json:"refresh_token"`
		Scope        string `json:"scope"`
		TokenType    string `json:"token_type"`
	}
	if err := a.form(ctx, a.TokenURL, form, &out); err != nil {
		return Token{}, err
	}
	if out.AccessToken == "" || !strings.EqualFold(out.TokenType, "Bearer") {
		return Token{}, errors.New("google oauth: answer without a bearer access token")
	}
	return Token{Access: out.AccessToken, Refresh: out.RefreshToken, Expiry: now.Add(time.Duration(out.ExpiresIn) * time.Second), Scope: out.Scope}, nil
}

// Revoke ends the grant (the refresh token, or an access token) at Google,
// as the owner's "Desconectar" does; one already revoked is done.
func (a *App) Revoke(ctx context.Context, token string) error {
	err := a.form(ctx, a.RevokeURL, url.Values{"token": {token}}, nil)
	var e *Error
	if errors.As(err, &e) && e.Status == http.StatusBadRequest && e.Reason == "invalid_token" {
		return nil
	}
	return err
}

// form posts an application/x-www-form-urlencoded body, as the OAuth
// endpoints take it.
func (a *App) form(ctx context.Context, endpoint string, form url.Values, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	res, err := a.http().Do(req)
	if err != nil {
		return fmt.Errorf("google oauth: %w", err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer+1))
	if err != nil {
		return fmt.Errorf("google oauth: %w", err)
	}
	if len(raw) > maxAnswer {
		return fmt.Errorf("google oauth: answer larger than %d bytes", maxAnswer)
	}
	if res.StatusCode >= 300 {
		return fault(res.StatusCode, raw)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("google oauth: unexpected answer: %w", err)
	}
	return nil
}

// Error is Google's error answer: the OAuth endpoints' {"error":
// "invalid_grant", "error_description": …} or the API's {"error": {"code",
// "message", "errors": [{"reason", …}]}}.
type Error struct {
	Status  int
	Reason  string // invalid_grant, authError, notFound, duplicate, deleted, fullSyncRequired, rateLimitExceeded, …
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("google: http %d %s: %s", e.Status, e.Reason, e.Message)
}

// Auth reports a grant that no longer works — revoked, expired, a client
// that is not the operator's — or a token without the right: the owner must
// connect again.
func (e *Error) Auth() bool {
	switch e.Reason {
	case "invalid_grant", "invalid_client", "unauthorized_client", "insufficientPermissions":
		return true
	case "rateLimitExceeded", "userRateLimitExceeded", "quotaExceeded":
		return false
	}
	return connect.AuthStatus(e.Status)
}

// Temporary reports throttling or Google's own fault: try again later.
func (e *Error) Temporary() bool {
	switch e.Reason {
	case "rateLimitExceeded", "userRateLimitExceeded", "quotaExceeded":
		return true
	}
	return connect.TemporaryStatus(e.Status)
}

// fault reads an error answer of either shape.
func fault(status int, raw []byte) error {
	var oauth struct {
		Error       json.RawMessage `json:"error"`
		Description string          `json:"error_description"`
	}
	e := &Error{Status: status}
	if json.Unmarshal(raw, &oauth) == nil && len(oauth.Error) > 0 {
		var code string
		if json.Unmarshal(oauth.Error, &code) == nil {
			e.Reason, e.Message = code, oauth.Description
			return e
		}
		var api struct {
			Message string `json:"message"`
			Errors  []struct {
				Reason string `json:"reason"`
			} `json:"errors"`
		}
		if json.Unmarshal(oauth.Error, &api) == nil {
			e.Message = api.Message
			if len(api.Errors) > 0 {
				e.Reason = api.Errors[0].Reason
			}
			return e
		}
	}
	e.Message = string(raw[:min(len(raw), 300)])
	return e
}

// Reason is the reason of a Google error ("" for anything else).
func Reason(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

// api is the typed JSON client of the Calendar API on the provider kit.
func (a *App) api() *connect.Client {
	return &connect.Client{Name: "google calendar", BaseURL: strings.TrimRight(a.API, "/"), HTTP: a.http(), MaxBody: maxAnswer, Fault: fault}
}

// Calendar is one of the owner's calendars.
type Calendar struct {
	ID      string `json:"id"`
	Summary string `json:"summary"`
	Primary bool   `json:"primary"`
	// AccessRole is the owner's right over it: owner and writer may be written to.
	AccessRole string `json:"accessRole"`
}

// Writable reports whether Agendei may write events there.
func (c Calendar) Writable() bool { return c.AccessRole == "owner" || c.AccessRole == "writer" }

// Calendars lists the owner's calendars (calendarList.list, every page).
func (a *App) Calendars(ctx context.Context, access string) ([]Calendar, error) {
	var out []Calendar
	page := ""
	for range 20 {
		q := url.Values{"maxResults": {"250"}}
		if page != "" {
			q.Set("pageToken", page)
		}
		var res struct {
			Items         []Calendar `json:"items"`
			NextPageToken string     `json:"nextPageToken"`
		}
		if err := a.api().Do(ctx, connect.Call{Method: http.MethodGet, Path: "/users/me/calendarList", Query: q, Token: access, Out: &res}); err != nil {
			return nil, err
		}
		out = append(out, res.Items...)
		if page = res.NextPageToken; page == "" {
			return out, nil
		}
	}
	return out, errors.New("google calendar: calendarList has more than 20 pages")
}

// Interval is a busy time.
type Interval struct{ Start, End time.Time }

// FreeBusyMax is the most calendars one freeBusy query may name
// (calendarExpansionMax's maximum).
const FreeBusyMax = 50

// FreeBusy reads the busy times of the calendars over [from, to). A
// calendar Google cannot read (deleted, no longer shared) is in failed
// with its reason; the others' times are still answered.
func (a *App) FreeBusy(ctx context.Context, access string, ids []string, from, to time.Time) (busy map[string][]Interval, failed map[string]string, err error) {
	if len(ids) > FreeBusyMax {
		return nil, nil, fmt.Errorf("google calendar: %d calendars in one freeBusy query (at most %d)", len(ids), FreeBusyMax)
	}
	type item struct {
		ID string `json:"id"`
	}
	in := struct {
		TimeMin string `json:"timeMin"`
		TimeMax string `json:"timeMax"`
		Items   []item `json:"items"`
	}{TimeMin: from.UTC().Format(time.RFC3339), TimeMax: to.UTC().Format(time.RFC3339)}
	for _, id := range ids {
		in.Items = append(in.Items, item{id})
	}
	var res struct {
		Calendars map[string]struct {
			Busy []struct {
				Start time.Time `json:"start"`
				End   time.Time `json:"end"`
			} `json:"busy"`
			Errors []struct {
				Reason string `json:"reason"`
			} `json:"errors"`
		} `json:"calendars"`
	}
	if err := a.api().Do(ctx, connect.Call{Method: http.MethodPost, Path: "/freeBusy", Token: access, In: in, Out: &res}); err != nil {
		return nil, nil, err
	}
	busy, failed = map[string][]Interval{}, map[string]string{}
	for _, id := range ids {
		c, ok := res.Calendars[id]
		switch {
		case !ok:
			failed[id] = "notFound"
		case len(c.Errors) > 0:
			failed[id] = c.Errors[0].Reason
		default:
			for _, b := range c.Busy {
				busy[id] = append(busy[id], Interval{b.Start, b.End})
			}
		}
	}
	return busy, failed, nil
}

// Event is an appointment as Agendei writes it into a calendar.
type Event struct {
	ID          string // EventID of the appointment
	Summary     string
	Location    string
	Description string
	Start, End  time.Time
	Zone        string // the IANA zone it is shown in ("America/Sao_Paulo")
}

type when struct {
	DateTime string `json:"dateTime"`
	TimeZone string `json:"timeZone,omitempty"`
}

func (e Event) body(withID bool) map[string]any {
	b := map[string]any{
		"summary":     e.Summary,
		"location":    e.Location,
		"description": e.Description,
		"start":       when{e.Start.Format(time.RFC3339), e.Zone},
		"end":         when{e.End.Format(time.RFC3339), e.Zone},
		// A cancelled event of the same id (deleted before) comes back with a patch.
		"status":       "confirmed",
		"transparency": "opaque",
	}
	if withID {
		b["id"] = e.ID
	}
	return b
}

// PutEvent writes the appointment's event: inserted with its own id, or —
// when that id exists, even deleted — patched to what it is now. Doing it
// again writes nothing new.
func (a *App) PutEvent(ctx context.Context, access, calendarID string, e Event) error {
	path := "/calendars/" + url.PathEscape(calendarID) + "/events"
	q := url.Values{"sendUpdates": {"none"}}
	err := a.api().Do(ctx, connect.Call{Method: http.MethodPost, Path: path, Query: q, Token: access, In: e.body(true)})
	if Reason(err) != "duplicate" {
		return err
	}
	return a.api().Do(ctx, connect.Call{Method: http.MethodPatch, Path: path + "/" + url.PathEscape(e.ID), Query: q, Token: access, In: e.body(false)})
}

// DeleteEvent removes the appointment's event; one already deleted or never
// written is done.
func (a *App) DeleteEvent(ctx context.Context, access, calendarID, eventID string) error {
	err := a.api().Do(ctx, connect.Call{Method: http.MethodDelete, Path: "/calendars/" + url.PathEscape(calendarID) + "/events/" + url.PathEscape(eventID),
		Query: url.Values{"sendUpdates": {"none"}}, Token: access})
	var e *Error
	if errors.As(err, &e) && (e.Status == http.StatusGone || e.Status == http.StatusNotFound) {
		return nil
	}
	return err
}

// ErrFullSync is Changes' answer when Google dropped the sync token (410
// fullSyncRequired): read everything again, then follow the new token.
var ErrFullSync = errors.New("google calendar: the sync token expired; a full read is needed")

// Changes follows the calendar's events from a sync token (events.list
// with syncToken): whether anything changed, and the token to follow next.
// Without a token it lists everything once to get the first one (changed
// is then true).
func (a *App) Changes(ctx context.Context, access, calendarID, syncToken string) (changed bool, next string, err error) {
	page := ""
	for range 100 {
		q := url.Values{"maxResults": {"2500"}, "fields": {"items(id),nextPageToken,nextSyncToken"}}
		if syncToken != "" {
			q.Set("syncToken", syncToken)
		} else {
			q.Set("showDeleted", "true")
		}
		if page != "" {
			q.Set("pageToken", page)
		}
		var res struct {
			Items []struct {
				ID string `json:"id"`
			} `json:"items"`
			NextPageToken string `json:"nextPageToken"`
			NextSyncToken string `json:"nextSyncToken"`
		}
		err := a.api().Do(ctx, connect.Call{Method: http.MethodGet, Path: "/calendars/" + url.PathEscape(calendarID) + "/events", Query: q, Token: access, Out: &res})
		if Reason(err) == "fullSyncRequired" {
			return true, "", ErrFullSync
		}
		if err != nil {
			return false, "", err
		}
		changed = changed || len(res.Items) > 0 || syncToken == ""
		if res.NextPageToken == "" {
			return changed, res.NextSyncToken, nil
		}
		page = res.NextPageToken
	}
	return changed, "", errors.New("google calendar: more than 100 pages of changes")
}

// BusyEvent is one event that takes time in a calendar, with its id.
type BusyEvent struct {
	ID         string
	Start, End time.Time
}

// BusyEvents reads the events that take time in a calendar over [from, to)
// by events.list — each recurring event's instances expanded
// (singleEvents), cancelled and transparent ("free") ones left out —, with
// their ids: what freeBusy answers, but able to tell Agendei's own events
// (gcal.EventID) from the owner's. An all-day event spans its dates in the
// calendar's time zone.
func (a *App) BusyEvents(ctx context.Context, access, calendarID string, from, to time.Time) ([]BusyEvent, error) {
	type when struct {
		Date     string    `json:"date"`
		DateTime time.Time `json:"dateTime"`
	}
	var out []BusyEvent
	page := ""
	for range 100 {
		q := url.Values{"singleEvents": {"true"}, "maxResults": {"2500"}, "timeMin": {from.UTC().Format(time.RFC3339)}, "timeMax": {to.UTC().Format(time.RFC3339)},
			"fields": {"items(id,status,transparency,start,end),nextPageToken,timeZone"}}
		if page != "" {
			q.Set("pageToken", page)
		}
		var res struct {
			Items []struct {
				ID           string `json:"id"`
				Status       string `json:"status"`
				Transparency string `json:"transparency"`
				Start        when   `json:"start"`
				End          when   `json:"end"`
			} `json:"items"`
			NextPageToken string `json:"nextPageToken"`
			TimeZone      string `json:"timeZone"`
		}
		if err := a.api().Do(ctx, connect.Call{Method: http.MethodGet, Path: "/calendars/" + url.PathEscape(calendarID) + "/events", Query: q, Token: access, Out: &res}); err != nil {
			return nil, err
		}
		zone, err := time.LoadLocation(res.TimeZone)
		if err != nil || res.TimeZone == "" {
			zone = time.UTC
		}
		day := func(w when) (time.Time, bool) {
			if w.Date == "" {
				return w.DateTime, !w.DateTime.IsZero()
			}
			d, err := time.ParseInLocation(time.DateOnly, w.Date, zone)
			return d, err == nil
		}
		for _, e := range res.Items {
			start, okS := day(e.Start)
			end, okE := day(e.End)
			if e.Status == "cancelled" || e.Transparency == "transparent" || !okS || !okE || !end.After(start) {
				continue
			}
			out = append(out, BusyEvent{ID: e.ID, Start: start, End: end})
		}
		if res.NextPageToken == "" {
			return out, nil
		}
		page = res.NextPageToken
	}
	return nil, errors.New("google calendar: more than 100 pages of events")
}

// Channel is a push-notice channel on a calendar's events (events.watch).
type Channel struct {
	ID         string    `json:"id"`         // ours, unique: a UUID
	Token      string    `json:"token"`      // ours, secret: Google sends it back in X-Goog-Channel-Token
	ResourceID string    `json:"resourceId"` // Google's, needed to stop it
	Expiration time.Time `json:"-"`
}

// Watch asks Google to post a notice to address (public HTTPS, as Google
// requires) whenever the calendar's events change, until the channel expires.
func (a *App) Watch(ctx context.Context, access, calendarID, address string, ch Channel) (Channel, error) {
	in := map[string]any{"id": ch.ID, "type": "web_hook", "address": address, "token": ch.Token}
	var res struct {
		ResourceID string `json:"resourceId"`
		Expiration string `json:"expiration"` // milliseconds since the epoch, as a string
	}
	if err := a.api().Do(ctx, connect.Call{Method: http.MethodPost, Path: "/calendars/" + url.PathEscape(calendarID) + "/events/watch", Token: access, In: in, Out: &res}); err != nil {
		return Channel{}, err
	}
	ch.ResourceID = res.ResourceID
	var ms int64
	if _, err := fmt.Sscan(res.Expiration, &ms); err == nil {
		ch.Expiration = time.UnixMilli(ms)
	}
	return ch, nil
}

// StopWatch ends a channel; one Google no longer knows is done.
func (a *App) StopWatch(ctx context.Context, access string, ch Channel) error {
	err := a.api().Do(ctx, connect.Call{Method: http.MethodPost, Path: "/channels/stop", Token: access, In: map[string]string{"id": ch.ID, "resourceId": ch.ResourceID}})
	var e *Error
	if errors.As(err, &e) && e.Status == http.StatusNotFound {
		return nil
	}
	return err
}

// EventID is the Google event id of an appointment: its UUID in base32hex
// (lowercase a–v and 0–9, 26 characters), as events.insert requires of an
// id the client chooses. Stable, so a write repeated after a crash finds
// the event it wrote.
func EventID(appointmentID string) string {
	u, err := uuid.Parse(appointmentID)
	var raw []byte
	if err == nil {
		raw = u[:]
	} else {
		sum := sha256.Sum256([]byte(appointmentID))
		raw = sum[:16]
	}
	return strings.ToLower(base32.HexEncoding.WithPadding(base32.NoPadding).EncodeToString(raw))
}
