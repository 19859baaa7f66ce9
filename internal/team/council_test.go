package team

import "testing"

func TestCouncilLabel(t *testing.T) {
	for _, c := range []struct{ council, uf, number, want string }{
		{"CRP", "SP", "06/12345", "CRP 06/12345"},
		{"CRM", "SP", "123456", "CRM-SP 123456"},
		{"CRO", "", "12345", "CRO 12345"},
		{"", "SP", "123", ""},
		{"CRN", "RJ", " ", ""},
	} {
		if got := CouncilLabel(c.council, c.uf, c.number); got != c.want {
			t.Errorf("CouncilLabel(%q, %q, %q) = %q, want %q", c.council, c.uf, c.number, got, c.want)
		}
	}
}
