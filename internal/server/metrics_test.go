package server_test

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/server/servertest"
)

// TestMetrics_OnTheirOwnAddressOnly: with MetricsAddr set the public handler
// answers 404 for /metrics (not the web app), and Server.Metrics, which
// cmd/agendei serves on that address, has them.
func TestMetrics_OnTheirOwnAddressOnly(t *testing.T) {
	e := servertest.StartWith(t, db.SQLite, func(c *config.Config) { c.MetricsAddr = "127.0.0.1:0" })
	c := e.Client()
	c.Do("GET", "/api/config", nil)
	for _, m := range []string{"GET", "HEAD", "POST"} {
		if r := c.Do(m, "/metrics", nil); r.StatusCode != 404 || strings.Contains(string(r.Body), "agendei_") {
			t.Fatalf("%s /metrics on the public address: %d %.200s", m, r.StatusCode, r.Body)
		}
	}
	rec := httptest.NewRecorder()
	e.Server.Metrics.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	if rec.Code != 200 || !strings.Contains(string(body), `route="GET /api/config"`) {
		t.Fatalf("Server.Metrics: %d %.300s", rec.Code, body)
	}
}
