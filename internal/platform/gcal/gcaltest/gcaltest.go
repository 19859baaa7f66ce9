// Package gcaltest is an in-process fake of the parts of Google that
// Agendei uses for an owner's calendar, written from Google's documentation
// and refusing what it refuses: the OAuth 2.0 consent page, token and revoke
// endpoints (authorization code with PKCE S256, single-use codes bound to
// their redirect_uri, refresh tokens, revocation), and Calendar API v3's
// calendarList.list, freebusy.query, events.insert/patch/delete/list
// (syncToken) and watch, channels.stop — each checking the bearer token,
// its scopes, and the request's shape. One Google account per fake, with
// the calendars a test gives it.
package gcaltest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agendei/agendei/internal/platform/connect/connecttest"
	"github.com/agendei/agendei/internal/platform/gcal"
)

// Failure is a queued failure: the status and the API's reason.
type Failure struct {
	Status int
	Reason string
}

// Event is an event as the fake keeps it.
type Event struct {
	ID, Summary, Location, Description string
	Start, End                         time.Time
	Zone                               string
	Cancelled                          bool
	Transparent                        bool // "transparency": "transparent" (free)
	version                            int
}

type calendar struct {
	summary, role string
	primary       bool
	events        map[string]*Event
}

type grant struct {
	refresh string
	scope   []string
	revoked bool
}

type access struct {
	grant   *grant
	expires time.Time
}

type code struct {
	redirect, challenge, scope string
	used                       bool
	expires                    time.Time
}

// Channel is a push channel the fake was asked for.
type Channel struct {
	ID, Token, Address, Calendar, ResourceID string
	Stopped                                  bool
}

// Google is the fake.
type Google struct {
	connecttest.Base[Failure]
	ClientID, ClientSecret, RedirectURI string
	// Deny makes the consent page answer as an owner who refused.
	Deny bool
	// AccessLife is how long an access token lasts (Google: one hour).
	AccessLife time.Duration
	// Grant limits the scopes the consent page grants (nil: all asked), as an owner who unticks some.
	Grant []string

	mu        sync.Mutex
	codes     map[string]*code
	grants    map[string]*grant // by refresh token
	tokens    map[string]*access
	calendars map[string]*calendar
	order     []string
	version   int
	syncs     map[string]int // sync token → version it was given at
	channels  []*Channel
}

// New starts a fake of the operator's OAuth client.
func New(clientID, clientSecret, redirectURI string) *Google {
	g, h := NewHandler(clientID, clientSecret, redirectURI)
	g.Start(h)
	return g
}

// NewHandler is the fake and its handler, not served: cmd/gcalfake serves
// it on a fixed address for the browser tests.
func NewHandler(clientID, clientSecret, redirectURI string) (*Google, http.Handler) {
	g := &Google{ClientID: clientID, ClientSecret: clientSecret, RedirectURI: redirectURI, AccessLife: time.Hour,
		codes: map[string]*code{}, grants: map[string]*grant{}, tokens: map[string]*access{}, calendars: map[string]*calendar{}, syncs: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /o/oauth2/v2/auth", g.consent)
	mux.HandleFunc("POST /token", g.token)
	mux.HandleFunc("POST /revoke", g.revoke)
	mux.HandleFunc("GET /calendar/v3/users/me/calendarList", g.api(scopeList, g.calendarList))
	mux.HandleFunc("POST /calendar/v3/freeBusy", g.api(scopeFreeBusy, g.freeBusy))
	mux.HandleFunc("POST /calendar/v3/calendars/{cal}/events", g.api(scopeEvents, g.insert))
	mux.HandleFunc("PATCH /calendar/v3/calendars/{cal}/events/{id}", g.api(scopeEvents, g.patch))
	mux.HandleFunc("DELETE /calendar/v3/calendars/{cal}/events/{id}", g.api(scopeEvents, g.delete))
	mux.HandleFunc("GET /calendar/v3/calendars/{cal}/events", g.api(scopeEvents, g.list))
	mux.HandleFunc("POST /calendar/v3/calendars/{cal}/events/watch", g.api(scopeEvents, g.watch))
	mux.HandleFunc("POST /calendar/v3/channels/stop", g.api(scopeEvents, g.stop))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		g.Problem("%s %s: not an endpoint Agendei uses", r.Method, r.URL.Path)
		apiError(w, http.StatusNotFound, "notFound", "Not Found")
	})
	return g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { g.Count(); mux.ServeHTTP(w, r) })
}

// Endpoints are the fake's addresses, for gcal.App.
func (g *Google) Endpoints() gcal.Endpoints {
	return gcal.Endpoints{AuthURL: g.URL() + "/o/oauth2/v2/auth", TokenURL: g.URL() + "/token", RevokeURL: g.URL() + "/revoke", API: g.URL() + "/calendar/v3"}
}

// AddCalendar gives the account a calendar; role is owner, writer, reader or freeBusyReader.
func (g *Google) AddCalendar(id, summary, role string, primary bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calendars[id] = &calendar{summary: summary, role: role, primary: primary, events: map[string]*Event{}}
	g.order = append(g.order, id)
}

// AddEvent is the owner adding an event in Google Calendar itself.
func (g *Google) AddEvent(calendarID string, e Event) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.version++
	e.version = g.version
	g.calendars[calendarID].events[e.ID] = &e
}

// Events are a calendar's events as they are now (cancelled ones included), by id.
func (g *Google) Events(calendarID string) map[string]Event {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := map[string]Event{}
	for id, e := range g.calendars[calendarID].events {
		out[id] = *e
	}
	return out
}

// RevokeAll is the owner removing Agendei's access in their Google account.
func (g *Google) RevokeAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, gr := range g.grants {
		gr.revoked = true
	}
}

// ExpireSyncTokens makes every sync token given so far answer 410, as Google may.
func (g *Google) ExpireSyncTokens() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.syncs = map[string]int{}
}

// Channels are the push channels asked for.
func (g *Google) Channels() []Channel {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]Channel, 0, len(g.channels))
	for _, c := range g.channels {
		out = append(out, *c)
	}
	return out
}

// Approve is what the browser does at the consent page: it follows the
// address Agendei sent the owner to and returns where Google sends them back.
func (g *Google) Approve(authURL string) (*url.URL, error) {
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(authURL)
	if err != nil {
		return nil, err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		return nil, fmt.Errorf("consent page: %d", res.StatusCode)
	}
	return url.Parse(res.Header.Get("Location"))
}

const (
	scopeList     = "https://www.googleapis.com/auth/calendar.calendarlist.readonly"
	scopeFreeBusy = "https://www.googleapis.com/auth/calendar.freebusy"
	scopeEvents   = "https://www.googleapis.com/auth/calendar.events"
	scopeAll      = "https://www.googleapis.com/auth/calendar"
)

// consent is the consent page (OAuth 2.0 for web server apps, step 2): it
// checks the request and sends the browser back with a code or an error.
func (g *Google) consent(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	switch {
	case q.Get("client_id") != g.ClientID:
		g.Problem("consent: client_id %q is not the operator's", q.Get("client_id"))
		http.Error(w, "Error 401: invalid_client", http.StatusUnauthorized)
		return
	case q.Get("redirect_uri") != g.RedirectURI:
		g.Problem("consent: redirect_uri %q is not the authorised one", q.Get("redirect_uri"))
		http.Error(w, "Error 400: redirect_uri_mismatch", http.StatusBadRequest)
		return
	case q.Get("response_type") != "code" || q.Get("scope") == "" || q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) != 43:
		g.Problem("consent: %s is not an authorization-code request with PKCE S256", r.URL.RawQuery)
		http.Error(w, "Error 400: invalid_request", http.StatusBadRequest)
		return
	case q.Get("access_type") != "offline":
		g.Problem("consent: without access_type=offline Google answers no refresh token")
	}
	back, _ := url.Parse(g.RedirectURI)
	bq := url.Values{}
	if st := q.Get("state"); st != "" {
		bq.Set("state", st)
	} else {
		g.Problem("consent: no state")
	}
	if g.Deny {
		bq.Set("error", "access_denied")
	} else {
		granted := strings.Fields(q.Get("scope"))
		if g.Grant != nil {
			granted = slices.DeleteFunc(granted, func(s string) bool { return !slices.Contains(g.Grant, s) })
		}
		c := connecttest.RandHex(16)
		g.mu.Lock()
		g.codes[c] = &code{redirect: q.Get("redirect_uri"), challenge: q.Get("code_challenge"), scope: strings.Join(granted, " "), expires: time.Now().Add(10 * time.Minute)}
		g.mu.Unlock()
		bq.Set("code", "4/"+c)
		bq.Set("scope", strings.Join(granted, " "))
	}
	back.RawQuery = bq.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func oauthError(w http.ResponseWriter, status int, code, desc string) {
	connecttest.WriteJSON(w, status, "application/json; charset=utf-8", map[string]string{"error": code, "error_description": desc})
}

// token is the token endpoint (steps 5 and "refreshing an access token").
func (g *Google) token(w http.ResponseWriter, r *http.Request) {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
		g.Problem("token: Content-Type %q (the endpoint takes a form)", ct)
		oauthError(w, http.StatusBadRequest, "invalid_request", "Invalid content type")
		return
	}
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	f := r.PostForm
	if f.Get("client_id") != g.ClientID || f.Get("client_secret") != g.ClientSecret {
		g.Problem("token: wrong client_id or client_secret")
		oauthError(w, http.StatusUnauthorized, "invalid_client", "The OAuth client was not found.")
		return
	}
	if fail, ok := g.NextFailure(); ok {
		oauthError(w, fail.Status, fail.Reason, "queued failure")
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	var gr *grant
	switch f.Get("grant_type") {
	case "authorization_code":
		c, ok := g.codes[strings.TrimPrefix(f.Get("code"), "4/")]
		switch {
		case !ok || c.used || time.Now().After(c.expires):
			oauthError(w, http.StatusBadRequest, "invalid_grant", "Malformed auth code.")
			return
		case f.Get("redirect_uri") != c.redirect:
			g.Problem("token: redirect_uri differs from the consent request's")
			oauthError(w, http.StatusBadRequest, "redirect_uri_mismatch", "Bad Request")
			return
		case pkce(f.Get("code_verifier")) != c.challenge:
			oauthError(w, http.StatusBadRequest, "invalid_grant", "Invalid code verifier.")
			return
		}
		c.used = true
		gr = &grant{refresh: "1//" + connecttest.RandHex(24), scope: strings.Fields(c.scope)}
		g.grants[gr.refresh] = gr
	case "refresh_token":
		var ok bool
		if gr, ok = g.grants[f.Get("refresh_token")]; !ok || gr.revoked {
			oauthError(w, http.StatusBadRequest, "invalid_grant", "Token has been expired or revoked.")
			return
		}
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "Invalid grant_type: "+f.Get("grant_type"))
		return
	}
	tok := "ya29." + connecttest.RandHex(24)
	g.tokens[tok] = &access{grant: gr, expires: time.Now().Add(g.AccessLife)}
	out := map[string]any{"access_token": tok, "expires_in": int(g.AccessLife.Seconds()), "scope": strings.Join(gr.scope, " "), "token_type": "Bearer"}
	if f.Get("grant_type") == "authorization_code" {
		out["refresh_token"] = gr.refresh
	}
	connecttest.WriteJSON(w, http.StatusOK, "application/json; charset=utf-8", out)
}

func pkce(verifier string) string {
	if len(verifier) < 43 || len(verifier) > 128 {
		return ""
	}
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// revoke is the revocation endpoint: a refresh token or an access token ends the grant.
func (g *Google) revoke(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	tok := r.PostForm.Get("token")
	g.mu.Lock()
	defer g.mu.Unlock()
	if gr, ok := g.grants[tok]; ok && !gr.revoked {
		gr.revoked = true
		w.WriteHeader(http.StatusOK)
		return
	}
	if a, ok := g.tokens[tok]; ok && !a.grant.revoked {
		a.grant.revoked = true
		w.WriteHeader(http.StatusOK)
		return
	}
	oauthError(w, http.StatusBadRequest, "invalid_token", "Token expired or revoked")
}

func apiError(w http.ResponseWriter, status int, reason, message string) {
	connecttest.WriteJSON(w, status, "application/json; charset=UTF-8", map[string]any{"error": map[string]any{
		"code": status, "message": message, "errors": []map[string]string{{"domain": "global", "reason": reason, "message": message}},
	}})
}

// api checks the bearer token (live, its grant not revoked) and its scopes
// before the handler; a queued failure answers instead.
func (g *Google) api(scope string, h func(http.ResponseWriter, *http.Request)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tok := connecttest.Bearer(r)
		g.mu.Lock()
		a, ok := g.tokens[tok]
		live := ok && !a.grant.revoked && time.Now().Before(a.expires)
		allowed := ok && (slices.Contains(a.grant.scope, scope) || slices.Contains(a.grant.scope, scopeAll))
		g.mu.Unlock()
		if !live {
			apiError(w, http.StatusUnauthorized, "authError", "Invalid Credentials")
			return
		}
		if !allowed {
			apiError(w, http.StatusForbidden, "insufficientPermissions", "Request had insufficient authentication scopes.")
			return
		}
		if fail, ok := g.NextFailure(); ok {
			apiError(w, fail.Status, fail.Reason, "queued failure")
			return
		}
		h(w, r)
	}
}

func (g *Google) calendarList(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	items := []map[string]any{}
	for _, id := range g.order {
		c := g.calendars[id]
		items = append(items, map[string]any{"kind": "calendar#calendarListEntry", "id": id, "summary": c.summary, "accessRole": c.role, "primary": c.primary})
	}
	connecttest.WriteJSON(w, http.StatusOK, "application/json; charset=UTF-8", map[string]any{"kind": "calendar#calendarList", "items": items})
}

func (g *Google) freeBusy(w http.ResponseWriter, r *http.Request) {
	var in struct {
		TimeMin, TimeMax string
		Items            []struct{ ID string }
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		apiError(w, http.StatusBadRequest, "parseError", "Parse Error")
		return
	}
	from, err1 := time.Parse(time.RFC3339, in.TimeMin)
	to, err2 := time.Parse(time.RFC3339, in.TimeMax)
	switch {
	case err1 != nil || err2 != nil:
		g.Problem("freeBusy: timeMin %q / timeMax %q are not RFC 3339", in.TimeMin, in.TimeMax)
		apiError(w, http.StatusBadRequest, "badRequest", "Bad Request")
		return
	case !from.Before(to):
		g.Problem("freeBusy: empty time range")
		apiError(w, http.StatusBadRequest, "timeRangeEmpty", "The specified time range is empty.")
		return
	case len(in.Items) > gcal.FreeBusyMax:
		g.Problem("freeBusy: %d calendars", len(in.Items))
		apiError(w, http.StatusBadRequest, "tooManyCalendarsRequested", "The number of calendars requested is too large.")
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	cals := map[string]any{}
	for _, it := range in.Items {
		c, ok := g.calendars[it.ID]
		if !ok {
			cals[it.ID] = map[string]any{"errors": []map[string]string{{"domain": "global", "reason": "notFound"}}, "busy": []any{}}
			continue
		}
		busy := []map[string]string{}
		for _, e := range sortedEvents(c) {
			if e.Cancelled || e.Transparent || !e.Start.Before(to) || !e.End.After(from) {
				continue
			}
			busy = append(busy, map[string]string{"start": maxTime(e.Start, from).UTC().Format(time.RFC3339), "end": minTime(e.End, to).UTC().Format(time.RFC3339)})
		}
		cals[it.ID] = map[string]any{"busy": busy}
	}
	connecttest.WriteJSON(w, http.StatusOK, "application/json; charset=UTF-8", map[string]any{"kind": "calendar#freeBusy", "timeMin": in.TimeMin, "timeMax": in.TimeMax, "calendars": cals})
}

func sortedEvents(c *calendar) []*Event {
	out := make([]*Event, 0, len(c.events))
	for _, e := range c.events {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b *Event) int { return a.Start.Compare(b.Start) })
	return out
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// An id the client chooses: base32hex (a–v, 0–9), 5 to 1024 characters.
var eventID = regexp.MustCompile(`^[a-v0-9]+$`)

type eventBody struct {
	ID, Summary, Location, Description, Status, Transparency *string
	Start, End                                               *struct{ DateTime, TimeZone string }
}

// writable finds the calendar and checks the owner may write events there.
func (g *Google) writable(w http.ResponseWriter, r *http.Request) *calendar {
	c, ok := g.calendars[r.PathValue("cal")]
	if !ok {
		apiError(w, http.StatusNotFound, "notFound", "Not Found")
		return nil
	}
	if c.role != "owner" && c.role != "writer" {
		apiError(w, http.StatusForbidden, "requiredAccessLevel", "You need to have writer access to this calendar.")
		return nil
	}
	return c
}

func (g *Google) apply(w http.ResponseWriter, e *Event, b eventBody) bool {
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	set(&e.Summary, b.Summary)
	set(&e.Location, b.Location)
	set(&e.Description, b.Description)
	if b.Status != nil {
		e.Cancelled = *b.Status == "cancelled"
	}
	if b.Transparency != nil {
		e.Transparent = *b.Transparency == "transparent"
	}
	for _, x := range []struct {
		in  *struct{ DateTime, TimeZone string }
		out *time.Time
	}{{b.Start, &e.Start}, {b.End, &e.End}} {
		if x.in == nil {
			continue
		}
		t, err := time.Parse(time.RFC3339, x.in.DateTime)
		if err != nil {
			g.Problem("event: dateTime %q is not RFC 3339", x.in.DateTime)
			apiError(w, http.StatusBadRequest, "invalid", "Invalid start or end time.")
			return false
		}
		if x.in.TimeZone != "" {
			if _, err := time.LoadLocation(x.in.TimeZone); err != nil {
				apiError(w, http.StatusBadRequest, "timeZoneUnknown", "Invalid time zone definition for start time.")
				return false
			}
			e.Zone = x.in.TimeZone
		}
		*x.out = t
	}
	if !e.Start.Before(e.End) {
		g.Problem("event %s: end not after start", e.ID)
		apiError(w, http.StatusBadRequest, "timeRangeEmpty", "The specified time range is empty.")
		return false
	}
	return true
}

func (g *Google) insert(w http.ResponseWriter, r *http.Request) {
	var b eventBody
	if err := json.NewDecoder(r.Body).Decode(&b); err != nil {
		apiError(w, http.StatusBadRequest, "parseError", "Parse Error")
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.writable(w, r)
	if c == nil {
		return
	}
	id := connecttest.RandHex(13)
	if b.ID != nil {
		if !eventID.MatchString(*b.ID) || len(*b.ID) < 5 || len(*b.ID) > 1024 {
			g.Problem("insert: id %q is not base32hex of 5 to 1024 characters", *b.ID)
			apiError(w, http.StatusBadRequest, "invalid", "Invalid resource id value.")
			return
		}
		id = *b.ID
	}
	if _, taken := c.events[id]; taken {
		// A deleted event keeps its id: inserting it again is a duplicate too.
		apiError(w, http.StatusConflict, "duplicate", "The requested identifier already exists.")
		return
	}
	if b.Start == nil || b.End == nil {
		g.Problem("insert: start and end are required")
		apiError(w, http.StatusBadRequest, "required", "Missing end time.")
		return
	}
	e := &Event{ID: id}
	if !g.apply(w, e, b) {
		return
	}
	g.version++
	e.version = g.version
	c.events[id] = e
	connecttest.WriteJSON(w, http.StatusOK, "application/json; charset=UTF-8", map[string]any{"kind": "calendar#event", "id": id, "status": "confirmed"})
}

func (g *Google) patch(w http.ResponseWriter, r *http.Request) {
	var b eventBody
	if err := json.NewDecoder(r.Body).Decode(&b); err != nil {
		apiError(w, http.StatusBadRequest, "parseError", "Parse Error")
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.writable(w, r)
	if c == nil {
		return
	}
	e, ok := c.events[r.PathValue("id")]
	if !ok {
		apiError(w, http.StatusNotFound, "notFound", "Not Found")
		return
	}
	next := *e
	if !g.apply(w, &next, b) {
		return
	}
	g.version++
	next.version = g.version
	*e = next
	connecttest.WriteJSON(w, http.StatusOK, "application/json; charset=UTF-8", map[string]any{"kind": "calendar#event", "id": e.ID})
}

func (g *Google) delete(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.writable(w, r)
	if c == nil {
		return
	}
	e, ok := c.events[r.PathValue("id")]
	switch {
	case !ok:
		apiError(w, http.StatusNotFound, "notFound", "Not Found")
	case e.Cancelled:
		apiError(w, http.StatusGone, "deleted", "Resource has been deleted")
	default:
		e.Cancelled = true
		g.version++
		e.version = g.version
		w.WriteHeader(http.StatusNoContent)
	}
}

// list is events.list as a sync reads it: without syncToken every event,
// with one the events changed since it was given (410 fullSyncRequired for
// a token the fake no longer knows).
func (g *Google) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	g.mu.Lock()
	defer g.mu.Unlock()
	c, ok := g.calendars[r.PathValue("cal")]
	if !ok {
		apiError(w, http.StatusNotFound, "notFound", "Not Found")
		return
	}
	since := 0
	if tok := q.Get("syncToken"); tok != "" {
		for _, p := range []string{"timeMin", "timeMax", "q", "orderBy", "updatedMin", "iCalUID"} {
			if q.Has(p) {
				g.Problem("events.list: %s cannot go with syncToken", p)
				apiError(w, http.StatusBadRequest, "invalid", "Invalid sync token value with "+p)
				return
			}
		}
		v, known := g.syncs[tok]
		if !known {
			apiError(w, http.StatusGone, "fullSyncRequired", "Sync token is no longer valid, a full sync is required.")
			return
		}
		since = v
	}
	if m := q.Get("maxResults"); m != "" {
		if n, err := strconv.Atoi(m); err != nil || n < 1 || n > 2500 {
			g.Problem("events.list: maxResults %q", m)
		}
	}
	// A time range (never with a sync token): timeMin bounds an event's end, timeMax its start, both exclusive,
	// RFC 3339 with an offset, timeMin before timeMax.
	var lo, hi time.Time
	for p, at := range map[string]*time.Time{"timeMin": &lo, "timeMax": &hi} {
		if v := q.Get(p); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				g.Problem("events.list: %s %q is not RFC 3339 with an offset", p, v)
				apiError(w, http.StatusBadRequest, "invalid", "Bad Request")
				return
			}
			*at = t
		}
	}
	if !lo.IsZero() && !hi.IsZero() && !lo.Before(hi) {
		apiError(w, http.StatusBadRequest, "timeRangeEmpty", "The specified time range is empty.")
		return
	}
	items := []map[string]any{}
	for _, e := range sortedEvents(c) {
		if (!lo.IsZero() && !e.End.After(lo)) || (!hi.IsZero() && !e.Start.Before(hi)) {
			continue
		}
		if e.version > since && (since > 0 || !e.Cancelled || q.Get("showDeleted") == "true") {
			item := map[string]any{"id": e.ID, "status": "confirmed",
				"start": map[string]string{"dateTime": e.Start.Format(time.RFC3339)}, "end": map[string]string{"dateTime": e.End.Format(time.RFC3339)}}
			if e.Cancelled {
				item["status"] = "cancelled"
			}
			if e.Transparent {
				item["transparency"] = "transparent"
			}
			items = append(items, item)
		}
	}
	next := connecttest.RandHex(12)
	g.syncs[next] = g.version
	connecttest.WriteJSON(w, http.StatusOK, "application/json; charset=UTF-8", map[string]any{"items": items, "nextSyncToken": next, "timeZone": "America/Sao_Paulo"})
}

func (g *Google) watch(w http.ResponseWriter, r *http.Request) {
	var in struct{ ID, Type, Address, Token string }
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		apiError(w, http.StatusBadRequest, "parseError", "Parse Error")
		return
	}
	u, err := url.Parse(in.Address)
	switch {
	case in.Type != "web_hook" || in.ID == "":
		g.Problem("watch: type %q, id %q", in.Type, in.ID)
		apiError(w, http.StatusBadRequest, "invalid", "Invalid channel.")
		return
	case err != nil || u.Scheme != "https":
		apiError(w, http.StatusBadRequest, "push.webhookUrlNotHttps", "WebHook callback must be HTTPS: "+in.Address)
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.calendars[r.PathValue("cal")]; !ok {
		apiError(w, http.StatusNotFound, "notFound", "Not Found")
		return
	}
	ch := &Channel{ID: in.ID, Token: in.Token, Address: in.Address, Calendar: r.PathValue("cal"), ResourceID: connecttest.RandHex(10)}
	g.channels = append(g.channels, ch)
	exp := time.Now().Add(7 * 24 * time.Hour).UnixMilli()
	connecttest.WriteJSON(w, http.StatusOK, "application/json; charset=UTF-8", map[string]any{"kind": "api#channel", "id": ch.ID, "resourceId": ch.ResourceID, "token": ch.Token, "expiration": strconv.FormatInt(exp, 10)})
}

func (g *Google) stop(w http.ResponseWriter, r *http.Request) {
	var in struct{ ID, ResourceID string }
	_ = json.NewDecoder(r.Body).Decode(&in)
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, c := range g.channels {
		if c.ID == in.ID && c.ResourceID == in.ResourceID && !c.Stopped {
			c.Stopped = true
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	apiError(w, http.StatusNotFound, "notFound", "Channel not found")
}
