// Package pix builds the static Pix BR Code of the Banco Central do Brasil
// (an EMV® QR Code Merchant-Presented Mode payload, "Manual do BR Code" and
// "Manual de Padrões para Iniciação do Pix"), validates Pix keys, and draws
// the QR code. It knows nothing of bookings: internal/deposits gives it a
// key, a receiver, an amount in centavos and a txid.
package pix

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Field ids of the EMV MPM payload (BR Code manual, table of the root
// objects) and of the templates nested in it.
const (
	idFormat       = "00" // Payload Format Indicator: "01"
	idAccount      = "26" // Merchant Account Information — Pix
	idCategory     = "52" // Merchant Category Code: "0000"
	idCurrency     = "53" // Transaction Currency: "986" (BRL)
	idAmount       = "54" // Transaction Amount: "30.00"
	idCountry      = "58" // Country Code: "BR"
	idName         = "59" // Merchant Name, ≤ 25
	idCity         = "60" // Merchant City, ≤ 15
	idAdditional   = "62" // Additional Data Field Template
	idCRC          = "63" // CRC16, over everything before it and "6304"
	subGUI         = "00" // in 26: "br.gov.bcb.pix"
	subKey         = "01" // in 26: the Pix key
	subTxid        = "05" // in 62: Reference Label (txid)
	GUI            = "br.gov.bcb.pix"
	MaxName        = 25
	MaxCity        = 15
	MaxTxid        = 25
	maxFieldLength = 99
)

// Static is what a static BR Code carries.
type Static struct {
	Key         string // a valid Pix key, as Key returns it
	Name        string // the receiver; normalised to ≤ 25 allowed characters
	City        string // the receiver's city; ≤ 15
	AmountCents int64  // > 0; 0 leaves the amount to the payer
	Txid        string // ≤ 25 letters and digits; "" is "***" (none)
}

var (
	errTxid   = errors.New("pix: txid must be 1–25 letters or digits")
	errAmount = errors.New("pix: amount must be zero or more, below R$ 10 bilhões")
	errEmpty  = errors.New("pix: key, name and city are required")
)

// Build returns the "Pix Copia e Cola" text of a static BR Code: payload
// format indicator, the merchant account information (GUI br.gov.bcb.pix
// and the key), category 0000, currency 986, the amount, country BR, name
// and city normalised to the allowed set, the txid in the additional data
// field, and the CRC16-CCITT-FALSE over all of it including "6304".
func Build(s Static) (string, error) {
	name, city := Normalize(s.Name, MaxName), Normalize(s.City, MaxCity)
	if s.Key == "" || name == "" || city == "" {
		return "", errEmpty
	}
	txid := s.Txid
	if txid == "" {
		txid = "***"
	} else if !ValidTxid(txid) {
		return "", errTxid
	}
	if s.AmountCents < 0 || s.AmountCents >= 1_000_000_000_00 {
		return "", errAmount
	}
	fields := []string{
		tlv(idFormat, "01"),
		tlv(idAccount, tlv(subGUI, GUI)+tlv(subKey, s.Key)),
		tlv(idCategory, "0000"),
		tlv(idCurrency, "986"),
	}
	if s.AmountCents > 0 {
		fields = append(fields, tlv(idAmount, fmt.Sprintf("%d.%02d", s.AmountCents/100, s.AmountCents%100)))
	}
	fields = append(fields, tlv(idCountry, "BR"), tlv(idName, name), tlv(idCity, city), tlv(idAdditional, tlv(subTxid, txid)))
	for _, f := range fields {
		if len(f) > 4+maxFieldLength {
			return "", fmt.Errorf("pix: field %s longer than %d", f[:2], maxFieldLength)
		}
	}
	return WithCRC(strings.Join(fields, "")), nil
}

// tlv is one EMV data object: id, length in two digits, value.
func tlv(id, value string) string {
	return fmt.Sprintf("%s%02d%s", id, len(value), value)
}

// WithCRC appends the CRC field ("6304" and four upper-case hex digits)
// computed over payload + "6304".
func WithCRC(payload string) string {
	payload += idCRC + "04"
	return payload + fmt.Sprintf("%04X", CRC16(payload))
}

// CRC16 is CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no
// reflection, no final XOR (the BR Code manual's CRC).
func CRC16(data string) uint16 {
	crc := uint16(0xFFFF)
	for i := 0; i < len(data); i++ {
		crc ^= uint16(data[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// Valid reports whether a payload's last field is a CRC that matches it.
func Valid(payload string) bool {
	n := len(payload)
	if n < 8 || payload[n-8:n-4] != idCRC+"04" {
		return false
	}
	return fmt.Sprintf("%04X", CRC16(payload[:n-4])) == strings.ToUpper(payload[n-4:])
}

// ValidTxid reports whether a txid fits the static BR Code: 1–25 ASCII
// letters and digits.
func ValidTxid(t string) bool {
	if t == "" || len(t) > MaxTxid {
		return false
	}
	for _, r := range t {
		if !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z') {
			return false
		}
	}
	return true
}

// Normalize writes a receiver's name or city in the set the payment apps
// all read: accents removed (NFD, combining marks dropped), upper case,
// only A–Z, 0–9, space and . , - / ' & kept, runs of spaces folded, cut to
// max characters (and trimmed again).
func Normalize(s string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		r = unicode.ToUpper(r)
		keep := string(r)
		if r == 'ß' || r == 'ẞ' {
			keep = "SS" // German sharp s has no one-letter capital in the set
		}
		switch {
		case keep == "SS", r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune(".,-/'&", r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteString(keep)
		default:
			space = true // spaces and anything outside the set separate words
		}
	}
	out := b.String()
	if len(out) > max {
		out = strings.TrimSpace(out[:max])
	}
	return out
}
