// Package publicroutes is the Go side of the one list of public booking
// pages (public-routes.json, next to this file): the server serves these
// paths from the light build (agende.html), the web builds render them
// (web/src/app/public-routes.ts) and the page budget measures them
// (web/scripts/budget.mjs). It is its own package, apart from web/embed.go,
// so that importing it does not need the built app.
package publicroutes

import (
	_ "embed"
	"encoding/json"
	"strings"
)

//go:embed public-routes.json
var data []byte

// Route is a public page: its path pattern (":name" matches one non-empty
// segment), the page component's source file, relative to web/, and whether
// other sites may show it in an iframe (the owner's booking widget).
type Route struct {
	Path   string `json:"path"`
	Page   string `json:"page"`
	Framed bool   `json:"framed"`
}

// Routes are the public pages, most specific first.
var Routes = parse()

func parse() []Route {
	var f struct {
		Routes []Route `json:"routes"`
	}
	if err := json.Unmarshal(data, &f); err != nil || len(f.Routes) == 0 {
		panic("publicroutes: bad public-routes.json: " + string(data))
	}
	return f.Routes
}

// Match reports whether an (escaped) URL path is a public page, by the same
// rule as the light build's router (web/src/agende/router.tsx): trailing
// slashes ignored, the same number of segments, literals equal, parameters
// non-empty.
func Match(path string) bool {
	_, ok := route(path)
	return ok
}

// Framed reports whether an (escaped) URL path is a page that other sites
// may frame: exactly a framed route, by Match's rule. A longer or shorter
// path under the same prefix (/embed/ana/agenda, /embed/) is the owner app or
// its 404, and stays unframeable.
func Framed(path string) bool {
	r, ok := route(path)
	return ok && r.Framed
}

func route(path string) (Route, bool) {
	for _, r := range Routes {
		if matches(r.Path, path) {
			return r, true
		}
	}
	return Route{}, false
}

func matches(pattern, path string) bool {
	want := strings.Split(pattern, "/")
	got := strings.Split(strings.TrimRight(path, "/"), "/")
	if len(want) != len(got) {
		return false
	}
	for i, w := range want {
		if strings.HasPrefix(w, ":") {
			if got[i] == "" {
				return false
			}
		} else if w != got[i] {
			return false
		}
	}
	return true
}
