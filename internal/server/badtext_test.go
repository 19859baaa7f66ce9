package server_test

import (
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/server/servertest"
)

// TestBadText_EveryRouteRefusesNULAndInvalidUTF8 is derived from
// api/openapi.yaml: every path parameter and every query parameter of every
// operation is sent once as a NUL and once as a byte that is not UTF-8,
// anonymously and as a signed-in owner, on both engines. Each answer is the
// same pt-BR 400 — PostgreSQL refuses such text with an error a handler
// would answer as a 500, where SQLite merely finds nothing.
func TestBadText_EveryRouteRefusesNULAndInvalidUTF8(t *testing.T) {
	doc, err := servertest.Spec()
	if err != nil {
		t.Fatal(err)
	}
	type call struct{ method, path string }
	var calls []call
	for path, item := range doc.Paths.Map() {
		for method, o := range item.Operations() {
			var names []string
			for _, p := range item.Parameters {
				names = append(names, p.Value.In+":"+p.Value.Name)
			}
			for _, p := range o.Parameters {
				names = append(names, p.Value.In+":"+p.Value.Name)
			}
			for _, bad := range []string{"%00", "%FF", "a%00b", "%C3%28"} {
				for _, n := range names {
					in, name, _ := strings.Cut(n, ":")
					switch in {
					case "path":
						calls = append(calls, call{method, fillPath(path, name, bad)})
					case "query":
						calls = append(calls, call{method, fillPath(path, "", "x") + "?" + url.QueryEscape(name) + "=" + bad})
					}
				}
				// A name of its own that is not UTF-8, which no handler reads.
				calls = append(calls, call{method, fillPath(path, "", "x") + "?x" + bad + "=1"})
			}
		}
	}
	sort.Slice(calls, func(i, j int) bool { return calls[i].path+calls[i].method < calls[j].path+calls[j].method })
	if len(calls) < 400 {
		t.Fatalf("only %d calls derived from the spec", len(calls))
	}

	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		owner, anon := e.Client(), e.Client()
		seedOwner(t, e, owner)
		for _, c := range calls {
			for who, cl := range map[string]*servertest.Client{"anonymous": anon, "owner": owner} {
				r := cl.Do(c.method, c.path, nil)
				if r.StatusCode != http.StatusBadRequest || r.Err(t).Error.Code != httpx.ErrBadText.Code {
					t.Errorf("%s %s %s: %d %s", who, c.method, c.path, r.StatusCode, r.Body)
				}
			}
		}
		t.Logf("%d calls × 2 callers, each a 400", len(calls))
	})
}

// fillPath puts bad into the path parameter name and "x" into every other.
func fillPath(path, name, bad string) string {
	for {
		i := strings.Index(path, "{")
		if i < 0 {
			return path
		}
		j := strings.Index(path[i:], "}") + i
		v := "x"
		if path[i+1:j] == name {
			v = bad
		}
		path = path[:i] + v + path[j+1:]
	}
}

// TestSearch_TextPastTheBoundIsAPtBR400: every search text (the clients'
// list, search and export, the appointments' q) is bounded; past the bound
// the answer is a pt-BR 400 on both engines (SQLite's LIKE answered a 500
// to a pattern of ~50,000 characters), and at the bound a search still runs.
func TestSearch_TextPastTheBoundIsAPtBR400(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		owner := e.Client()
		seedOwner(t, e, owner)
		for _, route := range []string{"/api/clients?q=", "/api/clients/search?q=", "/api/clients/export?q=",
			"/api/appointments?from=2026-11-01&to=2026-12-31&q="} {
			for _, q := range []string{strings.Repeat("%_", 25000), strings.Repeat("á", httpx.MaxSearch+1)} {
				r := owner.Do("GET", route+url.QueryEscape(q), nil)
				if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.Err(t).Error.Message, "no máximo") {
					t.Errorf("GET %s… (%d characters): %d %.200s", route, len([]rune(q)), r.StatusCode, r.Body)
				}
			}
			if r := owner.Do("GET", route+url.QueryEscape(strings.Repeat("á", httpx.MaxSearch)), nil); r.StatusCode != http.StatusOK {
				t.Errorf("GET %s with %d characters: %d %.200s", route, httpx.MaxSearch, r.StatusCode, r.Body)
			}
		}
	})
}
