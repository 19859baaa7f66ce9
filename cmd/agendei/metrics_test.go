package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	r, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(b)
}

// TestServe_MetricsOnTheirOwnAddress: with --metrics-addr, /metrics answers
// there and only there (the public address says 404), and SIGTERM stops both
// listeners cleanly.
func TestServe_MetricsOnTheirOwnAddress(t *testing.T) {
	maddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	p := startServeWith(t, "", t.TempDir(), "--metrics-addr "+maddr)
	get(t, p.base+"/api/config")
	if code, body := get(t, p.base+"/metrics"); code != 404 || strings.Contains(body, "agendei_") {
		t.Fatalf("public /metrics: %d %.200s", code, body)
	}
	code, body := get(t, "http://"+maddr+"/metrics")
	if code != 200 || !strings.Contains(body, `agendei_http_requests_total{method="GET",route="GET /api/config",status="200"}`) {
		t.Fatalf("metrics address /metrics: %d %.300s", code, body)
	}
	if code, _ := get(t, "http://"+maddr+"/api/config"); code != 404 {
		t.Fatalf("the metrics address serves only /metrics, got %d for /api/config", code)
	}

	p.terminate(t)
	if _, err := http.Get("http://" + maddr + "/metrics"); err == nil {
		t.Fatal("the metrics address still answers after shutdown")
	}
}
