#!/usr/bin/env bash
# Runs the built Swift tests. On failure the failing lines are printed again at the very end:
# a CI log is often read from its tail, where Swift Testing only says "failed with 1 issue".
set -uo pipefail
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
"${SWIFT:-swift}" test --skip-build 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo "── Swift test failures (repeated from above) ──"
  grep -E "✘|error:|↳" "$log" | head -60
fi
exit "$status"
