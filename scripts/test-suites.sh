#!/usr/bin/env bash
# Runs the built test suites one after another (`make test`), every suite even when an earlier
# one failed, each suite's output also kept in .build/test-logs/NAME.log.
#
# Suites side by side were tried (Swift with e2e, the browser suite with the rest): the
# timing checks of the Swift, browser and API suites starved and failed. So was the rest
# beside the browser suite at the lowest priority (nice 19, in a session whose autogroup was
# at 19: Playwright starts Chromium in a session of its own, and nice alone weighs only within
# a session): the browser suite still slowed from 1,008 to 1,245 s, the rest took 1,366 s
# beside it (against ~580 alone), a browser test timed out, and the whole saved ~210 s. Inside the e2e
# suites, though, a test waits much of its time on a server's start or a restart, so
# pytest-xdist runs their files on REELHOUSE_TEST_WORKERS workers (default: one per core), a
# file's tests on one worker (`--dist loadfile`: module fixtures are built once). The browser
# suite stays on one worker: on two (920-945 s against ~1,160) its recording-length and
# event-order checks starved and failed in 2 of 2 fresh-clone runs. Its shared libraries are
# built once for all workers all the same (Tests/web/conftest.py's built_once), for a
# machine with more cores: `REELHOUSE_WEB_WORKERS=N`.
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

status=0
# The iPhone app: every file parses and no view does I/O (nothing here can type-check SwiftUI).
suite ios scripts/check-ios-app.sh || status=1
suite swift scripts/swift-test.sh || status=1
suite e2e $PY -m pytest -q "${WORKERS[@]}" --durations=8 Tests/e2e --ignore=Tests/e2e/test_postgres_serve.py || status=1
# shellcheck disable=SC2086  # E2E_POSTGRES is a list of files (the Makefile's)
suite e2e-pg env REELHOUSE_E2E_DATABASE=postgres $PY -m pytest -q "${WORKERS[@]}" --durations=5 ${E2E_POSTGRES:?the Makefile names the files of the PostgreSQL pass} || status=1
suite web $PY -m pytest -q -n "${REELHOUSE_WEB_WORKERS:-0}" --dist loadfile --durations=10 Tests/web || status=1
suite api $PY -m pytest -q Tests/api || status=1
exit "$status"
