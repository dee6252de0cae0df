#!/usr/bin/env bash
# Runs the built test suites (`make test`), every suite even when another failed, each suite's
# output also kept in .build/test-logs/NAME.log.
#
# The browser suite keeps only ~1.2 of the 2 cores busy: most of its time is real-time
# playback and waiting on its servers. So the e2e suites and the API suite run beside it, one
# after another, at the lowest CPU priority: they take the CPU it leaves idle and yield it the
# moment the browser suite wants it, so its timing checks (a recording's length, the order of
# events) see the machine they see alone. Side by side at equal priority, as tried before,
# those checks starved and failed; so did the Swift suite's, which runs alone first. The e2e suites run their files on REELHOUSE_TEST_WORKERS pytest-xdist workers (default:
# one per core), a file's tests on one worker (`--dist loadfile`: module fixtures are built
# once). The browser suite stays on one worker: on two (920-945 s against ~1,160, with the
# full browser) its recording-length and event-order checks starved and failed in 2 of 2
# fresh-clone runs. Its shared libraries are built once for all workers all the same
# (Tests/web/conftest.py's built_once), for a machine with more cores: `REELHOUSE_WEB_WORKERS=N`.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=.build/test-logs
mkdir -p "$logs"
export REELHOUSE_TIMINGS="${REELHOUSE_TIMINGS:-$PWD/.build/test-timings.txt}"
export REELHOUSE_BIN="${REELHOUSE_BIN:-$PWD/.build/debug/reelhouse}"
PY=.venv/bin/python
WORKERS=(-n "${REELHOUSE_TEST_WORKERS:-$(nproc)}" --dist loadfile)

suite() {  # suite NAME COMMAND…
  local name="$1"; shift
  echo "══════ $name ══════"
  scripts/timed.sh "$name" "$@" 2>&1 | tee "$logs/$name.log"
  return "${PIPESTATUS[0]}"
}

# The suites beside the browser suite: this script again, in a session of its own (setsid)
# whose autogroup gets the lowest priority too. Where the kernel groups each session's
# processes (sched_autogroup, Debian's default), a process's nice only weighs against its own
# session's, and Playwright starts Chromium in a session of its own: nice 19 alone left the
# two sessions half the CPU each, and the browser suite starved.
beside() {  # beside NAME COMMAND…: output kept in its log and printed after the browser suite
  local name="$1"; shift
  scripts/timed.sh "$name" "$@" > "$logs/$name.log" 2>&1
}
if [ "${1:-}" = "--beside-web" ]; then
  [ -w /proc/self/autogroup ] && echo 19 > /proc/self/autogroup
  failed=0
  beside e2e $PY -m pytest -q "${WORKERS[@]}" --durations=8 Tests/e2e --ignore=Tests/e2e/test_postgres_serve.py || failed=1
  # shellcheck disable=SC2086  # E2E_POSTGRES is a list of files (the Makefile's)
  beside e2e-pg env REELHOUSE_E2E_DATABASE=postgres $PY -m pytest -q "${WORKERS[@]}" --durations=5 ${E2E_POSTGRES:?the Makefile names the files of the PostgreSQL pass} || failed=1
  beside api $PY -m pytest -q Tests/api || failed=1
  exit "$failed"
fi

status=0
# The iPhone app: every file parses and no view does I/O (nothing here can type-check SwiftUI).
suite ios scripts/check-ios-app.sh || status=1
suite swift scripts/swift-test.sh || status=1
setsid --wait nice -n 19 scripts/test-suites.sh --beside-web &
others=$!
# In a session of its own it hears no Ctrl-C from the terminal: pass it on.
trap 'kill -TERM -- -"$others" 2>/dev/null; exit 130' INT TERM
suite web $PY -m pytest -q -n "${REELHOUSE_WEB_WORKERS:-0}" --dist loadfile --durations=10 Tests/web || status=1
wait "$others" || status=1
for name in e2e e2e-pg api; do
  echo "══════ $name (ran beside web) ══════"
  cat "$logs/$name.log"
done
exit "$status"
