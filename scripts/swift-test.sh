#!/usr/bin/env bash
# Runs the built Swift tests. On failure the failing lines are printed again at the very end:
# a CI log is often read from its tail, where Swift Testing only says "failed with 1 issue".
#
# The tests run with a temp folder of their own (TMPDIR), deleted when they end: a test server's
# library, a staged upload kept for a retry, a test's clip — whatever a test leaves behind, and
# whatever a crashed run could not clean, does not pile up in /tmp run after run. Mode 1777 as
# /tmp's: the PostgreSQL tests run their server as the postgres account.
set -uo pipefail
log="$(mktemp)"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/reel-swift-tests.XXXXXX")"
chmod 1777 "$scratch"
trap 'rm -f "$log"; rm -rf "$scratch"' EXIT
TMPDIR="$scratch" "${SWIFT:-swift}" test --skip-build 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo "── Swift test failures (repeated from above) ──"
  grep -E "✘|error:|↳" "$log" | head -60
fi
exit "$status"
