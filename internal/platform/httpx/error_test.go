package httpx_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agendei/agendei/internal/platform/httpx"
)

// A request its client canceled (a navigation away, a closed tab) is no server error: 499, never a 500 logged as
// "request failed" (CI's log showed two for /api/dashboard and /api/reminders/reach). A cancel the server made
// itself, with the client still there, stays a 500.
func TestWriteError_ACanceledClientIsNoServerError(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := httptest.NewRecorder()
	httpx.WriteError(w, httptest.NewRequest("GET", "/api/dashboard", nil).WithContext(ctx), fmt.Errorf("dashboard: %w", context.Canceled))
	if w.Code != 499 {
		t.Fatalf("client gone: %d %s", w.Code, w.Body)
	}

	w = httptest.NewRecorder()
	httpx.WriteError(w, httptest.NewRequest("GET", "/api/dashboard", nil), fmt.Errorf("dashboard: %w", context.Canceled))
	if w.Code != http.StatusInternalServerError {
		t.Fatalf("a cancel of the server's own, the client still there: %d", w.Code)
	}
	w = httptest.NewRecorder()
	httpx.WriteError(w, httptest.NewRequest("GET", "/api/dashboard", nil).WithContext(ctx), errors.New("boom"))
	if w.Code != http.StatusInternalServerError {
		t.Fatalf("another error after the client left: %d", w.Code)
	}
}
