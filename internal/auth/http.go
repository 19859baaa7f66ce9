package auth

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/memo"
)

// Handlers serves /api/auth/*, /api/me and /api/account.
type Handlers struct {
	svc        *Service
	secure     bool // TLS: Secure cookie with the __Host- prefix
	trustProxy bool
}

// NewHandlers returns the handlers; secure is true when the app is served over HTTPS.
func NewHandlers(svc *Service, secure, trustProxy bool) *Handlers {
	return &Handlers{svc: svc, secure: secure, trustProxy: trustProxy}
}

// Register adds the routes to mux.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("POST /api/auth/signup", httpx.Handle(h.signup))
	mux.Handle("POST /api/auth/login", httpx.Handle(h.login))
	mux.Handle("POST /api/auth/refresh", httpx.Handle(h.refresh))
	mux.Handle("POST /api/auth/logout", httpx.Handle(h.logout))
	mux.Handle("POST /api/auth/password-reset", httpx.Handle(h.passwordReset))
	mux.Handle("POST /api/auth/account-recovery", httpx.Handle(h.requestRecovery))
	mux.Handle("POST /api/auth/account-recovery/complete", httpx.Handle(h.completeRecovery))
	mux.Handle("GET /api/me", h.RequireTeam(httpx.Handle(h.me)))
	mux.Handle("GET /api/members", h.RequireUser(httpx.Handle(h.members)))
	mux.Handle("PUT /api/members/{id}", h.RequireUser(httpx.Handle(h.invite)))
	mux.Handle("DELETE /api/members/{id}", h.RequireUser(httpx.Handle(h.revoke)))
	mux.Handle("GET /api/invites/{token}", httpx.Handle(h.inviteInfo))
	mux.Handle("POST /api/invites/{token}", httpx.Handle(h.acceptInvite))
	mux.Handle("DELETE /api/account", h.RequireUser(httpx.Handle(h.deleteAccount)))
	mux.Handle("GET /api/account/data", h.RequireUser(httpx.Handle(h.accountData)))
}

type userKey struct{}

// UserID is the signed-in owner's id, set by RequireUser.
func UserID(ctx context.Context) string {
	id, _ := ctx.Value(userKey{}).(string)
	return id
}

// WithUserID returns ctx carrying id as the signed-in owner (for tests and jobs).
func WithUserID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, userKey{}, id)
}

type sessionKey struct{}

// SessionID is the sign-in (refresh family, the token's sid) of the
// request's access token, set by RequireUser: the device that acts. Empty
// outside an owner's request.
func SessionID(ctx context.Context) string {
	id, _ := ctx.Value(sessionKey{}).(string)
	return id
}

type professionalKey struct{}

// Account is the account that signed in: the owner's, or a professional's
// own (issue 43); "" outside a signed-in request. Records are signed by it.
func Account(ctx context.Context) string {
	if tok, ok := ctx.Value(tokenKey{}).(accessToken); ok {
		return tok.UserID
	}
	return ""
}

// Professional is, on a request of a professional's own sign-in (issue 43
// §0), the professional of the team it is; "" on the owner's. The routes
// RequireTeam opens to professionals scope what they read and write by it.
func Professional(ctx context.Context) string {
	id, _ := ctx.Value(professionalKey{}).(string)
	return id
}

// WithProfessional returns ctx acting as that professional of the owner's
// team (for tests).
func WithProfessional(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, professionalKey{}, id)
}

// RequireUser answers 401 unless the request carries a valid access token
// whose session still stands (sessions.go), and 503 when the database cannot
// tell. The request's context ends if the session is revoked while it runs.
// It is the owner's: a professional's sign-in is refused (403) — every route
// is the owner's alone unless it is registered through RequireTeam.
func (h *Handlers) RequireUser(next http.Handler) http.Handler { return h.require(next, false) }

// RequireTeam is RequireUser that also lets a professional's own sign-in
// through. UserID is then the practice's owner (every query keeps its
// tenancy check) and Professional the professional, by which the handler
// scopes what it reads and writes: another professional's appointment
// answers 404, as another owner's does.
func (h *Handlers) RequireTeam(next http.Handler) http.Handler { return h.require(next, true) }

func (h *Handlers) require(next http.Handler, team bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok, ok := h.bearerToken(r)
		if !ok {
			httpx.WriteError(w, r, errSessionInvalid)
			return
		}
		if err := h.svc.checkSession(r.Context(), tok); err != nil {
			if err != errSessionInvalid {
				httpx.Logger(r.Context()).Warn("session check failed", "err", err)
				err = httpx.ErrUnavailable
			}
			httpx.WriteError(w, r, err)
			return
		}
		if tok.ProfessionalID != "" && !team {
			httpx.WriteError(w, r, errOwnerOnly)
			return
		}
		ctx, stop := h.svc.watch(r.Context(), tok)
		defer stop()
		owner := tok.owner()
		ctx = context.WithValue(WithUserID(ctx, owner), sessionKey{}, tok.Family)
		ctx = context.WithValue(ctx, tokenKey{}, tok)
		if tok.ProfessionalID != "" {
			ctx = WithProfessional(ctx, tok.ProfessionalID)
			ctx = memo.WithViewer(ctx, "professional:"+tok.ProfessionalID)
		}
		ctx = httpx.WithAccountCheck(ctx, func(ctx context.Context) bool { return h.svc.accountGone(ctx, owner) })
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

type tokenKey struct{}

// SessionCheck is, for a request RequireUser let through, whether its
// session still stands, for work that outlives the request (an owner's event
// stream handed to the notifications hub): false once the session is found
// revoked; a database error is not a revoke (true: look again later). Each
// call costs what RequireUser's own check does (a read per session at most
// once per SessionCheckTTL in this process).
func (h *Handlers) SessionCheck(ctx context.Context) func(context.Context) bool {
	tok, ok := ctx.Value(tokenKey{}).(accessToken)
	if !ok {
		return func(context.Context) bool { return false }
	}
	return func(ctx context.Context) bool { return h.svc.checkSession(ctx, tok) != errSessionInvalid }
}

// bearerToken is the request's access token when its signature and expiry
// are good (its session is not checked).
func (h *Handlers) bearerToken(r *http.Request) (accessToken, bool) {
	authz := r.Header.Get("Authorization")
	token, ok := strings.CutPrefix(authz, "Bearer ")
	if !ok {
		return accessToken{}, false
	}
	tok, err := h.svc.signer.verify(strings.TrimSpace(token))
	return tok, err == nil
}

const (
	cookieName       = "agendei_refresh"
	secureCookieName = "__Host-agendei_refresh"
)

func (h *Handlers) cookieName() string {
	if h.secure {
		return secureCookieName
	}
	return cookieName
}

func (h *Handlers) setRefreshCookie(w http.ResponseWriter, token string, maxAge int) {
	http.SetCookie(w, &http.Cookie{
		Name:     h.cookieName(),
		Value:    token,
		Path:     "/", // required by the __Host- prefix
		MaxAge:   maxAge,
		HttpOnly: true,
		Secure:   h.secure,
		SameSite: http.SameSiteStrictMode,
	})
}

func (h *Handlers) refreshCookie(r *http.Request) string {
	if c, err := r.Cookie(h.cookieName()); err == nil {
		return c.Value
	}
	return ""
}

type sessionJSON struct {
	User struct {
		ID    string `json:"id"`
		Email string `json:"email"`
		Role  string `json:"role"`
	} `json:"user"`
	AccessToken string    `json:"accessToken"`
	ExpiresAt   time.Time `json:"expiresAt"`
	ExpiresIn   int       `json:"expiresIn"`
}

func (h *Handlers) writeSession(w http.ResponseWriter, status int, s *Session) {
	h.setRefreshCookie(w, s.RefreshToken, int(RefreshTTL.Seconds()))
	var body sessionJSON
	body.User.ID, body.User.Email, body.User.Role = s.UserID, s.Email, s.Role
	body.AccessToken = s.AccessToken
	body.ExpiresAt = s.ExpiresAt
	body.ExpiresIn = int(AccessTTL.Seconds())
	httpx.WriteJSON(w, status, body)
}

var success = map[string]bool{"success": true}

func (h *Handlers) ip(r *http.Request) string { return httpx.ClientIP(r, h.trustProxy) }

func (h *Handlers) signup(w http.ResponseWriter, r *http.Request) error {
	var in SignupInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	s, err := h.svc.Signup(r.Context(), in, h.ip(r))
	if err != nil {
		return err
	}
	h.writeSession(w, http.StatusCreated, s)
	return nil
}

func (h *Handlers) login(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	s, err := h.svc.Login(r.Context(), in.Email, in.Password, h.ip(r))
	if err != nil {
		return err
	}
	h.writeSession(w, http.StatusOK, s)
	return nil
}

func (h *Handlers) refresh(w http.ResponseWriter, r *http.Request) error {
	s, err := h.svc.Refresh(r.Context(), h.refreshCookie(r))
	if err != nil {
		if err == errSessionInvalid {
			h.setRefreshCookie(w, "", -1)
		}
		return err
	}
	h.writeSession(w, http.StatusOK, s)
	return nil
}

func (h *Handlers) logout(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Scope string `json:"scope"`
	}
	if r.ContentLength != 0 {
		if err := httpx.DecodeJSON(w, r, &in); err != nil {
			return err
		}
	}
	if in.Scope != "" && in.Scope != "local" && in.Scope != "global" {
		return httpx.Validation("Escopo de saída inválido.")
	}
	global := in.Scope != "local" // the spec signs out globally by default
	tok, _ := h.bearerToken(r)
	if err := h.svc.Logout(r.Context(), h.refreshCookie(r), tok, global); err != nil {
		return err
	}
	h.setRefreshCookie(w, "", -1)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (h *Handlers) passwordReset(w http.ResponseWriter, r *http.Request) error {
	var in ResetInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if err := h.svc.ResetPassword(r.Context(), in, h.ip(r)); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, success)
	return nil
}

func (h *Handlers) requestRecovery(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Email string `json:"email"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if err := h.svc.RequestRecovery(r.Context(), in.Email, h.ip(r)); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusAccepted, success)
	return nil
}

func (h *Handlers) completeRecovery(w http.ResponseWriter, r *http.Request) error {
	var in RecoveryInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if err := h.svc.CompleteRecovery(r.Context(), in, h.ip(r)); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, success)
	return nil
}

func (h *Handlers) me(w http.ResponseWriter, r *http.Request) error {
	m, err := h.svc.Me(r.Context(), UserID(r.Context()), Professional(r.Context()))
	return httpx.Respond(w, http.StatusOK, m, err)
}

// accountData is the owner's LGPD copy, as a download.
func (h *Handlers) accountData(w http.ResponseWriter, r *http.Request) error {
	body, err := h.svc.Copy(r.Context(), UserID(r.Context()))
	if err != nil {
		return err
	}
	name := "meus-dados-agendei-" + h.svc.clock.Now().Format("2006-01-02") + ".json"
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Cache-Control", "no-store")
	_, err = w.Write(body)
	return err
}

func (h *Handlers) deleteAccount(w http.ResponseWriter, r *http.Request) error {
	var in DeleteInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if err := h.svc.DeleteAccount(r.Context(), UserID(r.Context()), in); err != nil {
		return err
	}
	h.setRefreshCookie(w, "", -1)
	httpx.WriteJSON(w, http.StatusOK, success)
	return nil
}
