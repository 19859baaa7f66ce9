package team

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/agendei/agendei/internal/platform/httpx"
)

// CouncilLabel is a professional's council registration as one line, the
// way it is printed on a public page, a record's signature and a receipt:
// "CRP 06/12345", "CRM-SP 123456". Councils whose regions are numbered
// carry the region in the number as the professional's card prints it
// (CRP 06/12345, CRN-3's "3/12345", CREFITO-3's "3/12345-F"); those
// registered by state join the UF to the council's initials (CRM-SP,
// CRO-SP, COREN-SP, CRF-SP, CRMV-SP). Empty when there is no council or
// no number.
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

// Councils are the health councils a professional may name, by their
// initials as the councils write them, each with the profession it
// registers (the professionals form's "CRP — Psicologia"). The web form
// keeps the same list (web/src/features/team/professional-form.ts).
var Councils = map[string]string{
	"CRP":     "Psicologia",
	"CRN":     "Nutrição",
	"CREFITO": "Fisioterapia e Terapia Ocupacional",
	"CRFa":    "Fonoaudiologia",
	"CRO":     "Odontologia",
	"CREF":    "Educação Física",
	"CRM":     "Medicina",
	"COREN":   "Enfermagem",
	"CRF":     "Farmácia",
	"CRBM":    "Biomedicina",
	"CRMV":    "Medicina Veterinária",
}

// UFs are the 27 federative units a council registration belongs to.
var UFs = map[string]bool{}

func init() {
	for _, uf := range strings.Fields("AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO") {
		UFs[uf] = true
	}
}

// MaxCouncilNumber is the longest registration number accepted.
const MaxCouncilNumber = 20

// councilNumber is a registration number as the councils print it: digits,
// with the separators they use (".", "/", "-", a space) and, after a
// separator, the letters of a category or a state (CREFITO "12345-F",
// CRN "12345/P", CREF "012345-G/SP").
var councilNumber = regexp.MustCompile(`^[0-9](?:[0-9./ -]|[-/ ][A-Z]{1,3}\b)*$`)

var (
	errCouncil       = httpx.Validation("Escolha um conselho da lista.")
	errCouncilUF     = httpx.Validation("Escolha a UF do registro no conselho.")
	errCouncilNumber = httpx.Validation("Número de registro inválido: use os números (com / . ou -) como estão na carteira do conselho, por exemplo 06/12345.")
	errCouncilLong   = httpx.Validation("O número de registro deve ter no máximo 20 caracteres.")
	errNumberAlone   = httpx.Validation("Escolha o conselho do número de registro.")
	errCouncilAlone  = httpx.Validation("Informe o número de registro no conselho.")
)

// ValidateCouncil normalises a council registration (initials as the
// council writes them, UF and number in capitals, one space at most
// between parts) and checks it: all three or none.
func ValidateCouncil(council, uf, number *string) error {
	*council = strings.TrimSpace(*council)
	*uf = strings.ToUpper(strings.TrimSpace(*uf))
	*number = strings.ToUpper(strings.Join(strings.Fields(*number), " "))
	for c := range Councils {
		if strings.EqualFold(c, *council) {
			*council = c
		}
	}
	switch {
	case *council == "" && *number == "":
		*uf = "" // a UF alone says nothing
		return nil
	case *council == "":
		return errNumberAlone
	case Councils[*council] == "":
		return errCouncil
	case *number == "":
		return errCouncilAlone
	case !UFs[*uf]:
		return errCouncilUF
	case utf8.RuneCountInString(*number) > MaxCouncilNumber:
		return errCouncilLong
	case !councilNumber.MatchString(*number):
		return errCouncilNumber
	}
	return nil
}
