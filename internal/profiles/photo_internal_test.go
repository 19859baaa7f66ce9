package profiles

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/files"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
)

// CraftJPEG builds a valid JPEG of any size in a few bytes a block: every
// block is flat grey, coded with one-symbol Huffman tables. comps is 1 (grey)
// or 3 (4:4:4 colour); progressive sends only the DC scan, as a progressive
// encoder may. A 6000×6600 progressive 4:4:4 one is the 232 KB file of issue
// 12. Exported for the HTTP tests in profiles_test.
func CraftJPEG(w, h, comps int, progressive bool) []byte {
	var b bytes.Buffer
	seg := func(marker byte, body []byte) {
		b.Write([]byte{0xFF, marker})
		_ = binary.Write(&b, binary.BigEndian, uint16(len(body)+2))
		b.Write(body)
	}
	b.Write([]byte{0xFF, 0xD8})                                  // SOI
	seg(0xDB, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...)) // DQT
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(comps)}
	for i := range comps {
		sof = append(sof, byte(i+1), 0x11, 0) // no subsampling
	}
	marker := byte(0xC0)
	if progressive {
		marker = 0xC2
	}
	seg(marker, sof)
	oneCode := append([]byte{1}, make([]byte, 15)...) // one code of length 1: symbol 0
	seg(0xC4, append(append(append([]byte{0x00}, oneCode...), 0), append(append([]byte{0x10}, oneCode...), 0)...))
	sos := []byte{byte(comps)}
	for i := range comps {
		sos = append(sos, byte(i+1), 0)
	}
	bitsPerBlock := 2 // DC difference 0, end of block
	if progressive {
		sos, bitsPerBlock = append(sos, 0, 0, 0), 1 // DC first scan only
	} else {
		sos = append(sos, 0, 63, 0)
	}
	seg(0xDA, sos)
	blocks := ((w + 7) / 8) * ((h + 7) / 8) * comps
	b.Write(make([]byte, (blocks*bitsPerBlock+7)/8))
	b.Write([]byte{0xFF, 0xD9}) // EOI
	return b.Bytes()
}

func TestCraftJPEG_IsAValidImage(t *testing.T) {
	img, format, err := image.Decode(bytes.NewReader(CraftJPEG(40, 24, 3, true)))
	if err != nil || format != "jpeg" || img.Bounds().Dx() != 40 || img.Bounds().Dy() != 24 {
		t.Fatalf("%v %s %v", img, format, err)
	}
}

// The largest photos allowed, in each form, allocate a bounded amount to
// decode and scale: the picture (at most MaxDecodeBytes, progressive JPEG
// coefficients included), the 16 MB bilinear pass and the scaler's rows
// (512 × 2048 × 32 bytes) — where the 6000×6600 file of issue 12 took ~570 MB
// and a 16 MP progressive 4:4:4 one ~300 MB.
func TestProcessPhoto_DecodingTheLargestAllowedPhotoHasABoundedCost(t *testing.T) {
	for name, data := range map[string][]byte{
		"baseline 4:4:4, 16 MP":   CraftJPEG(4000, MaxPhotoPixels/4000, 3, false),
		"progressive 4:4:4, 4 MP": CraftJPEG(2000, 2200, 3, true),
		"progressive grey, 12 MP": CraftJPEG(4000, 3000, 1, true),
	} {
		runtime.GC()
		old := debug.SetGCPercent(-1) // nothing freed: TotalAlloc bounds the peak
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		out, ext, err := ProcessPhoto(context.Background(), data)
		runtime.ReadMemStats(&after)
		debug.SetGCPercent(old)
		if err != nil || ext != "jpg" || len(out) == 0 {
			t.Fatalf("%s: %s %v", name, ext, err)
		}
		grew := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: allocated %d MB", name, grew>>20)
		if limit := uint64(MaxDecodeBytes + 16<<20 + 32<<20 + 16<<20); grew > limit {
			t.Fatalf("%s: allocated %d MB, more than %d MB", name, grew>>20, limit>>20)
		}
	}
}

// A photo within the side and pixel limits whose decoding would still cost
// too much (Go keeps a progressive JPEG's every coefficient) is refused from
// its header, in pt-BR, before anything is decoded.
func TestProcessPhoto_RefusesCostlyDecodingFromTheHeader(t *testing.T) {
	for name, data := range map[string][]byte{
		"progressive 4:4:4, 16 MP": CraftJPEG(4000, MaxPhotoPixels/4000, 3, true),
		"progressive 4:4:4, 5 MP":  CraftJPEG(2300, 2300, 3, true),
	} {
		_, _, err := ProcessPhoto(context.Background(), data)
		if err != errPhotoCost {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if got := decodeCost(CraftJPEG(4000, 3000, 3, false), "jpeg", 4000, 3000); got != 36_000_000 {
		t.Fatalf("baseline 4:4:4 12 MP: %d bytes", got)
	}
	if got := decodeCost(CraftJPEG(4000, 3000, 3, true), "jpeg", 4000, 3000); got != 180_000_000 {
		t.Fatalf("progressive 4:4:4 12 MP: %d bytes", got)
	}
	if got := decodeCost([]byte{0xFF, 0xD8, 0xFF, 0xDA, 0, 2}, "jpeg", 100, 100); got != 150_000 {
		t.Fatalf("no frame header: %d bytes (assume the worst)", got)
	}
}

// Concurrent uploads wait for the one decode slot instead of each holding a
// decoded picture; a waiting upload gives up with its request.
func TestProcessPhoto_DecodesOneAtATimeAndWaitsWithTheRequest(t *testing.T) {
	data := CraftJPEG(600, 400, 3, true)
	decodeSlots <- struct{}{} // another upload is decoding
	released := false
	defer func() {
		if !released {
			<-decodeSlots
		}
	}()

	ctx, cancel := context.WithCancel(context.Background())
	gaveUp := make(chan error, 1)
	go func() { _, _, err := ProcessPhoto(ctx, data); gaveUp <- err }()
	const n = 4
	done := make(chan error, n)
	for range n {
		go func() { _, _, err := ProcessPhoto(context.Background(), data); done <- err }()
	}
	select {
	case err := <-done:
		t.Fatalf("decoded while the slot was taken: %v", err)
	case err := <-gaveUp:
		t.Fatalf("returned before its request ended: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	cancel()
	select {
	case err := <-gaveUp:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled wait: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a cancelled upload kept waiting")
	}
	<-decodeSlots
	released = true
	for range n {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(60 * time.Second):
			t.Fatal("uploads never got the slot")
		}
	}
	if len(decodeSlots) != 0 {
		t.Fatal("a slot was not given back")
	}
}

// An upload whose account is deleted while it is under way (its token passed
// the check just before) leaves no file behind: the photo of a deleted
// account must not stay public.
func TestSetPhoto_ForAnAccountGoneLeavesNoFile(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		dir := t.TempDir()
		store := &files.Local{Dir: dir}
		svc := &Service{DB: d, Clock: clock.NewManual(time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC))}
		_, err := svc.SetPhoto(context.Background(), store, "00000000-0000-0000-0000-000000000000", CraftJPEG(64, 64, 3, false))
		if err != errAccountGone {
			t.Fatalf("upload for a missing account: %v", err)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*")); len(left) != 0 {
			t.Fatalf("left behind: %v", left)
		}
	})
}
