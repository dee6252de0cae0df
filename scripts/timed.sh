#!/usr/bin/env bash
# Usage: scripts/timed.sh NAME COMMAND… — runs one test suite and appends "NAME  SECONDS  status"
# to the timing table that `make test` prints at its end (CI logs are read from the tail).
set -uo pipefail
name="$1"; shift
table="${REELHOUSE_TIMINGS:-.build/test-timings.txt}"
mkdir -p "$(dirname "$table")"
start=$(date +%s)
"$@"
status=$?
elapsed=$(( $(date +%s) - start ))
result=$([ "$status" -eq 0 ] && echo ok || echo "FAILED ($status)")
printf '%-8s %5d s  %s\n' "$name" "$elapsed" "$result" >> "$table"
exit "$status"
