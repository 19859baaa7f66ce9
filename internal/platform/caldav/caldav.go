// Package caldav is Agendei's CalDAV client (RFC 4791) on emersion/go-webdav:
// find an account's calendars, tell whether one changed, read its events
// over a time range, and write, rewrite and delete the events Agendei owns
// there. It knows no owner and no table: the calendars domain decides what
// the events mean (busy times) and which appointment each write carries.
//
// Every request goes through one http.Client the caller gives (the address
// is typed by an owner, so it is the guarded client that refuses internal
// addresses), with HTTP Basic (an app password) and a bound on each answer.
// Errors say what the owner can do: Auth (the user or app password was
// refused), NotFound (no such calendar), or anything else (try again later).
package caldav

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-ical"
	"github.com/emersion/go-webdav/caldav"
)

// MaxAnswer bounds one answer of the server (a calendar-query over the
// window read is the largest): past it the read fails instead of filling memory.
const MaxAnswer = 8 << 20

// StatusError is a server's answer outside 2xx.
type StatusError struct {
	Method, Path string
	Code         int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("caldav: %s %s: %d %s", e.Method, e.Path, e.Code, http.StatusText(e.Code))
}

// Auth reports whether err is the server refusing the user or app password
// (or their rights over that calendar): trying again will not help.
func Auth(err error) bool {
	var s *StatusError
	return errors.As(err, &s) && (s.Code == http.StatusUnauthorized || s.Code == http.StatusForbidden)
}

// NotFound reports whether err is the server saying there is no such
// calendar or event.
func NotFound(err error) bool {
	var s *StatusError
	return errors.As(err, &s) && (s.Code == http.StatusNotFound || s.Code == http.StatusGone)
}

// Calendar is one of the account's calendars that holds events.
type Calendar struct {
	// Path is the collection's path on the server ("/ana/pessoal/").
	Path string
	// Name is its display name (the path's last segment when it has none).
	Name string
}

// Client talks to one CalDAV account.
type Client struct {
	base *url.URL
	http *basic
	dav  *caldav.Client
}

// New returns a client of the account at endpoint (the server's address as
// the owner's provider gives it: "https://caldav.icloud.com/",
// "https://nuvem.exemplo.com/remote.php/dav/"), signing in with user and
// password through hc.
func New(hc *http.Client, endpoint, user, password string) (*Client, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("caldav: endpoint %q is not an http(s) address", endpoint)
	}
	if u.Path == "" {
		u.Path = "/"
	}
	b := &basic{hc: hc, user: user, password: password}
	dav, err := caldav.NewClient(b, u.String())
	if err != nil {
		return nil, err
	}
	return &Client{base: u, http: b, dav: dav}, nil
}

// Calendars discovers the account's event calendars: the current user's
// principal (RFC 5397), its calendar-home-set (RFC 4791 §6.2.1) and the
// calendars there that hold VEVENTs, in name order.
func (c *Client) Calendars(ctx context.Context) ([]Calendar, error) {
	principal, err := c.dav.FindCurrentUserPrincipal(ctx)
	if err != nil {
		return nil, fmt.Errorf("caldav: current-user-principal: %w", err)
	}
	home, err := c.dav.FindCalendarHomeSet(ctx, principal)
	if err != nil {
		return nil, fmt.Errorf("caldav: calendar-home-set: %w", err)
	}
	found, err := c.dav.FindCalendars(ctx, home)
	if err != nil {
		return nil, fmt.Errorf("caldav: calendars: %w", err)
	}
	var out []Calendar
	for _, f := range found {
		// A server that does not say which components a calendar takes takes all (RFC 4791 §5.2.3).
		if len(f.SupportedComponentSet) > 0 && !slices.Contains(f.SupportedComponentSet, ical.CompEvent) {
			continue
		}
		name := f.Name
		if name == "" {
			name = lastSegment(f.Path)
		}
		out = append(out, Calendar{Path: f.Path, Name: name})
	}
	slices.SortFunc(out, func(a, b Calendar) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// State is what a calendar's collection says of its version: its sync-token
// (RFC 6578) and its getctag (the calendarserver.org extension every major
// server keeps). Either changes whenever an event is added, changed or
// removed, so an unchanged State means nothing to read. Empty when the
// server offers neither: then every read must read.
func (c *Client) State(ctx context.Context, calendar string) (string, error) {
	const body = `<?xml version="1.0" encoding="utf-8"?>
<D:propfind xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/"><D:prop><D:sync-token/><CS:getctag/></D:prop></D:propfind>`
	req, err := http.NewRequestWithContext(ctx, "PROPFIND", c.resolve(calendar), strings.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Depth", "0")
	req.Header.Set("Content-Type", "application/xml; charset=utf-8")
	resp, err := c.http.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var ms struct {
		Responses []struct {
			Propstats []struct {
				Prop struct {
					SyncToken string `xml:"DAV: sync-token"`
					CTag      string `xml:"http://calendarserver.org/ns/ getctag"`
				} `xml:"DAV: prop"`
				Status string `xml:"DAV: status"`
			} `xml:"DAV: propstat"`
		} `xml:"DAV: response"`
	}
	if err := xml.NewDecoder(resp.Body).Decode(&ms); err != nil {
		return "", fmt.Errorf("caldav: PROPFIND %s: %w", calendar, err)
	}
	var token, ctag string
	for _, r := range ms.Responses {
		for _, p := range r.Propstats {
			if !strings.Contains(p.Status, " 200 ") {
				continue
			}
			token = cmpOr(token, strings.TrimSpace(p.Prop.SyncToken))
			ctag = cmpOr(ctag, strings.TrimSpace(p.Prop.CTag))
		}
	}
	if token == "" && ctag == "" {
		return "", nil
	}
	return token + " " + ctag, nil
}

// Events reads the calendar's events that overlap [from, to) with a
// calendar-query (RFC 4791 §7.8): each object whole (a recurring event with
// its overrides), for the caller to expand. The server filters by the range,
// recurrences included.
func (c *Client) Events(ctx context.Context, calendar string, from, to time.Time) ([]*ical.Calendar, error) {
	objs, err := c.dav.QueryCalendar(ctx, calendar, &caldav.CalendarQuery{
		CompRequest: caldav.CalendarCompRequest{Name: ical.CompCalendar, AllProps: true, AllComps: true},
		CompFilter: caldav.CompFilter{Name: ical.CompCalendar, Comps: []caldav.CompFilter{
			{Name: ical.CompEvent, Start: from.UTC(), End: to.UTC()},
		}},
	})
	if err != nil {
		return nil, fmt.Errorf("caldav: calendar-query %s: %w", calendar, err)
	}
	out := make([]*ical.Calendar, 0, len(objs))
	for _, o := range objs {
		if o.Data != nil {
			out = append(out, o.Data)
		}
	}
	return out, nil
}

// Put writes the event uid into the calendar (its object is uid.ics), as
// new or over the previous version: writing the same uid again changes that
// one event, never adds a second. cal must hold one VEVENT with that UID.
func (c *Client) Put(ctx context.Context, calendar, uid string, cal *ical.Calendar) error {
	var buf bytes.Buffer
	if err := ical.NewEncoder(&buf).Encode(cal); err != nil {
		return fmt.Errorf("caldav: encode %s: %w", uid, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.resolve(objectPath(calendar, uid)), &buf)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", ical.MIMEType+"; charset=utf-8")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// Delete removes the event uid from the calendar; one already gone is done.
func (c *Client) Delete(ctx context.Context, calendar, uid string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.resolve(objectPath(calendar, uid)), nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if NotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// resolve makes a server path (as the server's answers give them) an address.
func (c *Client) resolve(path string) string {
	return c.base.ResolveReference(&url.URL{Path: path}).String()
}

// objectPath is the object of an event in a calendar: the UID, escaped, and ".ics".
func objectPath(calendar, uid string) string {
	return strings.TrimSuffix(calendar, "/") + "/" + url.PathEscape(uid) + ".ics"
}

func lastSegment(p string) string {
	p = strings.TrimSuffix(p, "/")
	if i := strings.LastIndex(p, "/"); i >= 0 {
		p = p[i+1:]
	}
	if s, err := url.PathUnescape(p); err == nil {
		return s
	}
	return p
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// basic is the webdav.HTTPClient every request goes through: HTTP Basic,
// answers outside 2xx as a StatusError (their bodies read no further),
// and answers bounded to MaxAnswer.
type basic struct {
	hc             *http.Client
	user, password string
}

func (b *basic) Do(req *http.Request) (*http.Response, error) {
	req.SetBasicAuth(b.user, b.password)
	resp, err := b.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
		return nil, &StatusError{Method: req.Method, Path: req.URL.Path, Code: resp.StatusCode}
	}
	resp.Body = &bounded{r: resp.Body, left: MaxAnswer}
	return resp, nil
}

// errTooLarge ends an answer past MaxAnswer.
var errTooLarge = fmt.Errorf("caldav: answer larger than %d bytes", MaxAnswer)

type bounded struct {
	r    io.ReadCloser
	left int64
}

func (b *bounded) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a body that ends exactly at the bound from a longer one.
		var one [1]byte
		if n, _ := b.r.Read(one[:]); n > 0 {
			return 0, errTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *bounded) Close() error { return b.r.Close() }
