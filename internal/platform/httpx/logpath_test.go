package httpx

import "testing"

// A token in a path never reaches the log whole; ids and words do.
func TestLogPath_MasksTokensOnly(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/api/invites/ejQjdZkt8plf5jcrsSYCeQqp0L6NChOoZgbn0Mmh4Zc", "/api/invites/…"},
		{"/convite/ejQjdZkt8plf5jcrsSYCeQqp0L6NChOoZgbn0Mmh4Zc", "/convite/…"},
		{"/api/public/bookings/ejQjdZkt8plf5jcrsSYCeQqp0L6NChOoZgbn0Mmh4Zc/invite.ics", "/api/public/bookings/…/invite.ics"},
		{"/calendar/ejQjdZkt8plf5jcrsSYCeQqp0L6NChOoZgbn0Mmh4Zc.ics", "/calendar/….ics"},
		{"/api/appointments/0b9d3c1e-5a7f-4a8e-9f3b-2c1d4e5f6a7b", "/api/appointments/0b9d3c1e-5a7f-4a8e-9f3b-2c1d4e5f6a7b"},
		{"/api/agenda/grid", "/api/agenda/grid"},
		{"/assets/index-abcdef0123456789.js", "/assets/index-abcdef0123456789.js"},
	} {
		if got := LogPath(c.in); got != c.want {
			t.Errorf("LogPath(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
