package connect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Client is a typed JSON client of one provider's API. Each owner has their
// own token, so it is an argument of every call, never state of the client.
type Client struct {
	BaseURL string       // the API's origin, without a trailing "/"
	HTTP    *http.Client // nil: http.DefaultClient
	// Name starts every error the client returns ("graph api", "mercado pago").
	Name string
	// MaxBody bounds the answer read (a larger one is an error, never cut
	// into something that still parses); 0 is 1 MiB.
	MaxBody int64
	// Fault reads the provider's error answer (a status ≥ 300) as its
	// typed error, which should implement Fault; nil: *StatusError.
	Fault func(status int, body []byte) error
}

// NewClient is a client of baseURL with a bounded timeout.
func NewClient(name, baseURL string) *Client {
	return &Client{Name: name, BaseURL: strings.TrimRight(baseURL, "/"), HTTP: &http.Client{Timeout: 15 * time.Second}}
}

// Call is one request.
type Call struct {
	Method, Path string
	Query        url.Values
	Token        string // sent as Authorization: Bearer ("": no Authorization)
	// IdempotencyKey, when not empty, goes as X-Idempotency-Key: the same
	// key answers the same resource.
	IdempotencyKey string
	In             any // marshalled as the JSON body (nil: none)
	Out            any // the answer is decoded into it, numbers as json.Number (nil: ignored)
}

// Fault is a provider's error answer: Auth when the token is refused or
// lacks a right, Temporary when trying again later may work.
type Fault interface {
	error
	Auth() bool
	Temporary() bool
}

// StatusError is an error answer read only by its HTTP status.
type StatusError struct {
	Status int
	Body   string // at most the first 512 bytes
}

func (e *StatusError) Error() string { return fmt.Sprintf("http %d: %s", e.Status, e.Body) }

// Auth reports a token refused (401) or without the right (403).
func (e *StatusError) Auth() bool { return AuthStatus(e.Status) }

// Temporary reports throttling (429) or the provider's own fault (5xx).
func (e *StatusError) Temporary() bool { return TemporaryStatus(e.Status) }

// AuthStatus is the HTTP reading of Auth: 401 or 403.
func AuthStatus(status int) bool {
	return status == http.StatusUnauthorized || status == http.StatusForbidden
}

// TemporaryStatus is the HTTP reading of Temporary: 429 or 5xx.
func TemporaryStatus(status int) bool { return status == http.StatusTooManyRequests || status >= 500 }

// Temporary reports whether err (from any call) may succeed if tried
// again: a transport fault, or a Fault that says so.
func Temporary(err error) bool {
	var f Fault
	if errors.As(err, &f) {
		return f.Temporary()
	}
	return err != nil
}

// OutcomeUnknown reports whether a call ended without the provider's
// answer after the request may have reached it (a time-out): a write may
// have been done, and doing it again could do it twice.
func OutcomeUnknown(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// Do makes the call: the error is the provider's Fault for an error
// answer, or a wrapped transport or decoding fault.
func (c *Client) Do(ctx context.Context, call Call) error {
	u := c.BaseURL + call.Path
	if len(call.Query) > 0 {
		u += "?" + call.Query.Encode()
	}
	var body io.Reader
	if call.In != nil {
		b, err := json.Marshal(call.In)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, call.Method, u, body)
	if err != nil {
		return err
	}
	if call.Token != "" { // an app's own calls (an OAuth token's grant) carry none
		req.Header.Set("Authorization", "Bearer "+call.Token)
	}
	req.Header.Set("Accept", "application/json")
	if call.In != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if call.IdempotencyKey != "" {
		req.Header.Set("X-Idempotency-Key", call.IdempotencyKey)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	res, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Name, err)
	}
	defer res.Body.Close()
	limit := c.MaxBody
	if limit <= 0 {
		limit = 1 << 20
	}
	raw, err := io.ReadAll(io.LimitReader(res.Body, limit+1))
	if err != nil {
		return fmt.Errorf("%s: %w", c.Name, err)
	}
	if int64(len(raw)) > limit {
		return fmt.Errorf("%s: answer larger than %d bytes (HTTP %d)", c.Name, limit, res.StatusCode)
	}
	if res.StatusCode >= 300 {
		if c.Fault != nil {
			return c.Fault(res.StatusCode, raw)
		}
		return &StatusError{Status: res.StatusCode, Body: string(raw[:min(len(raw), 512)])}
	}
	if call.Out == nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(call.Out); err != nil {
		return fmt.Errorf("%s: unexpected answer: %w", c.Name, err)
	}
	return nil
}
