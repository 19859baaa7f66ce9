package auth

import (
	"context"
	"sync"
	"time"
)

// Revoked means revoked, at once: an access token is a signed statement, but
// every owner request also asks whether the session behind it still stands —
// the account exists, its session generation is the token's (signing out
// everywhere, a password reset or recovery move it on), and the token's
// sign-in (refresh family) was not revoked. The answer is kept for
// SessionCheckTTL in each process, so a revoke on one instance takes effect on
// every other within about that long, for one small indexed read per signed-in
// device per second at most. The instance that revokes forgets its answers for
// that user at once.

// SessionCheckTTL is how long a process trusts what it read about a session.
// Requests that last longer (event streams) are checked again as often.
var SessionCheckTTL = time.Second

// maxSessionCache bounds the cache; past it, expired entries are dropped, and
// if that is not enough, everything (it refills at one read per session).
const maxSessionCache = 50_000

type sessionEntry struct {
	found bool  // the account exists
	gen   int64 // its session generation
	live  bool  // the family exists for the user and is not revoked
	read  time.Time
}

// sessionCache is per process; it uses the real monotonic clock, not the
// injected one: it measures how stale a read is, not business time.
type sessionCache struct {
	mu    sync.Mutex
	users map[string]map[string]sessionEntry // user → family → entry
	n     int
}

func (c *sessionCache) get(userID, family string) (sessionEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.users[userID][family]
	if !ok || time.Since(e.read) >= SessionCheckTTL {
		return sessionEntry{}, false
	}
	return e, true
}

func (c *sessionCache) put(userID, family string, e sessionEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.users == nil {
		c.users = map[string]map[string]sessionEntry{}
	}
	if c.n >= maxSessionCache {
		c.sweep()
	}
	fams := c.users[userID]
	if fams == nil {
		fams = map[string]sessionEntry{}
		c.users[userID] = fams
	}
	if _, ok := fams[family]; !ok {
		c.n++
	}
	fams[family] = e
}

// sweep drops expired entries, or everything when they are all fresh (under c.mu).
func (c *sessionCache) sweep() {
	for u, fams := range c.users {
		for f, e := range fams {
			if time.Since(e.read) >= SessionCheckTTL {
				delete(fams, f)
				c.n--
			}
		}
		if len(fams) == 0 {
			delete(c.users, u)
		}
	}
	if c.n >= maxSessionCache {
		c.users, c.n = map[string]map[string]sessionEntry{}, 0
	}
}

// forget drops what this process knows of the user's sessions (all of them
// when family is empty), so a revoke here holds here at once.
func (c *sessionCache) forget(userID, family string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if family == "" {
		c.n -= len(c.users[userID])
		delete(c.users, userID)
		return
	}
	if _, ok := c.users[userID][family]; ok {
		delete(c.users[userID], family)
		c.n--
	}
}

// checkSession reports whether the token's session still stands: nil, or
// errSessionInvalid, or the database's error (the caller answers 503: an
// unreachable database must not sign everyone out, nor answer 500).
func (s *Service) checkSession(ctx context.Context, tok accessToken) error {
	e, ok := s.sessions.get(tok.UserID, tok.Family)
	// A token newer than what we read was issued after our read (a sign-in on
	// another instance after a revoke): read again rather than refuse it.
	if !ok || (e.found && tok.Gen > e.gen) {
		found, gen, live, err := sessionState(ctx, s.db, tok.UserID, tok.Family)
		if err != nil {
			return err
		}
		e = sessionEntry{found: found, gen: gen, live: live, read: time.Now()}
		s.sessions.put(tok.UserID, tok.Family, e)
	}
	if !e.found || !e.live || tok.Gen != e.gen {
		return errSessionInvalid
	}
	return nil
}

// watch returns a context for the request that is cancelled as soon as the
// session is found revoked, checking again every SessionCheckTTL while the
// request lasts: an open event stream of a signed-out or deleted account ends
// within a second or two, on whichever instance holds it. Short requests
// finish before the first check and cost one stopped timer.
func (s *Service) watch(parent context.Context, tok accessToken) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	var mu sync.Mutex
	stopped := false
	var timer *time.Timer
	check := func() {
		err := s.checkSession(parent, tok)
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		if err == errSessionInvalid {
			cancel()
			return
		}
		// A database error is not a revoke: keep the request and look again.
		timer.Reset(SessionCheckTTL)
	}
	mu.Lock()
	timer = time.AfterFunc(SessionCheckTTL, check)
	mu.Unlock()
	return ctx, func() {
		mu.Lock()
		stopped = true
		timer.Stop()
		mu.Unlock()
		cancel()
	}
}
