// Package memo keeps computed answers of an owner's data (dashboard, agenda
// ranges, reports, client list and CSV, public profile, bookable days and
// free times) and serves them again while nothing they depend on changed.
// Its rules, which every use must keep:
//
//   - Key: the route's name, the owner — the signed-in user's id (Owner), or
//     the {username} path value read the way usernames are stored (Public),
//     the answer then also recording the owner's id, checked on every hit —
//     the request's raw query and the current minute (Unix time / 60);
//     nothing else of the request — headers, cookies, who asks — is in the
//     key, so an answer may only depend on the owner, the query and the clock.
//   - Version: every read looks up the owner's data version (one indexed
//     row; internal/platform/versions has the rules: which writes bump it),
//     which database triggers bump in the same transaction as every write
//     to what an owner's answers are computed from. A kept answer is served only
//     under the version it was computed at, so it is never stale, whichever
//     instance wrote. Data the triggers do not cover must not shape a cached
//     answer. The version an answer is kept under is read before the answer
//     is computed, never after: an answer is never newer in name than in
//     fact.
//   - Clock: the minute in the key recomputes, at least once a minute, what
//     depends on "now" (today, upcoming, times already past, a trial ending).
//   - What is kept: only 200 answers that were not streamed (Flush), with the
//     headers the handler set (Content-Type, Cache-Control: no-store,
//     Content-Disposition…), which a hit replays; headers set by outer
//     middleware (the request id) are not kept.
//   - Size: an LRU bounded by maxBytes (keys, bodies and headers counted); a
//     single answer over an eighth of it is not kept.
//   - Never cached: writes, anything behind a rate limit or that differs per
//     visitor (a booking, a cancel link, auth), answers that read data of
//     another owner or of no owner (an unknown username is not cached), and
//     streams (events).
//   - A nil *Cache caches nothing: the routes work the same without it.
package memo

import (
	"bytes"
	"container/list"
	"context"
	"net/http"
	"strconv"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/versions"
)

// Cache is a bounded LRU of answers, each stored with the version it was
// computed at.
type Cache struct {
	DB    *db.DB
	Clock clock.Clock

	mu       sync.Mutex
	ll       *list.List
	items    map[string]*list.Element
	bytes    int
	maxBytes int
	hits     prometheus.Counter
	misses   prometheus.Counter
}

type entry struct {
	key     string
	owner   string // whose data it is
	version int64
	header  []string // what the handler set, as name, value pairs: Content-Type, Content-Disposition, Cache-Control…
	body    []byte
}

// entryOverhead is what an entry costs the heap beyond its strings and
// body: the struct, its list element and its slot in the map. Counting it
// keeps the bound honest when many small answers are kept.
const entryOverhead = 192

func (e *entry) size() int {
	n := entryOverhead + len(e.key) + len(e.owner) + cap(e.body) + 16*cap(e.header)
	for _, s := range e.header {
		n += len(s)
	}
	return n
}

// New returns a cache holding at most maxBytes of answers.
func New(d *db.DB, clk clock.Clock, maxBytes int, reg prometheus.Registerer) *Cache {
	c := &Cache{DB: d, Clock: clk, ll: list.New(), items: map[string]*list.Element{}, maxBytes: maxBytes,
		hits:   prometheus.NewCounter(prometheus.CounterOpts{Name: "agendei_memo_hits_total", Help: "Answers served from the cache."}),
		misses: prometheus.NewCounter(prometheus.CounterOpts{Name: "agendei_memo_misses_total", Help: "Answers computed because the cache had none for the current version."}),
	}
	if reg != nil {
		reg.MustRegister(c.hits, c.misses)
	}
	return c
}

func (c *Cache) get(key, owner string, version int64) (*entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*entry)
	if e.owner != owner || e.version != version {
		return nil, false
	}
	c.ll.MoveToFront(el)
	return e, true
}

func (c *Cache) put(e *entry) {
	size := e.size()
	if size > c.maxBytes/8 {
		return // one answer may not crowd out the rest
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[e.key]; ok {
		old := el.Value.(*entry)
		c.bytes -= old.size()
		el.Value = e
		c.ll.MoveToFront(el)
	} else {
		c.items[e.key] = c.ll.PushFront(e)
	}
	c.bytes += size
	for c.bytes > c.maxBytes {
		last := c.ll.Back()
		old := last.Value.(*entry)
		c.ll.Remove(last)
		delete(c.items, old.key)
		c.bytes -= old.size()
	}
}

// Owner caches one of the signed-in owner's screens (inside authentication;
// userID reads the owner from the request's context). A nil cache caches nothing.
func (c *Cache) Owner(name string, userID func(context.Context) string, next http.Handler) http.Handler {
	if c == nil {
		return next
	}
	return c.Handler(name, func(r *http.Request) (string, int64, string, error) {
		id := userID(r.Context())
		v, err := versions.Of(r.Context(), c.DB, id)
		return id, v, r.URL.RawQuery, err
	}, next)
}

type viewerKey struct{}

// WithViewer marks a request whose answer is a part of the owner's (a
// professional of the practice sees their own appointments and clients,
// issue 43): Handler keeps its answers apart from the owner's own.
func WithViewer(ctx context.Context, viewer string) context.Context {
	return context.WithValue(ctx, viewerKey{}, viewer)
}

// Viewer is who the request's answer is for; "" for the owner.
func Viewer(ctx context.Context) string {
	s, _ := ctx.Value(viewerKey{}).(string)
	return s
}

// Public caches an answer about the owner named by the {username} path value,
// read the way usernames are stored (normalize: profiles.NormalizeUsername).
// On a miss the handler finds the owner and version it was looked up under in
// its context (Looked), so it need not read them again.
func (c *Cache) Public(name string, normalize func(string) string, next http.Handler) http.Handler {
	if c == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		username := normalize(r.PathValue("username"))
		key := c.key(name, username, r.URL.RawQuery)
		o, err := versions.OfUsername(r.Context(), c.DB, username)
		if err != nil || o.ID == "" {
			next.ServeHTTP(w, r) // let the handler answer (and report) it
			return
		}
		l := Lookup{Username: username, OwnerID: o.ID, Version: o.Version}
		r = r.WithContext(context.WithValue(r.Context(), lookedKey{}, l))
		c.serve(w, r, key, l, next)
	})
}

type lookedKey struct{}

// Lookup is the owner a public answer is about, as Public read it for this
// request: the stored username, the owner's id and data version.
type Lookup struct {
	Username, OwnerID string
	Version           int64
}

// Looked is the lookup Public made for this request, if any: an answer
// computed under it is stored under that version, so the handler should
// compute it from that same version.
func Looked(ctx context.Context) (Lookup, bool) {
	l, ok := ctx.Value(lookedKey{}).(Lookup)
	return l, ok
}

// Scope names whose data an answer is and how to tell it apart: the owner's
// id ("" = no such owner: do not cache) and the request's own key parts.
type Scope func(r *http.Request) (ownerID string, version int64, parts string, err error)

// Handler serves next's 200 answers from the cache while the owner's
// version and the minute are unchanged, and stores new ones.
func (c *Cache) Handler(name string, scope Scope, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		owner, version, parts, err := scope(r)
		if err != nil || owner == "" {
			next.ServeHTTP(w, r) // let the handler answer (and report) it
			return
		}
		if v := Viewer(r.Context()); v != "" {
			parts = v + "\x00" + parts
		}
		c.serve(w, r, c.key(name, owner, parts), Lookup{OwnerID: owner, Version: version}, next)
	})
}

// key names an answer: the route, whose it is (owner id or username), the
// request's own parts and the minute.
func (c *Cache) key(name, owner, parts string) string {
	return name + "\x00" + owner + "\x00" + parts + "\x00" + strconv.FormatInt(c.Clock.Now().Unix()/60, 10)
}

// serve answers from the cache what the owner's version and the minute still
// hold, and keeps next's new answer.
func (c *Cache) serve(w http.ResponseWriter, r *http.Request, key string, under Lookup, next http.Handler) {
	if e, ok := c.get(key, under.OwnerID, under.Version); ok {
		c.hits.Inc()
		h := w.Header()
		for i := 0; i+1 < len(e.header); i += 2 {
			delete(h, e.header[i])
		}
		for i := 0; i+1 < len(e.header); i += 2 {
			h[e.header[i]] = append(h[e.header[i]], e.header[i+1])
		}
		h.Set("X-Agendei-Cache", "hit")
		_, _ = w.Write(e.body)
		return
	}
	c.compute(w, r, key, &under, next)
}

// compute runs next and keeps its answer under the owner and version in
// under, as they are once next is done ("" owner: not kept).
func (c *Cache) compute(w http.ResponseWriter, r *http.Request, key string, under *Lookup, next http.Handler) {
	c.misses.Inc()
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	next.ServeHTTP(rec, r)
	if rec.status == http.StatusOK && !rec.streamed && rec.header != nil && under.OwnerID != "" {
		c.put(&entry{key: key, owner: under.OwnerID, version: under.Version, header: rec.header, body: rec.buf.Bytes()}) // the recorder goes with this request: its buffer is the copy
	}
}

// recorder passes the answer through and keeps a copy of its body and of
// the headers the handler set. The handler sets them in a map of its own,
// passed on when the answer's head goes out: that tells them from those
// outer middleware set (the request id…) without copying those.
type recorder struct {
	http.ResponseWriter
	status   int
	buf      bytes.Buffer
	streamed bool
	own      http.Header // what the handler set
	header   []string    // the handler's headers as name, value pairs, as they were sent (nil: not yet)
}

func (r *recorder) Header() http.Header {
	if r.own == nil {
		r.own = http.Header{}
	}
	return r.own
}

func (r *recorder) WriteHeader(status int) {
	if r.header == nil {
		r.status = status
		r.keepHeader()
	}
	r.ResponseWriter.WriteHeader(status)
}

// keepHeader passes the handler's headers on and notes them, at the moment
// the answer's head goes out.
func (r *recorder) keepHeader() {
	out := r.ResponseWriter.Header()
	n := 0
	for _, vs := range r.own {
		n += 2 * len(vs)
	}
	r.header = make([]string, 0, n)
	for k, vs := range r.own {
		out[k] = vs
		for _, v := range vs {
			r.header = append(r.header, k, v)
		}
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.header == nil {
		r.keepHeader() // an implicit 200
	}
	if r.status == http.StatusOK && !r.streamed {
		r.buf.Write(p)
	}
	return r.ResponseWriter.Write(p)
}

// Flush marks a streamed answer, which is not cached.
func (r *recorder) Flush() {
	r.streamed = true
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
