// Package httpx holds what every handler shares: the one JSON error shape,
// decoding with limits, handlers that return errors, and the middleware chain.
package httpx

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/agendei/agendei/internal/platform/db"
)

// Error is an error the client should see: an HTTP status, a stable code and
// a pt-BR message.
type Error struct {
	Status     int
	Code       string
	Message    string
	RetryAfter int // seconds, for 429
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// Errorf builds an *Error.
func NewError(status int, code, message string) *Error {
	return &Error{Status: status, Code: code, Message: message}
}

// Common errors.
var (
	ErrUnauthorized = NewError(http.StatusUnauthorized, "unauthorized", "Sessão inválida. Faça login novamente.")
	ErrNotFound     = NewError(http.StatusNotFound, "not_found", "Não encontrado.")
	ErrBadJSON      = NewError(http.StatusBadRequest, "invalid_json", "Dados inválidos. Verifique as informações e tente novamente.")
	ErrTooLarge     = NewError(http.StatusRequestEntityTooLarge, "too_large", "Os dados enviados são grandes demais.")
	ErrUnavailable  = NewError(http.StatusServiceUnavailable, "unavailable", "Serviço temporariamente indisponível. Tente novamente em instantes.")
	ErrInternal     = NewError(http.StatusInternalServerError, "internal", "Algo deu errado. Tente novamente em alguns minutos.")
	// errClientGone answers a request its client canceled (499, nginx's "client closed request").
	errClientGone = NewError(499, "canceled", "A requisição foi cancelada.")
)

// Validation is a 400 with code validation_failed.
func Validation(message string) *Error {
	return NewError(http.StatusBadRequest, "validation_failed", message)
}

type errorBody struct {
	Error errorDetail `json:"error"`
}
type errorDetail struct {
	Code       string `json:"code"`
	Message    string `json:"message"`
	RetryAfter int    `json:"retryAfter,omitempty"`
}

// WriteJSON writes v as JSON with the given status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	StartJSON(w, status)
	_ = json.NewEncoder(w).Encode(v)
}

// StartJSON writes a JSON answer's headers and status; the body follows
// (WriteJSON, or a handler that writes JSON text it already has).
func StartJSON(w http.ResponseWriter, status int) {
	// Set by their canonical keys, without Header.Set's canonicalising and
	// a slice per value on every answer (shared: nothing appends to them,
	// and an append would copy, their length being their capacity).
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Cache-Control"] = noStore
	w.WriteHeader(status)
}

var (
	jsonContentType = []string{"application/json; charset=utf-8"}
	noStore         = []string{"no-store"}
)

// WriteError answers err in the one error shape. Errors that are not *Error
// are logged with the request id and answered without internals: 503 when the
// database is out of reach, 500 otherwise.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	var e *Error
	if !errors.As(err, &e) {
		if errors.Is(err, db.ErrOwnerGone) || accountGone(r) {
			// The account was deleted while this request was in flight
			// (a write that lost a row, a read that found none, a
			// foreign key to the gone account): as any request of a
			// deleted account, 401.
			e = ErrUnauthorized
		} else if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
			// The client went away (a navigation, a closed tab): nobody reads
			// this answer, and the server did nothing wrong — 499 as proxies
			// say it, logged as what it is, not as a 500.
			e = errClientGone
			Logger(r.Context()).Info("request canceled by the client")
		} else if db.IsUnavailable(err) {
			e = ErrUnavailable
			Logger(r.Context()).Warn("service unavailable", "err", err)
		} else {
			e = ErrInternal
			Logger(r.Context()).Error("request failed", "err", err)
		}
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	WriteJSON(w, e.Status, errorBody{Error: errorDetail{Code: e.Code, Message: e.Message, RetryAfter: e.RetryAfter}})
}

type accountKey struct{}

// WithAccountCheck keeps with a signed-in request how to tell whether its
// account still exists (auth.RequireUser sets it): asked only when the
// request fails with an error that would answer 500.
func WithAccountCheck(ctx context.Context, gone func(context.Context) bool) context.Context {
	return context.WithValue(ctx, accountKey{}, gone)
}

func accountGone(r *http.Request) bool {
	gone, ok := r.Context().Value(accountKey{}).(func(context.Context) bool)
	return ok && gone(context.WithoutCancel(r.Context()))
}

// Respond ends a handler: err when the call failed, otherwise v as JSON with
// the given status.
func Respond(w http.ResponseWriter, status int, v any, err error) error {
	if err != nil {
		return err
	}
	WriteJSON(w, status, v)
	return nil
}

// MaxBody is the largest JSON body a handler reads unless it says otherwise.
const MaxBody = 64 << 10

// DecodeJSON reads the request body into dst, refusing bodies over MaxBody and
// anything that is not one JSON value, and cleans every string in it
// (CleanText: no NUL or other control characters, line breaks as "\n").
func DecodeJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		return NewError(http.StatusUnsupportedMediaType, "unsupported_media_type", "Envie os dados como JSON.")
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBody))
	if err := dec.Decode(dst); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return ErrTooLarge
		}
		return ErrBadJSON
	}
	if dec.Decode(&struct{}{}) != io.EOF {
		return ErrBadJSON
	}
	// Every text a client sends is stored clean, whichever handler reads it.
	cleanStrings(reflect.ValueOf(dst))
	return nil
}

// HandlerFunc is a handler that may fail; Handle turns it into an http.Handler.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// Handle answers a failing handler's error in the one error shape.
func Handle(fn HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := fn(w, r); err != nil {
			WriteError(w, r, err)
		}
	})
}

// NotFoundAPI answers unknown /api paths with a JSON 404.
func NotFoundAPI(w http.ResponseWriter, r *http.Request) {
	WriteError(w, r, NewError(http.StatusNotFound, "not_found", "Recurso não encontrado."))
}

// Logger is the request's logger, carrying its id (Observe), or the default
// one outside a request.
func Logger(ctx interface{ Value(any) any }) *slog.Logger {
	if q, ok := ctx.Value(requestKey{}).(*request); ok {
		return q.logger()
	}
	return slog.Default()
}
