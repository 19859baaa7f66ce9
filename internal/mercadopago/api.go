package mercadopago

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/platform/connect"
)

// API is a small typed client of the Mercado Pago REST API calls Agendei
// makes. Each owner has their own token, so it is an argument of every
// call, never state of the client.
//
// The shapes follow Mercado Pago's API reference:
//   - users: GET /users/me → {"id":123,"nickname":"…","email":"…","site_id":"MLB",…}
//   - payments: POST /v1/payments with headers Authorization: Bearer and
//     X-Idempotency-Key, body {transaction_amount (number, reais),
//     description, payment_method_id:"pix", payer:{email},
//     external_reference, notification_url, date_of_expiration
//     ("yyyy-MM-dd'T'HH:mm:ss.SSSz", e.g. 2026-11-26T14:30:00.000-03:00)}
//     → 201 {"id":123,"status":"pending","status_detail":"pending_waiting_transfer",
//     "transaction_amount":30,"external_reference":"…","date_of_expiration":"…",
//     "point_of_interaction":{"type":"PIX","transaction_data":{"qr_code":"000201…",
//     "qr_code_base64":"iVBOR…","ticket_url":"https://…"}}};
//     GET /v1/payments/{id} → the same object, with status approved and
//     date_approved once paid.
//   - errors: {"message":"…","error":"bad_request","status":400,"cause":[{"code":…,"description":"…"}]}.
type API struct {
	*connect.Client // BaseURL e.g. https://api.mercadopago.com (config AGENDEI_MERCADOPAGO_API_URL)
}

// NewAPI returns a client of the API at baseURL with a bounded timeout.
func NewAPI(baseURL string) *API {
	c := connect.NewClient("mercado pago", baseURL)
	c.MaxBody = 4 << 20 // a payment carries its QR code's PNG
	c.Fault = func(status int, body []byte) error {
		e := &APIError{}
		_ = json.Unmarshal(body, e)
		e.Status = status
		return e
	}
	return &API{c}
}

// DateLayout is how Mercado Pago writes and reads dates.
const DateLayout = "2006-01-02T15:04:05.000-07:00"

// APIError is an error answer of the API.
type APIError struct {
	Status  int    `json:"status"`
	Code    string `json:"error"`
	Message string `json:"message"`
	Cause   []struct {
		Code        json.Number `json:"code"`
		Description string      `json:"description"`
	} `json:"cause"`
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("mercado pago: %d %s: %s", e.Status, e.Code, e.Message)
	for _, c := range e.Cause {
		s += fmt.Sprintf(" [%s %s]", c.Code, c.Description)
	}
	return s
}

// Auth reports a token refused (401) or without the right (403).
func (e *APIError) Auth() bool { return connect.AuthStatus(e.Status) }

// Temporary reports an error worth retrying: throttling or Mercado Pago's own fault.
func (e *APIError) Temporary() bool { return connect.TemporaryStatus(e.Status) }

// User is the account a token belongs to.
type User struct {
	ID        int64  `json:"id"`
	Nickname  string `json:"nickname"`
	Email     string `json:"email"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	SiteID    string `json:"site_id"` // MLB for Brazil
}

// Me reads the account of a token: it proves the token works.
func (a *API) Me(ctx context.Context, token string) (*User, error) {
	var u User
	if err := a.do(ctx, token, http.MethodGet, "/users/me", "", nil, &u); err != nil {
		return nil, err
	}
	return &u, nil
}

// PixRequest is a Pix payment to create.
type PixRequest struct {
	AmountCents       int64 // integer centavos; sent as reais with two decimals
	Description       string
	ExternalReference string // the booking's reference
	PayerEmail        string
	ExpiresAt         time.Time
	NotificationURL   string
	IdempotencyKey    string // the same key answers the same payment
}

// Payment is a payment as the API shows it.
type Payment struct {
	ID                string
	Status            string // pending, approved, authorized, in_process, in_mediation, rejected, cancelled, refunded, charged_back
	StatusDetail      string
	AmountCents       int64
	ExternalReference string
	PaymentMethodID   string
	ExpiresAt         time.Time // zero when absent
	ApprovedAt        time.Time // zero until approved
	QRCode            string    // the Pix "copia e cola" text (a BR Code)
	QRCodeBase64      string    // a PNG of the QR code, base64
	TicketURL         string
}

// wirePayment is the part of the API's payment object Agendei reads.
type wirePayment struct {
	ID                 json.Number `json:"id"`
	Status             string      `json:"status"`
	StatusDetail       string      `json:"status_detail"`
	TransactionAmount  json.Number `json:"transaction_amount"`
	ExternalReference  string      `json:"external_reference"`
	PaymentMethodID    string      `json:"payment_method_id"`
	DateOfExpiration   string      `json:"date_of_expiration"`
	DateApproved       string      `json:"date_approved"`
	PointOfInteraction struct {
		TransactionData struct {
			QRCode       string `json:"qr_code"`
			QRCodeBase64 string `json:"qr_code_base64"`
			TicketURL    string `json:"ticket_url"`
		} `json:"transaction_data"`
	} `json:"point_of_interaction"`
}

func (w wirePayment) payment() (*Payment, error) {
	if w.ID == "" {
		return nil, errors.New("mercado pago: payment without an id")
	}
	cents, err := Cents(string(w.TransactionAmount))
	if err != nil {
		return nil, fmt.Errorf("mercado pago: transaction_amount: %w", err)
	}
	p := &Payment{ID: string(w.ID), Status: w.Status, StatusDetail: w.StatusDetail, AmountCents: cents,
		ExternalReference: w.ExternalReference, PaymentMethodID: w.PaymentMethodID,
		QRCode: w.PointOfInteraction.TransactionData.QRCode, QRCodeBase64: w.PointOfInteraction.TransactionData.QRCodeBase64,
		TicketURL: w.PointOfInteraction.TransactionData.TicketURL}
	if w.DateOfExpiration != "" {
		if p.ExpiresAt, err = time.Parse(time.RFC3339, w.DateOfExpiration); err != nil {
			return nil, fmt.Errorf("mercado pago: date_of_expiration: %w", err)
		}
	}
	if w.DateApproved != "" {
		if p.ApprovedAt, err = time.Parse(time.RFC3339, w.DateApproved); err != nil {
			return nil, fmt.Errorf("mercado pago: date_approved: %w", err)
		}
	}
	return p, nil
}

// CreatePix creates a Pix payment. The amount goes as a JSON number in
// reais written from the centavos by integer arithmetic (3000 → 30.00).
func (a *API) CreatePix(ctx context.Context, token string, r PixRequest) (*Payment, error) {
	if r.AmountCents <= 0 {
		return nil, errors.New("mercado pago: amount must be positive")
	}
	if r.IdempotencyKey == "" {
		return nil, errors.New("mercado pago: an idempotency key is required")
	}
	body := map[string]any{
		"transaction_amount": json.Number(Reais(r.AmountCents)),
		"description":        r.Description,
		"payment_method_id":  "pix",
		"payer":              map[string]string{"email": r.PayerEmail},
		"external_reference": r.ExternalReference,
		"notification_url":   r.NotificationURL,
		"date_of_expiration": r.ExpiresAt.Format(DateLayout),
	}
	var w wirePayment
	if err := a.do(ctx, token, http.MethodPost, "/v1/payments", r.IdempotencyKey, body, &w); err != nil {
		return nil, err
	}
	return w.payment()
}

// Payment reads a payment by its id.
func (a *API) Payment(ctx context.Context, token, id string) (*Payment, error) {
	var w wirePayment
	if err := a.do(ctx, token, http.MethodGet, "/v1/payments/"+url.PathEscape(id), "", nil, &w); err != nil {
		return nil, err
	}
	return w.payment()
}

// Reais writes integer centavos as a decimal in reais: 3000 → "30.00", 5 → "0.05".
func Reais(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return fmt.Sprintf("%s%d.%02d", sign, cents/100, cents%100)
}

// Cents reads a decimal amount in reais ("30", "30.5", "30.00") as integer
// centavos without floating point; more than two decimals that are not
// zeros is an error.
func Cents(s string) (int64, error) {
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || strings.HasPrefix(whole, "-") || strings.HasPrefix(whole, "+") {
		return 0, fmt.Errorf("not an amount: %q", s)
	}
	if len(frac) > 2 {
		if strings.Trim(frac[2:], "0") != "" {
			return 0, fmt.Errorf("amount with fractions of a centavo: %q", s)
		}
		frac = frac[:2]
	}
	for len(frac) < 2 {
		frac += "0"
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > 1e12 {
		return 0, fmt.Errorf("not an amount: %q", s)
	}
	f, err := strconv.ParseInt(frac, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("not an amount: %q", s)
	}
	return w*100 + f, nil
}

// do calls the API with the owner's token; idem, when not empty, goes as
// X-Idempotency-Key.
func (a *API) do(ctx context.Context, token, method, path, idem string, in, out any) error {
	return a.Do(ctx, connect.Call{Method: method, Path: path, Token: token, IdempotencyKey: idem, In: in, Out: out})
}

// TokenRequest is a POST /oauth/token: grant_type "authorization_code"
// (with Code, RedirectURI and CodeVerifier) or "refresh_token" (with
// RefreshToken), always with the application's credentials.
type TokenRequest struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	GrantType    string `json:"grant_type"`
	Code         string `json:"code,omitempty"`
	RedirectURI  string `json:"redirect_uri,omitempty"`
	CodeVerifier string `json:"code_verifier,omitempty"`
	RefreshToken string `json:"refresh_token,omitempty"`
}

// Token is an OAuth grant: the owner's access token for ExpiresIn seconds
// and the refresh token that renews it.
type Token struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	Scope        string `json:"scope"`
	UserID       int64  `json:"user_id"`
	RefreshToken string `json:"refresh_token"`
	PublicKey    string `json:"public_key"`
	LiveMode     bool   `json:"live_mode"`
}

// Token asks for an OAuth grant (the application's own call: no Bearer).
func (a *API) Token(ctx context.Context, r TokenRequest) (*Token, error) {
	var t Token
	if err := a.Do(ctx, connect.Call{Method: http.MethodPost, Path: "/oauth/token", In: r, Out: &t}); err != nil {
		return nil, err
	}
	if t.AccessToken == "" || t.RefreshToken == "" || t.ExpiresIn <= 0 {
		return nil, errors.New("mercado pago: oauth token answer without access_token, refresh_token or expires_in")
	}
	return &t, nil
}
