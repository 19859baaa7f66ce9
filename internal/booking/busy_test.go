package booking

import (
	"slices"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/slots"
)

// A date's folded appointments are read back exactly; an entry no slot can
// read is left out, never guessed.
func TestAppendBusy_ReadsFoldedAppointments(t *testing.T) {
	date := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	clock := slots.NewDayClock(date, time.UTC)
	at := func(h, m int) int64 { return clock.At(h*60 + m) }
	got := appendBusy(nil, []byte("09:00 60 10 5,14:30 45 0 0,bad,24:00 30 0 0,10:00 30 0,10:00 x 0 0,10:00 30 0 0 7,11:00  30 0 0,08:15 1 0 120"), clock)
	want := []slots.Busy{
		{Start: at(9, 0), Duration: 60, Before: 10, After: 5},
		{Start: at(14, 30), Duration: 45},
		{Start: at(8, 15), Duration: 1, After: 120},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	if got := appendBusy(nil, nil, clock); len(got) != 0 {
		t.Fatalf("empty list: %+v", got)
	}
}
