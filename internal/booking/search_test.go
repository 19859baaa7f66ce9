package booking

import "testing"

func TestSearchKey_IgnoresCaseAccentsAndSpacing(t *testing.T) {
	if got := SearchKey("  Érica  Conceição ", "ERICA@Exemplo.com"); got != "erica conceicao erica@exemplo.com" {
		t.Fatalf("%q", got)
	}
}
