package payments

import (
	"strings"
	"testing"
)

// The "Modelos de escrituração para o Carnê-Leão" (Receita Federal,
// 20/10/2025) give, for trabalho não assalariado received from a pessoa
// física with the beneficiary's CPF, the line below (their placeholders:
// 99/99/9999, zeros). A receipt written by CarneLeaoFile has the same
// fields in the same places, padded to the layout's 13.
func TestCarneLeaoFile_FollowsTheModelsExample(t *testing.T) {
	model := strings.Split("99/99/9999;R01.001.001;;0,00;;Serviço prestado a pessoa física (CPF do beneficiário informado);PF;00000000000;00000000000", ";")
	for len(model) < 13 {
		model = append(model, "")
	}
	file, missing := CarneLeaoFile([]Receipt{
		{Part: "payment", Date: "2026-11-23", AmountCents: 123456, SessionDate: "2026-11-17", Service: "Sessão; individual\n", PayerCPF: "11144477735"},
		{Part: "payment", Date: "2026-11-23", AmountCents: 5000, SessionDate: "2026-11-17", Service: "Sessão"},
	}, "255")
	if missing != 1 {
		t.Fatalf("missing %d, want 1 (no CPF)", missing)
	}
	lines := strings.Split(strings.TrimSuffix(string(file), "\r\n"), "\r\n")
	if len(lines) != 1 {
		t.Fatalf("lines %q", lines)
	}
	got := strings.Split(lines[0], ";")
	if len(got) != len(model) {
		t.Fatalf("%d fields, the model has %d: %q", len(got), len(model), got)
	}
	want := []string{"23/11/2026", model[1], "255", "1234,56", model[4], "Atendimento de 17/11/2026 - Sessão, individual", model[6], "11144477735", "11144477735",
		model[9], model[10], model[11], model[12]}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("field %d: %q, want %q", i+1, got[i], want[i])
		}
	}
}

func TestReceiptSettings_ValidateCheckDigitsAndOccupation(t *testing.T) {
	for _, c := range []struct {
		in ReceiptSettings
		ok bool
	}{
		{ReceiptSettings{Enabled: true, Document: "529.982.247-25", Occupation: "255"}, true},
		{ReceiptSettings{Enabled: true, Document: "11.222.333/0001-81", Occupation: "225"}, true},
		{ReceiptSettings{Enabled: true, Document: "529.982.247-26", Occupation: "255"}, false},
		{ReceiptSettings{Enabled: true, Document: "111.111.111-11", Occupation: "255"}, false},
		{ReceiptSettings{Enabled: true, Document: "", Occupation: "255"}, false},
		{ReceiptSettings{Enabled: true, Document: "52998224725", Occupation: ""}, false},
		{ReceiptSettings{}, true},
	} {
		in := c.in
		if err := ValidateReceiptSettings(&in); (err == nil) != c.ok {
			t.Errorf("%+v: %v", c.in, err)
		}
	}
	if cpf, err := NormalizeCPF(" 111.444.777-35 "); err != nil || cpf != "11144477735" {
		t.Fatalf("NormalizeCPF: %q %v", cpf, err)
	}
	if _, err := NormalizeCPF("111.444.777-34"); err == nil {
		t.Fatal("a wrong check digit passed")
	}
}
