package profiles

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
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

// The largest photo allowed, in the costliest form Go decodes (progressive
// 4:4:4 JPEG), allocates at most ~15 bytes a pixel to decode plus the
// scaler's 64 MB (~300 MB in all, of which less is live at once): a bound,
// where the 6000×6600 file of issue 12 took ~570 MB to decode alone.
func TestProcessPhoto_DecodingTheLargestAllowedPhotoHasABoundedCost(t *testing.T) {
	data := CraftJPEG(4000, MaxPhotoPixels/4000, 3, true)
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // nothing freed: TotalAlloc bounds the peak
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, ext, err := ProcessPhoto(context.Background(), data)
	runtime.ReadMemStats(&after)
	if err != nil || ext != "jpg" || len(out) == 0 {
		t.Fatalf("%s %v", ext, err)
	}
	grew := after.TotalAlloc - before.TotalAlloc
	t.Logf("decoding %d px allocated %d MB", MaxPhotoPixels, grew>>20)
	if limit := uint64(MaxPhotoPixels*15 + 64<<20 + 16<<20); grew > limit {
		t.Fatalf("allocated %d MB, more than %d MB", grew>>20, limit>>20)
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
