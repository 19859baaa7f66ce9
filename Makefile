# Agendei — the two commands a newcomer needs are `make run` and `make test`.
# Everything they need is installed by the targets themselves (npm packages,
# Go modules); .ci/run also installs the Debian packages (chromium, postgresql, radicale).

GO      ?= go
NPM     ?= npm
ADDR    ?= $(or $(AGENDEI_ADDR),:8080)
WEB_SRC := $(shell find web/src web/publicroutes web/index.html web/agende.html web/public web/scripts web/vite.config.ts web/vite.agende.config.ts web/agende-aliases.ts web/tsconfig*.json -type f 2>/dev/null)
GO_SRC  := $(shell find cmd internal web/embed.go web/publicroutes -name '*.go' -o -name '*.sql' -o -name '*.html' -o -name '*.txt' 2>/dev/null)

.PHONY: run demo demo-reset build deps web test test-go test-fuzz test-web test-e2e lint fmt bench audit clean

## run: install what is needed, build, and start on http://localhost:8080 with everything in ./data
run: build
	./bin/agendei serve --addr $(ADDR)

## demo: the same, with a demo practice in ./demo-data (the login and URLs are printed; the server's
## log goes to demo-data/agendei.log unless LOG=1)
demo: build
	@mkdir -p demo-data
	@$(if $(LOG),,echo "Server log: demo-data/agendei.log (make demo LOG=1 prints it here).")
	./bin/agendei demo --addr $(ADDR) $(if $(LOG),,2>>demo-data/agendei.log)

## demo-reset: forget the demo practice; the next make demo seeds a fresh one
demo-reset:
	rm -rf demo-data

## build: the binary at bin/agendei with the web app embedded
build: bin/agendei

bin/agendei: web/dist/index.html $(GO_SRC) go.mod go.sum
	$(GO) mod download
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags='-s -w' -o bin/agendei ./cmd/agendei

deps: web/node_modules/.installed
	$(GO) mod download

# `npm ci` installs exactly what the lockfile pins and never rewrites it. The
# lockfile lists every platform's optional builds (e.g. @tailwindcss/oxide-*),
# so it is the same whichever machine resolved it; a lockfile that lacked them
# was what made `npm ci` fail and `npm install` rewrite it on every build.
web/node_modules/.installed: web/package.json web/package-lock.json
	cd web && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $@

web: web/dist/index.html

web/dist/index.html: web/node_modules/.installed $(WEB_SRC)
	cd web && $(NPM) run build

## test: every test — Go (race detector) on SQLite and a throwaway PostgreSQL, web unit tests, browser end-to-end
test: lint test-go test-fuzz test-web test-e2e

lint: web/node_modules/.installed web/dist/index.html
	@out=$$(gofmt -l cmd internal web/embed.go web/publicroutes); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	cd web && $(NPM) run typecheck && $(NPM) run lint
	cd web && node scripts/budget.mjs
	@cd web && npx openapi-typescript ../api/openapi.yaml -o node_modules/.schema-check.d.ts >/dev/null 2>&1 && \
	  cmp -s node_modules/.schema-check.d.ts src/lib/api/schema.d.ts || \
	  { echo "web/src/lib/api/schema.d.ts is out of date with api/openapi.yaml: run 'cd web && npm run gen:api'"; exit 1; }

# stripe-mock is Stripe's API double, for the billing tests (installed from the Go module proxy).
STRIPE_MOCK := github.com/stripe/stripe-mock@v0.203.0

test-go: web/dist/index.html
	$(GO) install $(STRIPE_MOCK)
	# -timeout: a package's limit, not a speed goal — the largest (agenda, booking) take a few minutes on 2
	# quiet cores and went past go test's default 10 minutes on a machine busy with other work.
	scripts/with-postgres.sh $(GO) test -race -count=1 -timeout 30m ./...

# Every fuzz target (request decoders, slot engine, booking dates on both engines) for FUZZTIME each.
test-fuzz: web/dist/index.html
	FUZZTIME=$${FUZZTIME:-2s} scripts/with-postgres.sh scripts/fuzz.sh

test-web: web/node_modules/.installed
	cd web && $(NPM) test

test-e2e: build
	cd web && $(NPM) run e2e

fmt:
	gofmt -w cmd internal web/embed.go web/publicroutes

clean:
	rm -rf bin web/dist web/node_modules/.installed

## audit: Lighthouse (mobile) on the public booking page and its form; fails below 95 for performance or accessibility
audit: build
	scripts/audit.sh

## bench: load benchmarks (not part of make test): agendei serve with 1,000 owners and 100,000 appointments,
## driven over loopback with vegeta beside a trivial JSON baseline, on SQLite and PostgreSQL; then Go micro-benchmarks;
## then the web agenda's script time for a 10-column day of 120 appointments (web/bench: phone 4x throttled and desktop, printed, never failing)
bench: build
	scripts/with-postgres.sh $(GO) run ./cmd/agendei-bench -bin bin/agendei
	scripts/with-postgres.sh $(GO) test -run '^$$' -bench . -benchtime 50x -count 1 ./internal/...
	cd web && E2E_PORT=$${BENCH_E2E_PORT:-18961} npx playwright test -c playwright.bench.config.ts
