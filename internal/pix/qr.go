package pix

import qrcode "github.com/skip2/go-qrcode"

// PNG draws a payload as a QR code image (error correction M, as payment
// apps expect of a BR Code; size pixels a side with the quiet zone).
func PNG(payload string, size int) ([]byte, error) {
	return qrcode.Encode(payload, qrcode.Medium, size)
}
