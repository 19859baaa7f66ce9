#!/usr/bin/env bash
# Runs "$@" with a throwaway PostgreSQL cluster under a temp dir, exporting
# AGENDEI_TEST_DATABASE_URL for the Go tests; stops and removes it afterwards.
# PostgreSQL refuses to initdb as root, so as root the cluster runs as 'postgres'.
set -euo pipefail

pgbin=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)}
if [ -z "$pgbin" ] || [ ! -x "$pgbin/initdb" ] || [ ! -x "$pgbin/pg_ctl" ]; then
  echo "PostgreSQL server binaries (initdb, pg_ctl) not found." >&2
  echo "Install them with:  apt-get install -y postgresql   (Debian package 'postgresql', version 15 tested)" >&2
  exit 1
fi

dir=$(mktemp -d /tmp/agendei-pg.XXXXXX)
as_owner() { "$@"; }
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  chown postgres "$dir"
  as_owner() { runuser -u postgres -- "$@"; }
fi
cleanup() {
  as_owner "$pgbin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

as_owner "$pgbin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; exit 1; }

started=
for _ in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 20000))
  # fsync=off and friends: a throwaway test cluster only, never the product's defaults.
  if as_owner "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
    start >/dev/null 2>&1; then
    started=1
    break
  fi
done
[ -n "$started" ] || { echo "could not start PostgreSQL:" >&2; cat "$dir/log" >&2; exit 1; }

export AGENDEI_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
export AGENDEI_TEST_PG_CTL="$pgbin/pg_ctl"
export AGENDEI_TEST_PG_DATA="$dir/data"
# Lives as long as this run: the Go tests share their migrated SQLite snapshot through it (dbtest).
mkdir "$dir/shared"
export AGENDEI_TEST_SHARED_DIR="$dir/shared"
echo "PostgreSQL test cluster on 127.0.0.1:$port ($dir)" >&2
"$@"
