package place_test

import (
	"errors"
	"testing"

	"github.com/agendei/agendei/internal/place"
	"github.com/agendei/agendei/internal/platform/httpx"
)

func TestFormatCEP_EightDigitsWithOrWithoutPunctuation(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"01001000", "01001-000", true},
		{"01001-000", "01001-000", true},
		{" 01.001-000 ", "01001-000", true},
		{"0100100", "", false},
		{"010010000", "", false},
		{"01001-00a", "", false},
		{"", "", false},
	} {
		got, ok := place.FormatCEP(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("FormatCEP(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestAddress_NormalizeChecksCEPAndUFAndNeedsStreetAndCity(t *testing.T) {
	ok := place.Address{Street: "  Rua  das Flores ", Number: "123", City: "São Paulo", State: "sp", CEP: "01001000"}
	if err := ok.Normalize(); err != nil || ok.Street != "Rua das Flores" || ok.State != "SP" || ok.CEP != "01001-000" {
		t.Fatalf("%+v %v", ok, err)
	}
	var empty place.Address
	if err := empty.Normalize(); err != nil {
		t.Fatalf("an empty address is no address: %v", err)
	}
	for name, c := range map[string]struct {
		a    place.Address
		want string
	}{
		"short CEP":  {place.Address{Street: "Rua A", City: "Recife", CEP: "5000-000"}, "CEP inválido. Use os 8 números, como 01001-000."},
		"unknown UF": {place.Address{Street: "Rua A", City: "Recife", State: "XX"}, "Escolha o estado (UF) na lista."},
		"no street":  {place.Address{City: "Recife", CEP: "50000-000"}, "Para mostrar o endereço, preencha ao menos rua e cidade."},
		"only a CEP": {place.Address{CEP: "50000-000"}, "Para mostrar o endereço, preencha ao menos rua e cidade."},
		"too long":   {place.Address{Street: string(make([]rune, 121)), City: "Recife"}, ""},
	} {
		var e *httpx.Error
		if err := c.a.Normalize(); !errors.As(err, &e) || (c.want != "" && e.Message != c.want) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if len(place.UFs) != 27 {
		t.Fatalf("%d UFs", len(place.UFs))
	}
}

func TestAddress_LineReadsAsBrazilianMail(t *testing.T) {
	for _, c := range []struct {
		a    place.Address
		want string
	}{
		{place.Address{Street: "Rua das Flores", Number: "123", Complement: "Sala 4", District: "Centro", City: "São Paulo", State: "SP", CEP: "01001-000"},
			"Rua das Flores, 123, Sala 4 - Centro, São Paulo - SP, 01001-000"},
		{place.Address{Street: "Av. Boa Viagem", City: "Recife", State: "PE"}, "Av. Boa Viagem, Recife - PE"},
		{place.Address{}, ""},
	} {
		if got := c.a.Line(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.a, got, c.want)
		}
	}
	if got := place.MapsURL("Rua A, 1 - Centro, Recife - PE"); got != "https://www.google.com/maps/search/?api=1&query=Rua+A%2C+1+-+Centro%2C+Recife+-+PE" {
		t.Errorf("maps: %s", got)
	}
}

func TestOf_AnOnlineServiceTakesItsLinkOrElseTheRoom(t *testing.T) {
	addr := place.Address{Street: "Rua A", City: "Recife", State: "PE"}
	room, own := "https://meet.example.com/sala", "https://zoom.example.com/j/1"
	for _, c := range []struct {
		online     bool
		link, room string
		text       string
	}{
		{false, own, room, "Rua A, Recife - PE"},
		{true, own, room, own},
		{true, "", room, room},
		{true, "", "", "Online"},
	} {
		p := place.Of(addr, c.online, c.link, c.room)
		if p.Text() != c.text || p.Online != c.online || (c.online && p.Address != "") {
			t.Errorf("%+v: %+v %q", c, p, p.Text())
		}
	}
}

func TestLink_OnlyHTTPS(t *testing.T) {
	for raw, ok := range map[string]bool{
		"":                                   true,
		" https://meet.google.com/abc-defg ": true,
		"http://meet.google.com/abc":         false,
		"meet.google.com/abc":                false,
		"https://":                           false,
		"https://user:pw@example.com/":       false,
		"javascript:alert(1)":                false,
		"https://exa mple.com":               false,
	} {
		if _, err := place.Link(raw); (err == nil) != ok {
			t.Errorf("Link(%q): %v", raw, err)
		}
	}
}
