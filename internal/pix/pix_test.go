package pix_test

import (
	"bytes"
	"image"
	_ "image/png"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	gzqr "github.com/makiuchi-d/gozxing/qrcode"

	"github.com/agendei/agendei/internal/pix"
)

// The static example of the Banco Central's BR Code manual ("Manual do BR
// Code", https://www.bcb.gov.br/content/estabilidadefinanceira/spb_docs/ManualBRCode.pdf,
// and "Manual de Padrões para Iniciação do Pix", section 6.1 — the random
// key 123e4567-e12b-12d1-a456-426655440000, receiver "Fulano de Tal",
// BRASILIA, no amount, txid "***"), whose CRC is 1D3D.
const manualStatic = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000" +
	"5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"

func TestCRC16_ManualAndCheckValue(t *testing.T) {
	// CRC-16/CCITT-FALSE's catalogue check value over "123456789".
	if got := pix.CRC16("123456789"); got != 0x29B1 {
		t.Fatalf("check value %04X, want 29B1", got)
	}
	// The manual's payload: its CRC covers everything up to and including "6304".
	if got := pix.WithCRC(strings.TrimSuffix(manualStatic, "1D3D")[:len(manualStatic)-8]); got != manualStatic {
		t.Fatalf("WithCRC = %s\nwant      %s", got, manualStatic)
	}
	if !pix.Valid(manualStatic) {
		t.Fatal("the manual's example does not validate")
	}
	if pix.Valid(strings.Replace(manualStatic, "BRASILIA", "BRASILIO", 1)) {
		t.Fatal("a changed payload kept its CRC")
	}
}

func TestBuild_TheManualsFieldsInOrder(t *testing.T) {
	// Build normalises the name to upper case, so the manual's example is
	// rebuilt with its name written that way; every other byte is the manual's.
	got, err := pix.Build(pix.Static{Key: "123e4567-e12b-12d1-a456-426655440000", Name: "Fulano de Tal", City: "Brasília"})
	if err != nil {
		t.Fatal(err)
	}
	want := pix.WithCRC(strings.Replace(manualStatic[:len(manualStatic)-8], "Fulano de Tal", "FULANO DE TAL", 1))
	if got != want {
		t.Fatalf("Build = %s\nwant    %s", got, want)
	}
}

func TestBuild_AmountNameCityTxid(t *testing.T) {
	got, err := pix.Build(pix.Static{Key: "+5511987654321", Name: "Clínica São João da Conceição Ltda", City: "São José dos Campos", AmountCents: 3000, Txid: "AG1b2C3d4E5f6G7h8I9j0K1l2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{
		"000201",
		"26360014br.gov.bcb.pix0114+5511987654321",
		"52040000", "5303986", "540530.00", "5802BR",
		"5925CLINICA SAO JOAO DA CONC", // 25 characters, accents removed
		"6015SAO JOSE DOS CA",          // 15
		"62290525AG1b2C3d4E5f6G7h8I9j0K1l2",
	} {
		if !strings.Contains(got, part) {
			t.Errorf("%q lacks %q", got, part)
		}
	}
	if !strings.HasPrefix(got[len(got)-8:], "6304") || !pix.Valid(got) {
		t.Fatalf("bad CRC field: %s", got)
	}
	for _, bad := range []pix.Static{
		{Key: "+5511987654321", Name: "A", City: "B", Txid: "has-dash"},
		{Key: "+5511987654321", Name: "A", City: "B", Txid: strings.Repeat("a", 26)},
		{Key: "+5511987654321", Name: "", City: "B"},
		{Key: "+5511987654321", Name: "A", City: "!!"},
		{Key: "", Name: "A", City: "B"},
		{Key: "+5511987654321", Name: "A", City: "B", AmountCents: -1},
	} {
		if _, err := pix.Build(bad); err == nil {
			t.Errorf("Build(%+v) accepted", bad)
		}
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"  Ana   Lúcia  ":       "ANA LUCIA",
		"Estética Ávila & Cia.": "ESTETICA AVILA & CIA.",
		"São Paulo":             "SAO PAULO",
		"Niterói/RJ":            "NITEROI/RJ",
		"Açaí 😀 Bar":            "ACAI BAR",
		"Ñandú":                 "NANDU",
		"Straße ß":              "STRASSE SS",
		"ẞ Maier":               "SS MAIER",
	} {
		if got := pix.Normalize(in, 25); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
	if got := pix.Normalize("Rio de Janeiro Capital", 15); got != "RIO DE JANEIRO" {
		t.Errorf("cut at 15 then trimmed: %q", got)
	}
}

func TestKey(t *testing.T) {
	ok := map[[2]string]string{
		{pix.KindCPF, "529.982.247-25"}:                          "52998224725",
		{pix.KindCPF, "52998224725"}:                             "52998224725",
		{pix.KindCNPJ, "11.222.333/0001-81"}:                     "11222333000181",
		{pix.KindPhone, "(11) 98765-4321"}:                       "+5511987654321",
		{pix.KindPhone, "+55 21 3333-4444"}:                      "+552133334444",
		{pix.KindPhone, "5551987654321"}:                         "+5551987654321",
		{pix.KindEmail, " Ana@Clinica.com.br "}:                  "ana@clinica.com.br",
		{pix.KindRandom, "123E4567-E12B-12D1-A456-426655440000"}: "123e4567-e12b-12d1-a456-426655440000",
	}
	for in, want := range ok {
		got, valid := pix.Key(in[0], in[1])
		if !valid || got != want {
			t.Errorf("Key(%s, %q) = %q, %v; want %q", in[0], in[1], got, valid, want)
		}
	}
	for _, in := range [][2]string{
		{pix.KindCPF, "529.982.247-24"}, {pix.KindCPF, "111.111.111-11"}, {pix.KindCPF, "5299822472"}, {pix.KindCPF, "52998224725a"},
		{pix.KindCNPJ, "11.222.333/0001-82"}, {pix.KindCNPJ, "00000000000000"}, {pix.KindCNPJ, "52998224725"},
		{pix.KindPhone, "+1 415 555 0100"}, {pix.KindPhone, "(11) 8765-432"}, {pix.KindPhone, "(11) 88765-4321"}, {pix.KindPhone, "(01) 98765-4321"},
		{pix.KindEmail, "ana@"}, {pix.KindEmail, "ana@localhost"}, {pix.KindEmail, "Ana <ana@x.com>"}, {pix.KindEmail, strings.Repeat("a", 70) + "@x.com.br"},
		{pix.KindRandom, "123e4567e12b12d1a456426655440000"}, {pix.KindRandom, "not-a-uuid"},
		{"iban", "x"},
	} {
		if got, valid := pix.Key(in[0], in[1]); valid {
			t.Errorf("Key(%s, %q) accepted as %q", in[0], in[1], got)
		}
	}
}

// The QR image, decoded by an independent reader, gives back the same text.
func TestPNG_DecodesToThePayload(t *testing.T) {
	payload, err := pix.Build(pix.Static{Key: "52998224725", Name: "Ana Lima", City: "Curitiba", AmountCents: 3000, Txid: "AGtest0123456789ABCDEFGHI"})
	if err != nil {
		t.Fatal(err)
	}
	png, err := pix.PNG(payload, 320)
	if err != nil {
		t.Fatal(err)
	}
	img, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		t.Fatal(err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := gzqr.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.GetText() != payload {
		t.Fatalf("decoded %q\nwant    %q", res.GetText(), payload)
	}
}
