#!/usr/bin/env bash
# `make audit`: starts the built agendei on a throwaway data dir and runs
# Lighthouse (web/scripts/audit.mjs) on the public booking pages.
set -euo pipefail
dir=$(mktemp -d /tmp/agendei-audit.XXXXXX)
port=${AUDIT_PORT:-18932}
./bin/agendei serve --addr 127.0.0.1:$port --data-dir "$dir" --base-url http://127.0.0.1:$port --log-level warn &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do curl -fs http://127.0.0.1:$port/readyz >/dev/null && break; sleep 0.1; done
cd web && AUDIT_BASE_URL=http://127.0.0.1:$port node scripts/audit.mjs
