package tz

import "testing"

func TestLoad_FallsBackToSaoPauloForEmptyOrUnknownNames(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"America/Manaus", "America/Manaus"},
		{"America/Sao_Paulo", "America/Sao_Paulo"},
		{"", Default},
		{"Not/A_Zone", Default},
	} {
		if got := Load(tc.name).String(); got != tc.want {
			t.Errorf("Load(%q) = %s, want %s", tc.name, got, tc.want)
		}
	}
	if Load("America/Manaus") != Load("America/Manaus") {
		t.Error("a zone should be loaded once and shared")
	}
}
