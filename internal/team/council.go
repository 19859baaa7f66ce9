package team

import "strings"

// CouncilLabel is a professional's council registration as one line, the
// way it is printed on a public page, a record's signature and a receipt:
// "CRP 06/12345", "CRM-SP 123456". Councils whose regions are numbered
// carry the region in the number as the professional's card prints it
// (CRP 06/12345); those registered by state join the UF to the council's
// initials. Empty when there is no council or no number.
func CouncilLabel(council, uf, number string) string {
	council, uf, number = strings.TrimSpace(council), strings.TrimSpace(uf), strings.TrimSpace(number)
	if council == "" || number == "" {
		return ""
	}
	if uf != "" && byState[council] {
		return council + "-" + uf + " " + number
	}
	return council + " " + number
}

// byState are the councils whose registrations are by state (the UF is
// part of how the registration is written).
var byState = map[string]bool{"CRM": true, "CRO": true, "COREN": true, "CRF": true, "CRMV": true}
