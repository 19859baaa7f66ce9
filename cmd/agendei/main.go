// Command agendei is the whole product: `agendei serve` runs the API, the web
// app and the background jobs; `agendei migrate` applies database migrations.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/redact"
	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/server"
	"github.com/agendei/agendei/web"
)

const usage = `Agendei — agendamento online.

Uso:
  agendei serve   [flags]   inicia o servidor (API, app web e tarefas)
  agendei migrate [flags]   aplica as migrações do banco de dados e sai
  agendei demo    [flags]   inicia com uma clínica de demonstração completa (em ./demo-data)
  agendei backup  [flags] ARQUIVO   copia o banco SQLite (com o servidor rodando) para ARQUIVO

Rode "agendei serve -h" para ver as opções (cada uma também lida de uma variável de ambiente).
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(ctx, os.Args[2:])
	case "migrate":
		err = migrate(ctx, os.Args[2:])
	case "demo":
		err = demo(ctx, os.Args[2:])
	case "backup":
		err = backup(ctx, os.Args[2:])
	case "-h", "--help", "help":
		fmt.Print(usage)
		return
	default:
		fmt.Fprintf(os.Stderr, "comando desconhecido %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		slog.Error("agendei", "err", err)
		os.Exit(1)
	}
}

func setup(ctx context.Context, name string, args []string) (*config.Config, *slog.Logger, *db.DB, error) {
	return setupEnv(ctx, name, args, os.Getenv)
}

// setupEnv is setup reading the environment through getenv (the demo's
// hides the variables that say where the database is).
func setupEnv(ctx context.Context, name string, args []string, getenv func(string) string, adjust ...func(*flag.FlagSet)) (*config.Config, *slog.Logger, *db.DB, error) {
	cfg, err := config.Parse(name, args, getenv, adjust...)
	if err != nil {
		return nil, nil, nil, err
	}
	log := newLogger(cfg)
	slog.SetDefault(log)
	d, err := db.Open(ctx, cfg.DataDir, cfg.DatabaseURL)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := d.Migrate(ctx, log); err != nil {
		d.Close()
		return nil, nil, nil, err
	}
	// The planner's statistics as of this start (SQLite has no autovacuum
	// to keep them); without them the process still serves, only slower.
	if err := d.Analyze(ctx); err != nil {
		log.Warn("planner statistics not refreshed", "err", err)
	}
	return cfg, log, d, nil
}

func migrate(ctx context.Context, args []string) error {
	_, log, d, err := setup(ctx, "agendei migrate", args)
	if err != nil {
		return err
	}
	defer d.Close()
	log.Info("database is up to date", "dialect", d.Dialect)
	return nil
}

// backup copies the SQLite database consistently while a server may be running.
func backup(ctx context.Context, args []string) error {
	var target string
	if n := len(args); n > 0 && !strings.HasPrefix(args[n-1], "-") {
		target, args = args[n-1], args[:n-1]
	}
	if target == "" {
		return errors.New("uso: agendei backup [flags] ARQUIVO")
	}
	_, log, d, err := setup(ctx, "agendei backup", args)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Backup(ctx, target); err != nil {
		return err
	}
	log.Info("backup written", "file", target)
	return nil
}

func serve(ctx context.Context, args []string) error {
	return run(ctx, "agendei serve", args, os.Getenv, markServed, nil)
}

// run serves until ctx ends. mark, before the server is built, marks the
// database as this command's and says whether it holds the demo (the app
// then shows a banner); prepare, when set, runs on the server before it
// listens (the demo fills its practice there).
func run(ctx context.Context, name string, args []string, getenv func(string) string,
	mark func(context.Context, *slog.Logger, *config.Config, *db.DB) (bool, error),
	prepare func(context.Context, *config.Config, *db.DB, *server.Server) error, adjust ...func(*flag.FlagSet)) error {
	cfg, log, d, err := setupEnv(ctx, name, args, getenv, adjust...)
	if err != nil {
		return err
	}
	benchSwitches(cfg.BenchDisable)
	defer d.Close()
	demo, err := mark(ctx, log, cfg, d)
	if err != nil {
		return err
	}
	if err := cfg.EnsureSecret(); err != nil {
		return fmt.Errorf("secret: %w", err)
	}
	srv, err := server.New(cfg, server.Deps{DB: d, Log: log, Web: web.Dist(), Demo: demo})
	if err != nil {
		return err
	}
	if prepare != nil {
		if err := prepare(ctx, cfg, d, srv); err != nil {
			return err
		}
	}
	bgCtx, stopBg := context.WithCancel(context.Background())
	srv.StartEvents(bgCtx)
	bgDone := make(chan struct{})
	go func() { srv.RunBackground(bgCtx); close(bgDone) }()

	hs := &http.Server{
		Addr:              cfg.Addr,
		Handler:           srv.Handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       120 * time.Second,
		// No WriteTimeout: live notifications stream for as long as a tab is open.
	}
	hs.RegisterOnShutdown(srv.Events.Close)
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		stopBg()
		return err
	}
	// With AGENDEI_METRICS_ADDR, /metrics is served there alone (e.g. on a
	// private interface), and the public address answers 404 for it.
	var ms *http.Server
	var mln net.Listener
	if cfg.MetricsAddr != "" {
		ms = &http.Server{Addr: cfg.MetricsAddr, Handler: metricsMux(srv.Metrics), ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second}
		if mln, err = net.Listen("tcp", cfg.MetricsAddr); err != nil {
			ln.Close()
			stopBg()
			return fmt.Errorf("metrics address: %w", err)
		}
	}
	log.Info("agendei is serving", "addr", ln.Addr().String(), "url", cfg.BaseURL, "dialect", d.Dialect, "data_dir", cfg.DataDir)
	errc := make(chan error, 2)
	go func() { errc <- hs.Serve(ln) }()
	if ms != nil {
		log.Info("metrics are served apart", "metrics_addr", mln.Addr().String())
		go func() { errc <- ms.Serve(mln) }()
	}
	select {
	case err := <-errc:
		stopBg()
		if ms != nil {
			ms.Close()
		}
		hs.Close()
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: finishing in-flight requests")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var merr error
	done := make(chan struct{})
	if ms != nil {
		go func() { merr = ms.Shutdown(shutdownCtx); close(done) }()
	} else {
		close(done)
	}
	err = hs.Shutdown(shutdownCtx)
	<-done
	stopBg()
	<-bgDone
	err = errors.Join(err, merr)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// metricsMux answers GET /metrics and 404 for anything else.
func metricsMux(metrics http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metrics)
	return mux
}

func newLogger(cfg *config.Config) *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		level = slog.LevelInfo
	}
	// Every line goes through redact.Attr: no code's log line — least of all
	// a provider's error quoting a recipient — carries a phone or an e-mail.
	opts := &slog.HandlerOptions{Level: level, ReplaceAttr: redact.Attr}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}

// benchSwitches turns off the speed mechanisms the benchmark names that
// live in package state rather than in what server.New builds (the
// answer and setup caches are turned off there).
func benchSwitches(off map[string]bool) {
	db.RebindCacheOff.Store(off["rebind-cache"])
	schedule.AwayByDayOff.Store(off["away-days"])
	booking.NearBufferOff.Store(off["near-buffer"])
}
