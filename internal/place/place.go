// Package place is where an appointment happens: the practice's address, or
// — for a service marked online — its video-call link (or else the owner's
// fixed room). The one rule every message follows: the public page, the
// confirmation card, the e-mails, the Google Agenda link and the .ics
// LOCATION all say Of(...).Text().
package place

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Address is the practice's address; every field "" when unset.
type Address struct {
	Street     string `json:"street"`
	Number     string `json:"number"`
	Complement string `json:"complement"`
	District   string `json:"district"` // bairro
	City       string `json:"city"`
	State      string `json:"state"` // UF, two capital letters
	CEP        string `json:"cep"`   // 00000-000
}

// UFs are Brazil's 26 states and the Federal District.
var UFs = []string{"AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA",
	"PB", "PR", "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO"}

var (
	errCEP        = httpx.Validation("CEP inválido. Use os 8 números, como 01001-000.")
	errUF         = httpx.Validation("Escolha o estado (UF) na lista.")
	errTooLong    = httpx.Validation("Um dos campos do endereço passou de 120 caracteres.")
	errIncomplete = httpx.Validation("Para mostrar o endereço, preencha ao menos rua e cidade.")
)

// FormatCEP reads a CEP typed with or without the hyphen or dots: its 8
// digits as 00000-000; ok is false when it is not 8 digits.
func FormatCEP(raw string) (string, bool) {
	var d strings.Builder
	for _, r := range raw {
		switch {
		case r >= '0' && r <= '9':
			d.WriteRune(r)
		case r == '-' || r == '.' || r == ' ':
		default:
			return "", false
		}
	}
	if d.Len() != 8 {
		return "", false
	}
	s := d.String()
	return s[:5] + "-" + s[5:], true
}

// Normalize trims the address and checks it: a CEP of 8 digits, a UF of the
// list, no field over 120 characters, and street and city when anything is
// given (an address without them leads nobody anywhere).
func (a *Address) Normalize() error {
	fields := []*string{&a.Street, &a.Number, &a.Complement, &a.District, &a.City, &a.State, &a.CEP}
	any := false
	for _, f := range fields {
		*f = strings.Join(strings.Fields(*f), " ")
		if utf8.RuneCountInString(*f) > 120 {
			return errTooLong
		}
		any = any || *f != ""
	}
	if a.CEP != "" {
		cep, ok := FormatCEP(a.CEP)
		if !ok {
			return errCEP
		}
		a.CEP = cep
	}
	if a.State != "" {
		a.State = strings.ToUpper(a.State)
		if !ValidUF(a.State) {
			return errUF
		}
	}
	if any && (a.Street == "" || a.City == "") {
		return errIncomplete
	}
	return nil
}

// ValidUF reports whether s is one of the 27 UFs.
func ValidUF(s string) bool {
	for _, u := range UFs {
		if u == s {
			return true
		}
	}
	return false
}

// Line is the address on one line, as Brazilian mail writes it:
// "Rua das Flores, 123, Sala 4 - Centro, São Paulo - SP, 01001-000"; ""
// when unset.
func (a Address) Line() string {
	if a.Street == "" && a.City == "" {
		return ""
	}
	first := join(", ", a.Street, a.Number, a.Complement)
	city := join(" - ", a.City, a.State)
	return join(", ", join(" - ", first, a.District), city, a.CEP)
}

func join(sep string, parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}

// MapsURL opens an address in Google Maps (the search form of its URLs,
// which every phone's maps app also understands); "" for no address.
func MapsURL(line string) string {
	if line == "" {
		return ""
	}
	return "https://www.google.com/maps/search/?api=1&query=" + url.QueryEscape(line)
}

var errLink = httpx.Validation("O link da videochamada deve começar com https:// (por exemplo, https://meet.google.com/abc-defg-hij).")

// Link checks a video-call link: "" (none), or an https URL with a host and
// no spaces, at most 500 characters.
func Link(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || strings.ContainsAny(raw, " \t\r\n") || len(raw) > 500 {
		return "", errLink
	}
	return raw, nil
}

// Place is where one appointment happens.
type Place struct {
	// Online: the service is held by video call, at Link ("" when the
	// owner has set neither the service's link nor a room).
	Online bool   `json:"online"`
	Link   string `json:"link"`
	// Address is the practice's address on one line ("" when unset or
	// online), MapsURL its Google Maps search.
	Address string `json:"address"`
	MapsURL string `json:"mapsUrl"`
}

// Of is the place of a service: online ones at their link or else the
// owner's room, the others at the address.
func Of(addr Address, online bool, serviceLink, room string) Place {
	if online {
		if serviceLink == "" {
			serviceLink = room
		}
		return Place{Online: true, Link: serviceLink}
	}
	line := addr.Line()
	return Place{Address: line, MapsURL: MapsURL(line)}
}

// Text is the place as one line of text (a calendar's location, an
// e-mail's 'Local', a WhatsApp {endereco}): the link of an online service,
// "Online" when it has none yet, or the address.
func (p Place) Text() string {
	if p.Online {
		if p.Link == "" {
			return "Online"
		}
		return p.Link
	}
	return p.Address
}

// Columns are the profiles' address columns, in Address's order, for a
// query that scans them with Scan.
const Columns = `address_street, address_number, address_complement, address_district, address_city, address_state, address_cep`

// Dest is where to scan Columns.
func (a *Address) Dest() []any {
	return []any{&a.Street, &a.Number, &a.Complement, &a.District, &a.City, &a.State, &a.CEP}
}

// Where reads the place of an owner's service (serviceID "" or a deleted
// service: the address), on q — a transaction or the database.
func Where(ctx context.Context, q db.Querier, ownerID, serviceID string) (Place, error) {
	var a Address
	var room, link string
	var online bool
	err := q.QueryRowContext(ctx, `SELECT `+Columns+`, p.room_link, COALESCE(s.online, FALSE), COALESCE(s.online_link, '')
		FROM profiles p LEFT JOIN services s ON s.id = ? AND s.user_id = p.id WHERE p.id = ?`, serviceID, ownerID).
		Scan(append(a.Dest(), &room, &online, &link)...)
	if errors.Is(err, sql.ErrNoRows) {
		return Place{}, nil
	}
	if err != nil {
		return Place{}, err
	}
	return Of(a, online, link, room), nil
}
