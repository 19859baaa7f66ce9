package calendars

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/gcal"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Push notices (issue 42 §4): when Agendei's base URL is public HTTPS — as
// Google requires of a webhook — each chosen calendar is watched
// (events.watch) and Google posts to /webhooks/google whenever its events
// change; the notice only queues a read, which goes as any other. The
// channel's id starts with the row's id, and its secret token is an HMAC of
// the id with the server's key: nothing secret is stored, and a notice is
// believed only with the token. Without push, reads are polled every
// AGENDEI_CALENDAR_READ_EVERY, as they are anyway.

// PushAddress is the webhook Google is asked to post to: {base}/webhooks/google
// when base is HTTPS on a public name, "" otherwise (then reads are polled).
func PushAddress(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "https" || u.Hostname() == "" {
		return ""
	}
	host := u.Hostname()
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".local") {
		return ""
	}
	if ip := net.ParseIP(host); ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified()) {
		return ""
	}
	return strings.TrimRight(base, "/") + "/webhooks/google"
}

// watchRenew is how long before its end a channel is renewed (Google's last
// about a week).
const watchRenew = 24 * time.Hour

func (g *Google) channelToken(channelID string) string {
	mac := hmac.New(sha256.New, g.ChannelKey)
	mac.Write([]byte("google-channel:" + channelID))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// watchKey is where a calendar's channel is kept in the row's sync JSON:
// "<channel id> <resource id> <expiration, ms>".
func watchKey(calendarID string) string { return "watch:" + calendarID }

// watchGoogle keeps a live channel on each chosen calendar, when push is on;
// a channel Google refuses leaves the calendar polled.
func (s *Service) watchGoogle(ctx context.Context, r *googleRow, access string, next map[string]string) {
	if s.Google.Webhook == "" || len(s.Google.ChannelKey) == 0 {
		return
	}
	now := s.Clock.Now()
	for _, cal := range r.calendars {
		if v, ok := r.sync[watchKey(cal)]; ok {
			var id, res string
			var ms int64
			if _, err := fmt.Sscanf(v, "%s %s %d", &id, &res, &ms); err == nil && time.UnixMilli(ms).After(now.Add(watchRenew)) {
				next[watchKey(cal)] = v
				continue
			}
		}
		id := r.id + "_" + connect.RandomToken(9)
		ch, err := s.Google.App.Watch(ctx, access, cal, s.Google.Webhook, gcal.Channel{ID: id, Token: s.Google.channelToken(id)})
		if err != nil {
			s.logGoogle("watch", err)
			continue
		}
		next[watchKey(cal)] = fmt.Sprintf("%s %s %d", ch.ID, ch.ResourceID, ch.Expiration.UnixMilli())
	}
}

// stopWatches ends the row's channels (best effort: they end by themselves
// within a week, and a notice of a gone row does nothing).
func (s *Service) stopWatches(ctx context.Context, r *googleRow, access string) {
	for k, v := range r.sync {
		if !strings.HasPrefix(k, "watch:") {
			continue
		}
		var id, res string
		var ms int64
		if _, err := fmt.Sscanf(v, "%s %s %d", &id, &res, &ms); err != nil {
			continue
		}
		if err := s.Google.App.StopWatch(ctx, access, gcal.Channel{ID: id, ResourceID: res}); err != nil {
			s.logGoogle("stop watch", err)
		}
	}
}

var errChannel = httpx.NewError(http.StatusUnauthorized, "invalid_channel", "Canal desconhecido.")

// Notice is a push notice from Google: its channel token must be the one
// Agendei gave the channel; then a read of the account is queued now
// (Google's first "sync" notice only says the channel works).
func (s *Service) Notice(ctx context.Context, channelID, token, state string) error {
	if s.Google == nil || len(s.Google.ChannelKey) == 0 || len(channelID) < 38 || len(channelID) > 64 || !hmac.Equal([]byte(token), []byte(s.Google.channelToken(channelID))) {
		return errChannel
	}
	if state == "sync" {
		return nil
	}
	id := channelID[:36]
	var owner, lastError string
	err := s.DB.QueryRowContext(ctx, `SELECT user_id, last_error FROM calendar_sources WHERE id = ? AND kind = ?`, id, KindGoogle).Scan(&owner, &lastError)
	if errors.Is(err, sql.ErrNoRows) || lastError == RefusedGoogle {
		return nil // disconnected meanwhile, or waiting for the owner to connect again
	}
	if err != nil {
		return err
	}
	now := s.Clock.Now()
	return s.DB.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE calendar_sources SET next_read_at = ? WHERE id = ?`, now.Add(s.every()), id); err != nil {
			return err
		}
		tx.OnCommit(s.Queue.Wake)
		return s.Queue.Enqueue(ctx, tx, jobs.About{UserID: owner}, JobRead, readJob{ID: id}, now, 1)
	})
}

// registerGoogleWebhook adds /webhooks/google (Google posts no body; the
// channel's headers say everything).
func (h *Handlers) registerGoogleWebhook(mux *http.ServeMux) {
	mux.Handle("POST /webhooks/google", httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		err := h.Svc.Notice(r.Context(), r.Header.Get("X-Goog-Channel-ID"), r.Header.Get("X-Goog-Channel-Token"), r.Header.Get("X-Goog-Resource-State"))
		return httpx.Respond(w, http.StatusOK, map[string]bool{"received": true}, err)
	}))
}
