package publicroutes

import "testing"

func TestMatch(t *testing.T) {
	for path, want := range map[string]bool{
		"/agende/ana":        true,
		"/agende/ana/":       true,
		"/agende/ana/form":   true,
		"/booking":           true,
		"/cancel/abc":        true,
		"/cancel/t%C3%A9":    true,
		"/resposta/abc":      true,
		"/resposta/":         false,
		"/agende":            false,
		"/agende/":           false,
		"/agende//form":      false,
		"/agende/ana/outra":  false, // the full app's 404, not a reload loop in the light build
		"/cancel/":           false,
		"/booking/x":         false,
		"/dashboard":         false,
		"/preview/ana":       false,
		"/":                  false,
		"/agende/ana/form/x": false,
	} {
		if got := Match(path); got != want {
			t.Errorf("Match(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestRoutesAreWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Routes {
		if len(r.Path) < 2 || r.Path[0] != '/' || r.Page == "" || seen[r.Path] {
			t.Errorf("bad route %+v", r)
		}
		seen[r.Path] = true
	}
}

// Only the widget's exact route may be framed; near misses under its prefix
// are the owner app (or its 404) and must not be.
func TestFramed(t *testing.T) {
	for path, want := range map[string]bool{
		"/embed/ana":            true,
		"/embed/ana/":           true,
		"/embed/ana%2Fagenda":   true, // one segment: the widget of an odd username (a 404 inside it)
		"/embed/ana/agenda":     false,
		"/embed/ana/anything":   false,
		"/embed/ana/form":       false,
		"/embed/":               false,
		"/embed":                false,
		"/embed//ana":           false,
		"/embedded/ana":         false,
		"/agende/ana":           false,
		"/agende/ana/form":      false,
		"/cancel/abc":           false,
		"/dashboard":            false,
		"/":                     false,
		"/api/public/embed/ana": false,
	} {
		if got := Framed(path); got != want {
			t.Errorf("Framed(%q) = %v, want %v", path, got, want)
		}
	}
}
