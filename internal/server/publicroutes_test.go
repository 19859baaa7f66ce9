package server_test

import (
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/server/servertest"
	"github.com/agendei/agendei/web/publicroutes"
)

// TestSPA_PublicRoutesComeFromTheLightBuild: every route of the one list of
// public pages (web/publicroutes/public-routes.json) is answered with the
// light build's page, and the owner app's routes (and near misses of the
// public ones, which the light router would not render) with the full app.
func TestSPA_PublicRoutesComeFromTheLightBuild(t *testing.T) {
	e := servertest.Start(t, db.SQLite)
	c := e.Client()
	page := func(p string) string {
		r := c.Do("GET", p, nil)
		// A profile page of a username nobody has is 404 'Perfil não encontrado'.
		if r.StatusCode != 200 && !(r.StatusCode == 404 && strings.HasPrefix(p, "/agende/")) {
			t.Fatalf("%s: %d", p, r.StatusCode)
		}
		if strings.Contains(string(r.Body), `data-page="agende"`) {
			return "agende.html"
		}
		return "index.html"
	}
	for _, rt := range publicroutes.Routes {
		segs := strings.Split(rt.Path, "/")
		for i, s := range segs {
			if strings.HasPrefix(s, ":") {
				segs[i] = "ana-souza"
			}
		}
		p := strings.Join(segs, "/")
		for _, v := range []string{p, p + "/", p + "?service=s1"} {
			if got := page(v); got != "agende.html" {
				t.Errorf("public route %s (%s) served %s", rt.Path, v, got)
			}
		}
	}
	for _, p := range []string{"/", "/dashboard", "/agenda", "/appointment/1", "/preview/ana", "/agende", "/agende/", "/agende/ana/outra", "/cancel/", "/booking/x"} {
		if got := page(p); got != "index.html" {
			t.Errorf("%s served %s, want the full app", p, got)
		}
	}
}
