package team

import (
	"errors"
	"testing"

	"github.com/agendei/agendei/internal/platform/httpx"
)

func TestCouncilLabel(t *testing.T) {
	for _, c := range []struct{ council, uf, number, want string }{
		{"CRP", "SP", "06/12345", "CRP 06/12345"},
		{"CRM", "SP", "123456", "CRM-SP 123456"},
		{"CRO", "", "12345", "CRO 12345"},
		{"CRO", "RJ", "12345", "CRO-RJ 12345"},
		{"COREN", "MG", "123456", "COREN-MG 123456"},
		{"CRN", "SP", "3/12345", "CRN 3/12345"},
		{"CREFITO", "SP", "3/12345-F", "CREFITO 3/12345-F"},
		{"CREF", "SP", "012345-G/SP", "CREF 012345-G/SP"},
		{"", "SP", "123", ""},
		{"CRN", "RJ", " ", ""},
	} {
		if got := CouncilLabel(c.council, c.uf, c.number); got != c.want {
			t.Errorf("CouncilLabel(%q, %q, %q) = %q, want %q", c.council, c.uf, c.number, got, c.want)
		}
	}
}

func TestValidateCouncil(t *testing.T) {
	for _, c := range []struct {
		council, uf, number string
		want                string // normalised "council|uf|number", or the error's message
	}{
		{"CRP", "sp", " 06/12345 ", "CRP|SP|06/12345"},
		{"crp", "SP", "06/12345", "CRP|SP|06/12345"},
		{"crfa", "RJ", "1-12345", "CRFa|RJ|1-12345"},
		{"CREFITO", "SP", "3/12345-f", "CREFITO|SP|3/12345-F"},
		{"CRN", "SP", "12345/P", "CRN|SP|12345/P"},
		{"CREF", "SP", "012345-G/SP", "CREF|SP|012345-G/SP"},
		{"CRM", "SP", "123.456", "CRM|SP|123.456"},
		{"CRO", "MG", "12  345", "CRO|MG|12 345"},
		{"", "", "", "||"},
		{"", "SP", " ", "||"},
		{"", "SP", "06/12345", "Escolha o conselho do número de registro."},
		{"CRP", "SP", "", "Informe o número de registro no conselho."},
		{"CRX", "SP", "123", "Escolha um conselho da lista."},
		{"CRP", "", "06/12345", "Escolha a UF do registro no conselho."},
		{"CRP", "XX", "06/12345", "Escolha a UF do registro no conselho."},
		{"CRP", "SP", "0612345678901234567890", "O número de registro deve ter no máximo 20 caracteres."},
		{"CRP", "SP", "abc", "Número de registro inválido: use os números (com / . ou -) como estão na carteira do conselho, por exemplo 06/12345."},
		{"CRP", "SP", "06/12345 <b>", "Número de registro inválido: use os números (com / . ou -) como estão na carteira do conselho, por exemplo 06/12345."},
		{"CRP", "SP", "06/12345ABC", "Número de registro inválido: use os números (com / . ou -) como estão na carteira do conselho, por exemplo 06/12345."},
		{"CRP", "SP", "-123", "Número de registro inválido: use os números (com / . ou -) como estão na carteira do conselho, por exemplo 06/12345."},
	} {
		council, uf, number := c.council, c.uf, c.number
		var got string
		if err := ValidateCouncil(&council, &uf, &number); err != nil {
			var he *httpx.Error
			if !errors.As(err, &he) || he.Status != 400 {
				t.Fatalf("ValidateCouncil(%q, %q, %q): %v, want a 400", c.council, c.uf, c.number, err)
			}
			got = he.Message
		} else {
			got = council + "|" + uf + "|" + number
		}
		if got != c.want {
			t.Errorf("ValidateCouncil(%q, %q, %q) = %q, want %q", c.council, c.uf, c.number, got, c.want)
		}
	}
}
