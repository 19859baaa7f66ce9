package connect

import (
	"context"
	"net/http"

	"github.com/agendei/agendei/internal/platform/httpx"
)

// Card is the three routes of an owner's connection card on one path: GET
// the status, PUT to connect (or replace), DELETE to disconnect (204).
type Card[In, Out any] struct {
	Status     func(ctx context.Context, userID string) (Out, error)
	Connect    func(ctx context.Context, userID string, in In) (Out, error)
	Disconnect func(ctx context.Context, userID string) error
}

// Register mounts the routes at path ("/api/<provider>"), each wrapped by
// signedIn (the owner's sign-in), with the owner read by userID.
func (c Card[In, Out]) Register(mux *http.ServeMux, path string, signedIn func(http.Handler) http.Handler, userID func(context.Context) string) {
	mux.Handle("GET "+path, signedIn(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		st, err := c.Status(r.Context(), userID(r.Context()))
		return httpx.Respond(w, http.StatusOK, st, err)
	})))
	mux.Handle("PUT "+path, signedIn(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		var in In
		if err := httpx.DecodeJSON(w, r, &in); err != nil {
			return err
		}
		st, err := c.Connect(r.Context(), userID(r.Context()), in)
		return httpx.Respond(w, http.StatusOK, st, err)
	})))
	mux.Handle("DELETE "+path, signedIn(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		if err := c.Disconnect(r.Context(), userID(r.Context())); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	})))
}

// RowCard is the two routes of a connection that belongs to something
// inside the owner's account (Rows: a professional's calendar), on a path
// whose {id} names it: PUT to connect (or replace, or change its choices),
// DELETE to disconnect (204). The status is the owner's list of them, read
// elsewhere.
type RowCard[In, Out any] struct {
	Connect    func(ctx context.Context, userID, id string, in In) (Out, error)
	Disconnect func(ctx context.Context, userID, id string) error
}

// Register mounts the routes at path ("/api/calendars/{id}/caldav"), each
// wrapped by signedIn, with the owner read by userID and {id} from the path.
func (c RowCard[In, Out]) Register(mux *http.ServeMux, path string, signedIn func(http.Handler) http.Handler, userID func(context.Context) string) {
	mux.Handle("PUT "+path, signedIn(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		var in In
		if err := httpx.DecodeJSON(w, r, &in); err != nil {
			return err
		}
		st, err := c.Connect(r.Context(), userID(r.Context()), r.PathValue("id"), in)
		return httpx.Respond(w, http.StatusOK, st, err)
	})))
	mux.Handle("DELETE "+path, signedIn(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		if err := c.Disconnect(r.Context(), userID(r.Context()), r.PathValue("id")); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	})))
}

// Unavailable is the answer when the provider cannot be reached or fails
// on its side: code is "<provider>_unavailable", who is how the owner
// names it ("o Meta", "o Mercado Pago").
func Unavailable(code, who string) *httpx.Error {
	return httpx.NewError(http.StatusBadGateway, code, "Não foi possível falar com "+who+" agora. Tente novamente em alguns minutos.")
}

// NotConnected is the answer to a disconnect with nothing connected: what
// is the connection as the owner names it ("O WhatsApp Business").
func NotConnected(code, what string) *httpx.Error {
	return httpx.NewError(http.StatusNotFound, code, what+" não está conectado.")
}
