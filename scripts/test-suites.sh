#!/usr/bin/env bash
# Runs the built test suites (`make test`): the Swift suite alone first (it runs its own tests
# in parallel and holds timing checks that a second lane's load would starve), then two lanes
# at once: e2e and api in one, the browser suite and the PostgreSQL pass in the other. Much of
# those suites' time is waiting (on ffmpeg, a throttled link, a player's buffer). Each suite writes its own
# log (.build/test-logs/NAME.log), printed whole when the suite ends so the lanes never
# interleave; every suite runs even when another failed; the timing table comes last.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=.build/test-logs
mkdir -p "$logs"
export REELHOUSE_TIMINGS="${REELHOUSE_TIMINGS:-$PWD/.build/test-timings.txt}"
export REELHOUSE_BIN="${REELHOUSE_BIN:-$PWD/.build/debug/reelhouse}"
PY=.venv/bin/python

suite() {  # suite NAME COMMAND…
  local name="$1"; shift
  scripts/timed.sh "$name" "$@" > "$logs/$name.log" 2>&1
  local status=$?
  {
    flock 9
    echo "══════ $name ($( [ "$status" -eq 0 ] && echo ok || echo "FAILED: $status" )) ══════"
    cat "$logs/$name.log"
  } 9> "$logs/.print-lock"
  return "$status"
}

lane_core() {
  local status=0
  suite e2e $PY -m pytest -q --durations=8 Tests/e2e --ignore=Tests/e2e/test_postgres_serve.py || status=1
  suite api $PY -m pytest -q Tests/api || status=1
  return "$status"
}

lane_browser() {
  local status=0
  suite web $PY -m pytest -q --durations=10 Tests/web || status=1
  # shellcheck disable=SC2086  # E2E_POSTGRES is a list of files (the Makefile's)
  suite e2e-pg env REELHOUSE_E2E_DATABASE=postgres $PY -m pytest -q --durations=5 $E2E_POSTGRES || status=1
  return "$status"
}

status=0
suite swift scripts/swift-test.sh || status=1
lane_core & core=$!
lane_browser & browser=$!
wait "$core" || status=1
wait "$browser" || status=1
exit "$status"
