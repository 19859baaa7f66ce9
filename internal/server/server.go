// Package server composes Agendei: it builds every domain service from the
// configuration, mounts their handlers, the SPA and the operational endpoints
// on one mux, and runs the background work.
package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	netmail "net/mail"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/klauspost/compress/gzhttp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/agendei/agendei/internal/agenda"
	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/billing"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/calendars"
	"github.com/agendei/agendei/internal/clients"
	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/events"
	"github.com/agendei/agendei/internal/files"
	"github.com/agendei/agendei/internal/hours"
	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/mercadopago"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/onboarding"
	"github.com/agendei/agendei/internal/place"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/gcal"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/memo"
	"github.com/agendei/agendei/internal/platform/ratelimit"
	"github.com/agendei/agendei/internal/platform/secretbox"
	"github.com/agendei/agendei/internal/profiles"
	"github.com/agendei/agendei/internal/push"
	"github.com/agendei/agendei/internal/records"
	"github.com/agendei/agendei/internal/reports"
	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/services"
	"github.com/agendei/agendei/internal/team"
	"github.com/agendei/agendei/internal/waitlist"
	"github.com/agendei/agendei/internal/whatsapp"
	"github.com/agendei/agendei/web/publicroutes"
)

// Server is the whole product behind one http.Handler.
type Server struct {
	Handler     http.Handler
	Queue       *jobs.Queue
	Auth        *auth.Service
	Events      *events.Broker
	Billing     *billing.Service
	WhatsApp    *whatsapp.Service
	MercadoPago *mercadopago.Service
	Waitlist    *waitlist.Service
	Push        *push.Service      // web push to clients' browsers; tests point it at their fake (Hosts, HTTP)
	Metrics     http.Handler       // /metrics; with cfg.MetricsAddr set, served on that address alone (Handler answers 404)
	BaseURL     string             // the public address links and previews are written with
	Booking     *booking.Service   // the answers' entry point (Answer) and the reminders' WhatsApp seam (WhatsApp)
	Calendars   *calendars.Service // the professionals' own calendars, read into busy time
	limiter     *ratelimit.Limiter
	log         *slog.Logger
	db          *db.DB
	databaseURL string
}

// StartEvents connects the live events to PostgreSQL's LISTEN/NOTIFY when
// that is the database, so every process's tabs hear every event; with
// SQLite (one process) they stay in memory. It runs until ctx ends.
func (s *Server) StartEvents(ctx context.Context) {
	if s.db.Dialect != db.Postgres || s.databaseURL == "" {
		return
	}
	s.Events.UsePostgres(ctx, s.databaseURL, func(ctx context.Context, payload string) error {
		_, err := s.db.ExecContext(ctx, `SELECT pg_notify(?, ?)`, events.Channel, payload)
		return err
	})
}

// Deps are what New needs besides the configuration.
type Deps struct {
	DB     *db.DB
	Clock  clock.Clock
	Log    *slog.Logger
	Web    fs.FS       // the built SPA
	Sender mail.Sender // nil: from the configuration
	Files  files.Store // nil: the folder <data dir>/files
	// Demo says the database holds `agendei demo`'s practice, whose password
	// is public: the app shows a banner (GET /api/config).
	Demo bool
}

// New builds the server. cfg.Secret and cfg.SecretKey must be set (config.EnsureSecret).
// It is three parts: the core every part stands on, the domain's services
// (wireDomain) and the outside providers' connections (newProviders, then
// wireProviders once the domain they reach exists).
func New(cfg *config.Config, d Deps) (*Server, error) {
	c, err := newCore(cfg, d)
	if err != nil {
		return nil, err
	}
	p, err := newProviders(c)
	if err != nil {
		return nil, err
	}
	dom := wireDomain(c, p.chargers())
	wireProviders(c, p, dom)
	wireCopy(c, p, dom)
	metricsH := mountOperations(c, dom)
	return &Server{Handler: c.outer(c.mux), BaseURL: cfg.BaseURL, Queue: c.queue, Auth: c.auth, Events: dom.broker, Billing: dom.billing,
		WhatsApp: p.wa, MercadoPago: p.mp, Push: p.push, Waitlist: dom.waitlist, Booking: dom.booking, Calendars: dom.calendar, Metrics: metricsH, limiter: c.limiter, log: c.d.Log,
		db: c.d.DB, databaseURL: cfg.DatabaseURL}, nil
}

// core is what every part of the server stands on: the configuration and
// its dependencies, the job queue, mail, rate limits, sign-in, metrics and
// the one mux.
type core struct {
	cfg     *config.Config
	d       Deps
	box     *secretbox.Box
	queue   *jobs.Queue
	mailer  *mail.Mailer
	limiter *ratelimit.Limiter
	auth    *auth.Service
	authH   *auth.Handlers
	reg     *prometheus.Registry
	mux     *http.ServeMux
}

func newCore(cfg *config.Config, d Deps) (*core, error) {
	if d.Clock == nil {
		d.Clock = clock.Real{}
	}
	if d.Sender == nil {
		s, err := mail.NewSender(cfg.SMTPURL, cfg.DataDir, cfg.MailFrom)
		if err != nil {
			return nil, err
		}
		d.Sender = s
	}
	if d.Files == nil {
		store, err := newFileStore(cfg, d.Log)
		if err != nil {
			return nil, err
		}
		d.Files = store
	}
	box, err := secretbox.Parse(cfg.SecretKey)
	if err != nil {
		return nil, err
	}
	c := &core{cfg: cfg, d: d, box: box, queue: jobs.New(d.DB, d.Clock, d.Log), limiter: ratelimit.New(d.DB, d.Clock), mux: http.NewServeMux()}
	c.mailer = mail.NewMailer(c.queue, d.Sender)
	c.auth = auth.NewService(auth.Config{DB: d.DB, Clock: d.Clock, Limiter: c.limiter, Mailer: c.mailer,
		Secret: cfg.Secret, BaseURL: cfg.BaseURL, Log: d.Log})
	c.authH = auth.NewHandlers(c.auth, cfg.TLS(), cfg.TrustProxy)
	c.authH.Register(c.mux)
	c.reg = prometheus.NewRegistry()
	c.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return c, nil
}

// domain is the product's own services that the providers, the background
// work and the operational routes reach.
type domain struct {
	profiles *profiles.Service
	broker   *events.Broker
	billing  *billing.Service
	booking  *booking.Service
	waitlist *waitlist.Service
	cep      *place.CEPLookup
	calendar *calendars.Service
}

// wireDomain builds the domain's services and mounts their handlers.
// Deposits are charged by chargers (the owner's Mercado Pago when
// connected, else the static Pix from their key).
func wireDomain(c *core, chargers deposits.Chargers) *domain {
	d, cfg, mux, authH := c.d, c.cfg, c.mux, c.authH
	profileSvc := &profiles.Service{DB: d.DB, Clock: d.Clock, DefaultReminderLead: cfg.ReminderLead, Deposits: chargers}
	// Answers computed from an owner's data, kept while that data is unchanged.
	// cfg.BenchDisable (a benchmark switch, never set in production) turns
	// the public read path's mechanisms off for cmd/agendei-bench.
	off := cfg.BenchDisable
	var cache *memo.Cache // nil: no cache
	if !off["memo"] {
		cache = memo.New(d.DB, d.Clock, 16<<20, c.reg)
	}
	setups := &schedule.Cache{DB: d.DB}
	if off["setup-cache"] {
		setups = nil
	}
	(&profiles.Handlers{Svc: profileSvc, Auth: authH, Memo: cache}).Register(mux)
	(&profiles.PhotoHandlers{Svc: profileSvc, Store: d.Files, Auth: authH, Limiter: c.limiter, Memo: cache}).Register(mux)
	c.auth.OnDelete(func(ctx context.Context, userID string) error { return profiles.DeletePhotos(ctx, d.Files, userID) })
	broker := events.NewBroker(d.Log)
	notes := &notifications.Service{DB: d.DB, Clock: d.Clock, Broker: broker}
	(&notifications.Handlers{Svc: notes, Auth: authH}).Register(mux)
	billingSvc := wireBilling(c, notes)
	bookingSvc := &booking.Service{DB: d.DB, Clock: d.Clock, Mailer: c.mailer, Queue: c.queue, Notes: notes, BaseURL: cfg.BaseURL, ReminderLead: cfg.ReminderLead,
		Setups: setups, Deposits: chargers}
	bookingSvc.DepositMinute = cfg.DepositMinute
	bookingSvc.RegisterJobs()
	profileSvc.Rezone = bookingSvc.Rezone
	profileSvc.Replan = bookingSvc.Replan
	(&booking.Handlers{Svc: bookingSvc, Limiter: c.limiter, TrustProxy: cfg.TrustProxy, Memo: cache, Reads: httpx.NewQueue(d.DB.Readers())}).Register(mux)
	waitlistSvc := &waitlist.Service{DB: d.DB, Clock: d.Clock, Queue: c.queue, Mailer: c.mailer, Booking: bookingSvc, Notes: notes, BaseURL: cfg.BaseURL}
	waitlistSvc.RegisterJobs()
	(&waitlist.Handlers{Svc: waitlistSvc, Auth: authH, Limiter: c.limiter, TrustProxy: cfg.TrustProxy}).Register(mux)
	(&agenda.Handlers{Svc: &agenda.Service{DB: d.DB, Clock: d.Clock, Notes: notes, Queue: c.queue}, Auth: authH, Memo: cache, Booking: bookingSvc, BaseURL: cfg.BaseURL}).Register(mux)
	(&clients.Handlers{Svc: &clients.Service{DB: d.DB, Clock: d.Clock, Notes: notes}, Auth: authH, Memo: cache}).Register(mux)
	(&reports.Handlers{Svc: &reports.Service{DB: d.DB, Clock: d.Clock}, Auth: authH, Memo: cache}).Register(mux)
	(&onboarding.Handlers{Svc: &onboarding.Service{DB: d.DB, Clock: d.Clock}, Auth: authH}).Register(mux)
	(&deposits.Handlers{DB: d.DB, Now: d.Clock.Now, Auth: authH}).Register(mux)
	(&services.Handlers{Catalog: &services.Catalog{DB: d.DB, Clock: d.Clock}, Auth: authH}).Register(mux)
	(&team.Handlers{Svc: &team.Service{DB: d.DB, Clock: d.Clock}, Auth: authH}).Register(mux)
	// The health record (issue 43): sealed with each owner's data key, which
	// the server's key seals.
	(&records.Handlers{Svc: &records.Service{DB: d.DB, Clock: d.Clock, Box: c.box, Links: bookingSvc, Files: d.Files, Limiter: c.limiter}, Auth: authH}).Register(mux)
	(&hours.Handlers{Store: &hours.Store{DB: d.DB}, Auth: authH}).Register(mux)
	(&schedule.SettingsHandlers{Settings: &schedule.Settings{DB: d.DB, Clock: d.Clock, Notes: notes, Queue: c.queue, Cancel: bookingSvc}, Auth: authH}).Register(mux)
	cep := &place.CEPLookup{URL: cfg.CEPURL}
	(&place.Handlers{Lookup: cep, Auth: authH}).Register(mux)
	// The professionals' own calendars, read in the background into busy
	// time through booking's hold (issue 42); their addresses are typed by
	// owners, so every read goes through the guard.
	allow, _ := connect.ParseAllow(cfg.OutboundAllow) // checked by config.validate
	cals := &calendars.Service{DB: d.DB, Clock: d.Clock, Box: c.box, Queue: c.queue, Busy: bookingSvc, Guard: connect.Guard{Allow: allow}, Every: cfg.CalendarEvery, Log: d.Log}
	if cfg.GoogleOAuth() {
		cals.Google = calendars.NewGoogle(&gcal.App{ClientID: cfg.GoogleClientID, ClientSecret: cfg.GoogleClientSecret, RedirectURI: cfg.BaseURL + "/profile/google",
			Endpoints: gcal.Endpoints{AuthURL: cfg.GoogleAuthURL, TokenURL: cfg.GoogleTokenURL, RevokeURL: cfg.GoogleRevokeURL, API: cfg.GoogleAPIURL}})
		cals.Google.Webhook, cals.Google.ChannelKey = calendars.PushAddress(cfg.BaseURL), []byte(cfg.Secret)
	}
	cals.Register()
	(&calendars.Handlers{Svc: cals, Auth: authH}).Register(mux)
	(&calendars.CalDAVHandlers{Svc: cals, Auth: authH}).Register(mux)
	return &domain{profiles: profileSvc, broker: broker, billing: billingSvc, booking: bookingSvc, waitlist: waitlistSvc, cep: cep, calendar: cals}
}

// wireBilling is the subscription: the local test provider, or Stripe
// when configured (with its webhook when a secret is set).
func wireBilling(c *core, notes *notifications.Service) *billing.Service {
	cfg := c.cfg
	var provider billing.Provider = &billing.Local{DB: c.d.DB, Clock: c.d.Clock, BaseURL: cfg.BaseURL}
	if cfg.StripeSecretKey != "" {
		provider = billing.NewStripe(billing.StripeConfig{SecretKey: cfg.StripeSecretKey, PriceID: cfg.StripePriceID, BaseURL: cfg.BaseURL, APIBase: cfg.StripeAPIBase})
	}
	billingSvc := &billing.Service{DB: c.d.DB, Clock: c.d.Clock, Notes: notes, Provider: provider}
	billingH := &billing.Handlers{Svc: billingSvc, Auth: c.authH}
	billingH.Register(c.mux)
	if cfg.StripeWebhook != "" {
		// Outside /api: Stripe proves itself by signature, not by our CSRF header.
		c.mux.Handle("POST /webhooks/stripe", billingH.WebhookHandler(cfg.StripeWebhook))
	}
	return billingSvc
}

// providers are the owners' connections to outside providers, each on
// the connection kit (platform/connect).
type providers struct {
	mp   *mercadopago.Service
	wa   *whatsapp.Service
	push *push.Service
}

// newProviders builds each provider's connection with its client; they
// reach the domain only once wireProviders has run.
func newProviders(c *core) (*providers, error) {
	d, cfg := c.d, c.cfg
	p := &providers{
		mp: &mercadopago.Service{DB: d.DB, Clock: d.Clock, Box: c.box, API: mercadopago.NewAPI(cfg.MercadoPagoAPIURL), BaseURL: cfg.BaseURL, Jobs: c.queue, App: mercadoPagoApp(cfg)},
		wa: &whatsapp.Service{DB: d.DB, Clock: d.Clock, Box: c.box, Graph: whatsapp.NewGraph(cfg.WhatsAppGraphURL), BaseURL: cfg.BaseURL, Jobs: c.queue,
			Operator: operatorOf(cfg.WhatsAppOperator)},
	}
	// Web push needs no owner's account: the server's VAPID key signs it
	// (RFC 8292), its contact the sender's address.
	var err error
	if p.push, err = push.New(d.DB, d.Clock, c.queue, cfg.VAPIDPrivateKey, vapidSubject(cfg)); err != nil {
		return nil, err
	}
	// The operator's extra hosts (a test's or the bench's local push service).
	for _, h := range strings.Split(cfg.PushHosts, ",") {
		if h = strings.TrimSpace(h); h != "" {
			if p.push.Hosts == nil {
				p.push.Hosts = append([]string(nil), push.DefaultHosts...)
			}
			p.push.Hosts = append(p.push.Hosts, h)
		}
	}
	return p, nil
}

// vapidSubject is the VAPID contact: the sender's e-mail address, else the
// public https address.
func vapidSubject(cfg *config.Config) string {
	if a, err := netmail.ParseAddress(cfg.MailFrom); err == nil {
		return a.Address
	}
	return cfg.BaseURL
}

// mercadoPagoApp is the operator's Mercado Pago application, when configured.
func mercadoPagoApp(cfg *config.Config) *mercadopago.App {
	if !cfg.MercadoPagoOAuth() {
		return nil
	}
	return &mercadopago.App{ClientID: cfg.MercadoPagoClientID, ClientSecret: cfg.MercadoPagoClientSecret,
		WebhookSecret: cfg.MercadoPagoWebhookSecret, AuthURL: cfg.MercadoPagoAuthURL}
}

// operatorOf is the operator's WhatsApp number as the sender takes it
// (nil when not configured).
func operatorOf(o config.WhatsAppOperator) *whatsapp.Operator {
	if !o.On() {
		return nil
	}
	return &whatsapp.Operator{WABAID: o.WABAID, PhoneNumberID: o.PhoneNumberID, Token: o.Token, AppSecret: o.AppSecret,
		VerifyToken: o.VerifyToken, Allowance: o.Allowance, AppID: o.AppID, SignupConfigID: o.SignupConfigID}
}

// chargers is how deposits are charged: through the owner's Mercado Pago
// when connected, else as the static Pix from their key (deposits.Chargers, the seam).
func (p *providers) chargers() deposits.Chargers {
	return mercadopago.Chargers{Svc: p.mp, Else: deposits.Static{}}
}

// wireProviders joins each provider to the domain it serves, registers its
// jobs and mounts its routes (the owner's card's and the webhook's).
func wireProviders(c *core, p *providers, dom *domain) {
	// A Pix Mercado Pago says is paid confirms its booking through the deposits' confirm path.
	p.mp.Confirmer = depositConfirmer{dom.booking}
	// A renewal Mercado Pago refused for good rings the owner's bell.
	p.mp.Notes = dom.booking.Notes
	p.mp.RegisterJobs()
	// A client's WhatsApp button reply goes through the one-tap answers' entry point.
	p.wa.Answers = whatsAppAnswers{dom.booking}
	// A reminder WhatsApp could not deliver goes by e-mail, as the job would have sent it.
	p.wa.Fallback = whatsAppAnswers{dom.booking}
	// The owner's bell hears when the operator's number's allowance ran out.
	p.wa.Notes = dom.booking.Notes
	// Reminders and a public booking's confirmation go by WhatsApp when the
	// owner's number can carry them (booking.ReminderSender, ConfirmationSender).
	dom.booking.WhatsApp = whatsAppSender{p.wa}
	// Waitlist offers go by WhatsApp when the owner's number can carry
	// them, and by e-mail when it could not deliver them.
	dom.waitlist.WhatsApp = p.wa
	p.wa.Offers = whatsAppOffers{dom.waitlist}
	p.wa.RegisterJobs()
	// Reminders, waitlist offers and the notices of a cancellation or a move
	// also go to the client's subscribed browsers (besides e-mail and WhatsApp).
	dom.booking.Push = pushSender{p.push}
	dom.waitlist.Push = pushSender{p.push}
	p.push.RegisterJobs()
	(&push.Handlers{Svc: p.push, Tokens: dom.booking, Limiter: c.limiter, TrustProxy: c.cfg.TrustProxy}).Register(c.mux)
	(&whatsapp.Handlers{Svc: p.wa, Auth: c.authH}).Register(c.mux)
	(&mercadopago.Handlers{Svc: p.mp, Auth: c.authH}).Register(c.mux)
}

// mountOperations mounts the app's configuration, the API's 404, health,
// readiness, metrics (returned, for cfg.MetricsAddr) and the web app.
func mountOperations(c *core, dom *domain) http.Handler {
	cfg, d, mux := c.cfg, c.d, c.mux
	mux.HandleFunc("GET /api/config", func(w http.ResponseWriter, r *http.Request) {
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"supportEmail": cfg.SupportEmail, "supportWhatsapp": cfg.SupportWhatsApp, "demo": d.Demo,
			"cepLookup": dom.cep.Enabled()})
	})
	mux.HandleFunc("/api/", httpx.NotFoundAPI)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		httpx.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := d.DB.Ping(r.Context()); err != nil {
			httpx.Logger(r.Context()).Warn("not ready", "err", err)
			httpx.WriteError(w, r, httpx.NewError(http.StatusServiceUnavailable, "unavailable", "Banco de dados indisponível."))
			return
		}
		httpx.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	metricsH := promhttp.HandlerFor(c.reg, promhttp.HandlerOpts{})
	if cfg.MetricsAddr == "" {
		mux.Handle("GET /metrics", metricsH)
	} else {
		mux.HandleFunc("/metrics", http.NotFound) // not the web app's index either
	}
	mux.Handle("/", gzhttp.GzipHandler(spa(d.Web, dom.profiles.PreviewOf, cfg.BaseURL)))
	return metricsH
}

// outer wraps the mux in what every request goes through.
func (c *core) outer(mux http.Handler) http.Handler {
	h := mux
	// Public pages' reads: 300 a minute per visitor and instance is far above
	// what a person clicking through the booking form needs.
	h = ratelimit.PublicReads(ratelimit.NewMemory(300, time.Minute, c.d.Clock.Now), c.cfg.TrustProxy)(h)
	h = httpx.CSRF(c.cfg.BaseURL)(h)
	// No handler and no database sees a NUL or text that is not UTF-8 in a
	// path or query (PostgreSQL would refuse it with a 500).
	h = httpx.RefuseBadText(h)
	h = httpx.SecurityHeaders(c.cfg.TLS(), publicroutes.Framed, c.cfg.WhatsAppOperator.Signup())(h)
	return httpx.Observe(c.d.Log, httpx.NewMetrics(c.reg))(h)
}

// newFileStore is the bucket when AGENDEI_S3_URL is set, else a local folder.
// An unreachable bucket is logged, not fatal: uploads fail until it is back,
// and everything else keeps working.
func newFileStore(cfg *config.Config, log *slog.Logger) (files.Store, error) {
	if cfg.S3URL == "" {
		return &files.Local{Dir: filepath.Join(cfg.DataDir, "files")}, nil
	}
	s3, err := files.NewS3(cfg.S3URL)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s3.Check(ctx); err != nil {
		log.Error("file bucket not reachable; photo uploads will fail until it is", "err", err)
	}
	return s3, nil
}

// RunBackground runs the job queue and housekeeping until ctx ends.
func (s *Server) RunBackground(ctx context.Context) {
	go func() {
		t := time.NewTicker(time.Hour)
		defer t.Stop()
		for {
			if err := s.limiter.Prune(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("prune rate limits", "err", err)
			}
			if err := s.Billing.Sweep(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("billing notices", "err", err)
			}
			if err := s.Waitlist.Cleanup(ctx, ""); err != nil && ctx.Err() == nil {
				s.log.Warn("waitlist cleanup", "err", err)
			}
			// OAuth tokens of Mercado Pago within 30 days of expiry are renewed.
			if err := s.MercadoPago.RenewDue(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("mercadopago token renewal", "err", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	// The operator's WhatsApp templates, created and tracked at Meta in the
	// background (no request or start waits for it).
	go s.WhatsApp.KeepOperatorTemplates(ctx, 10*time.Minute)
	// Each professional's own calendar, read every AGENDEI_CALENDAR_READ_EVERY.
	go s.Calendars.Run(ctx)
	go s.Calendars.RunWrites(ctx)
	s.Queue.Run(ctx, time.Second)
}

// spa serves the built app: real files as they are (hashed assets cached for
// a year), and every other path without a file extension as index.html so
// client-side routes survive a reload.
// The public booking pages (web/publicroutes/public-routes.json) come from
// the light build (agende.html): a client opening an owner's link downloads
// only those pages, not the owner app (see web/vite.agende.config.ts).
func spa(web fs.FS, preview previewer, baseURL string) http.Handler {
	files := http.FileServerFS(web)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name != "" && name != "index.html" {
			if st, err := fs.Stat(web, name); err == nil && !st.IsDir() {
				switch {
				case strings.HasPrefix(name, "assets/"):
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				case name == "sw.js":
					// The service worker is checked for updates on every visit.
					w.Header().Set("Cache-Control", "no-cache")
				default:
					w.Header().Set("Cache-Control", "public, max-age=3600")
				}
				if path.Ext(name) == ".webmanifest" {
					w.Header().Set("Content-Type", "application/manifest+json")
				}
				files.ServeHTTP(w, r)
				return
			}
			if path.Ext(name) != "" {
				http.NotFound(w, r)
				return
			}
		}
		page := "index.html"
		if publicroutes.Match(r.URL.EscapedPath()) {
			if _, err := fs.Stat(web, "agende.html"); err == nil {
				page = "agende.html"
			}
		}
		index, err := fs.ReadFile(web, page)
		if err != nil {
			http.Error(w, "web app not built: run `make build`", http.StatusNotFound)
			return
		}
		status := http.StatusOK
		if page == "agende.html" {
			status, index = withPreview(r, index, preview, baseURL)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(status)
		_, _ = w.Write(index)
	})
}

// depositConfirmer is how Mercado Pago's approved payments reach the
// deposits: booking.ConfirmDeposit (idempotent: a paid deposit changes
// nothing and sends nothing twice). A hold that ended before the payment
// (deposits.ErrExpired: its time was released, maybe taken) is never
// confirmed: the payment is flagged for the owner to return
// (deposits.FlagLatePayment) and the owner is told, once.
type depositConfirmer struct{ svc *booking.Service }

func (c depositConfirmer) ConfirmPaid(ctx context.Context, p mercadopago.Paid) (mercadopago.Outcome, error) {
	err := c.svc.ConfirmDeposit(ctx, p.OwnerID, p.AppointmentID, mercadopago.Provider)
	var he *httpx.Error
	if errors.As(err, &he) && he.Status == http.StatusNotFound {
		return mercadopago.Ignored, nil // no such deposit or appointment any more
	}
	if !errors.Is(err, deposits.ErrExpired) {
		return mercadopago.Confirmed, err
	}
	err = c.svc.DB.OwnerTx(ctx, p.OwnerID, func(tx *db.Tx) error {
		d, err := deposits.Get(ctx, tx, p.OwnerID, p.AppointmentID)
		if err != nil || d == nil || d.LatePayment {
			return err // flagged already: a replay
		}
		if err := deposits.FlagLatePayment(ctx, tx, p.OwnerID, p.AppointmentID, mercadopago.Provider, c.svc.Clock.Now()); err != nil {
			return err
		}
		return c.svc.Notes.Create(ctx, tx, p.OwnerID, notifications.Appointment, "Sinal pago após o prazo: devolva",
			fmt.Sprintf("O Pix de %s chegou pelo Mercado Pago depois que o prazo do sinal terminou e o horário foi liberado. O agendamento não foi confirmado: devolva o valor ao cliente e marque \"Sinal devolvido\".",
				brfmt.Money(p.AmountCents)), p.AppointmentID)
	})
	return mercadopago.Refund, err
}

// whatsAppSender is booking's WhatsApp seam: the reminder job's
// (booking.ReminderSender) and a booking's confirmation
// (booking.ConfirmationSender), each queued in the caller's transaction as
// a whatsapp.send job, or booking.ErrNotAvailable so the e-mail goes.
type whatsAppSender struct{ wa *whatsapp.Service }

func (w whatsAppSender) SendReminder(ctx context.Context, tx *db.Tx, r booking.Reminder) error {
	ok, err := w.wa.Queue(ctx, tx, whatsapp.Message{OwnerID: r.OwnerID, AppointmentID: r.AppointmentID, ClientPhone: r.ClientPhone,
		Kind: whatsapp.KindReminder, N: r.N, For: r.For})
	if err == nil && !ok {
		return booking.ErrNotAvailable
	}
	return err
}

func (w whatsAppSender) SendCancellation(ctx context.Context, tx *db.Tx, ownerID, appointmentID, clientPhone, at string) (bool, error) {
	return w.wa.QueueCancellation(ctx, tx, ownerID, appointmentID, clientPhone, at)
}

func (w whatsAppSender) SendConfirmation(ctx context.Context, tx *db.Tx, ownerID, appointmentID, clientPhone, at string) (bool, error) {
	return w.wa.QueueConfirmation(ctx, tx, ownerID, appointmentID, clientPhone, at)
}

// ReminderRoute and CanReach tell booking's reach card (booking.ReminderRoutes)
// how the owner's reminders go by WhatsApp.
func (w whatsAppSender) ReminderRoute(ctx context.Context, q db.Querier, ownerID string) (string, error) {
	return w.wa.ReminderRoute(ctx, q, ownerID)
}

func (w whatsAppSender) CanReach(phone string) bool { return w.wa.CanReach(phone) }

// whatsAppOffers is the waitlist as the WhatsApp sender needs it (whatsapp.Offers).
type whatsAppOffers struct{ svc *waitlist.Service }

func (o whatsAppOffers) OfferContent(ctx context.Context, ownerID, offerID string, mint bool) (whatsapp.OfferContent, bool, error) {
	m, ok, err := o.svc.OfferContent(ctx, ownerID, offerID, mint)
	return whatsapp.OfferContent(m), ok, err
}

func (o whatsAppOffers) EmailOffer(ctx context.Context, ownerID, offerID string) error {
	return o.svc.EmailOffer(ctx, ownerID, offerID)
}

// whatsAppAnswers is how the WhatsApp integration reaches booking: button
// replies go through the one-tap answers' entry point (booking.Service.
// AnswerReply; the answers are the same three words), and a reminder it
// could not deliver is e-mailed (booking.Service.EmailReminder).
type whatsAppAnswers struct{ svc *booking.Service }

// EmailInstead is booking.Service.EmailReminder under whatsapp.Fallback's name.
func (a whatsAppAnswers) EmailInstead(ctx context.Context, ownerID, appointmentID string, n int, at string) error {
	return a.svc.EmailReminder(ctx, ownerID, appointmentID, n, at)
}

func (a whatsAppAnswers) AnswerFromWhatsApp(ctx context.Context, ownerID, appointmentID string, ans whatsapp.Answer) (string, error) {
	return a.svc.AnswerReply(ctx, ownerID, appointmentID, booking.Action(ans), booking.ChannelWhatsApp)
}

// pushSender is booking's and the waitlist's push seam (booking.PushSender,
// waitlist.OfferPusher): each note becomes a push.Message queued in the
// caller's transaction, one job per subscribed browser of the client.
type pushSender struct{ svc *push.Service }

func (p pushSender) Reaches(ctx context.Context, q db.Querier, ownerID, appointmentID string) (bool, error) {
	return p.svc.Reaches(ctx, q, ownerID, appointmentID)
}

func (p pushSender) SubscribedClients(ctx context.Context, q db.Querier, ownerID string) (map[string]bool, error) {
	return p.svc.SubscribedClients(ctx, q, ownerID)
}

func (p pushSender) Notify(ctx context.Context, tx *db.Tx, n booking.PushNote) (bool, error) {
	m := push.Message{OwnerID: n.OwnerID, AppointmentID: n.AppointmentID, Kind: n.Kind, Key: n.Key, For: n.For, Title: n.Title, Body: n.Body, URL: n.URL, Until: n.Until}
	if n.Confirm != "" {
		m.Actions = append(m.Actions, push.Action{Action: "confirm", Title: "Confirmar", URL: n.Confirm})
	}
	if n.Cancel != "" {
		m.Actions = append(m.Actions, push.Action{Action: "cancel", Title: "Cancelar", URL: n.Cancel})
	}
	queued, err := p.svc.Queue(ctx, tx, m)
	return queued > 0, err
}

func (p pushSender) PushOffer(ctx context.Context, tx *db.Tx, o waitlist.PushedOffer) (bool, error) {
	queued, err := p.svc.Queue(ctx, tx, push.Message{OwnerID: o.OwnerID, ClientKey: o.ClientKey, Kind: "offer", Key: "offer/" + o.OfferID,
		Title: o.Title, Body: o.Body, URL: o.URL, Until: o.Until, Urgent: true})
	return queued > 0, err
}
