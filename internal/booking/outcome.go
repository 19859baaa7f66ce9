package booking

import "time"

// Attended is the condition of an appointment that was attended: completed
// and begun by now. A no-show is not attended and leaves the revenue (the
// product charges nothing for one). Its three parameters are Now's.
const Attended = `(status = 'completed' AND (appointment_date < ? OR (appointment_date = ? AND appointment_time <= ?)))`

// Scheduled is the condition of an appointment still ahead: confirmed and
// not begun. Its three parameters are Now's.
const Scheduled = `(status = 'confirmed' AND (appointment_date > ? OR (appointment_date = ? AND appointment_time > ?)))`

// Now is the parameters Attended and Scheduled take: the owner's date and
// time of day.
func Now(now time.Time) []any {
	today := now.Format("2006-01-02")
	return []any{today, today, now.Format("15:04")}
}
