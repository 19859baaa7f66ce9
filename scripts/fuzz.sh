#!/usr/bin/env bash
# Runs every fuzz target (request decoders, the slot engine) for a bounded
# time each: FUZZTIME per target (default 3s). Their committed seed corpus
# (testdata/fuzz) also runs in every plain `go test`. A failure leaves the
# failing input in the package's testdata/fuzz, to commit with the fix.
set -euo pipefail
fuzztime=${FUZZTIME:-3s}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
count=0
for dir in $(grep -rl --include='*_test.go' '^func Fuzz' cmd internal | xargs -n1 dirname | sort -u); do
  for fn in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go | cut -d' ' -f2); do
    if ! go test -run '^$' -fuzz "^${fn}\$" -fuzztime "$fuzztime" -fuzzminimizetime 20x -parallel 2 "./$dir" >"$log" 2>&1; then
      cat "$log"
      echo "fuzz: $fn in ./$dir failed" >&2
      exit 1
    fi
    count=$((count + 1))
  done
done
echo "fuzz: $count targets, $fuzztime each, no failure"
