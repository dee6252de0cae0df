# Reelhouse: `make run` serves, `make test` runs every test, `make bench` prints ratios.
SWIFT ?= swift
DATA ?= ./data
PY := .venv/bin/python

.PHONY: run build install test e2e-postgres bench eval soak deps clean

# `make run PORT=9090 DATA=/srv/reels` (PORT and HOST are optional; the defaults are 8080 and 127.0.0.1)
run: deps
	$(SWIFT) build -c release --product reelhouse
	.build/release/reelhouse serve --data $(DATA) --demo $(if $(PORT),--port $(PORT)) $(if $(HOST),--host $(HOST))

# The test build leaves out debug information: ~10 % of the build's CPU time (a fresh build on
# 2 cores: 1,012 → 909 CPU-s). Swift Testing reports failures by source location without it;
# only a crash's backtrace loses its line numbers (`swift build --build-tests` keeps them).
TEST_BUILD := build --build-tests -debug-info-format none
build: deps
	$(SWIFT) $(TEST_BUILD)

# `make install PREFIX=/usr/local`: the binary to $(PREFIX)/bin, the web client beside it in
# $(PREFIX)/share/reelhouse/Web (where `serve` looks for it).
PREFIX ?= /usr/local
install: deps
	$(SWIFT) build -c release --product reelhouse
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/reelhouse
	install -m 0755 .build/release/reelhouse $(DESTDIR)$(PREFIX)/bin/reelhouse
	rm -rf $(DESTDIR)$(PREFIX)/share/reelhouse/Web && cp -R Web $(DESTDIR)$(PREFIX)/share/reelhouse/Web

deps:
	@scripts/ensure-deps.sh runtime

# Each suite's time is printed at the end; every suite runs even when an earlier one failed.
# After the build, scripts/test-suites.sh runs the suites one after another.
TIMINGS := $(CURDIR)/.build/test-timings.txt
test:
	@scripts/ensure-deps.sh test
	@mkdir -p .build && rm -f $(TIMINGS)
	@start=$$(date +%s); status=0; \
	REELHOUSE_TIMINGS=$(TIMINGS) scripts/timed.sh build $(SWIFT) $(TEST_BUILD) || exit 1; \
	REELHOUSE_TIMINGS=$(TIMINGS) SWIFT=$(SWIFT) E2E_POSTGRES="$(E2E_POSTGRES)" scripts/test-suites.sh || status=1; \
	echo "── suite timings ──"; cat $(TIMINGS); echo "total    $$(( $$(date +%s) - start )) s"; exit $$status

# The PostgreSQL pass: e2e files again with every library in PostgreSQL (a private
# PostgreSQL 15 cluster the tests start themselves, a fresh database per data folder:
# Tests/pykit/postgres.py). Only where the stores differ: every store operation already runs
# on both backends in ReelStoreContractTests' cases, so this pass keeps the server's own paths
# over PostgreSQL (API, stories, uploads and their jobs, `serve` on a database URL).
# Tests that read the SQLite file are marked sqlite_only and deselected. `make e2e-postgres
# E2E_POSTGRES=Tests/e2e` runs the whole suite on PostgreSQL.
E2E_POSTGRES := Tests/e2e/test_postgres_serve.py Tests/e2e/test_server.py Tests/e2e/test_stories_api.py \
	Tests/e2e/test_uploads.py Tests/e2e/test_upload_jobs.py
e2e-postgres:
	REELHOUSE_BIN=$${REELHOUSE_BIN:-$(CURDIR)/.build/debug/reelhouse} REELHOUSE_E2E_DATABASE=postgres $(PY) -m pytest -q $(E2E_POSTGRES)

bench:
	@scripts/ensure-deps.sh bench
	$(SWIFT) build -c release --product reelhouse
	REELHOUSE_BIN=$(CURDIR)/.build/release/reelhouse $(PY) scripts/bench_transcode.py
	REELHOUSE_BIN=$(CURDIR)/.build/release/reelhouse $(PY) scripts/bench_feed.py
	REELHOUSE_BIN=$(CURDIR)/.build/release/reelhouse $(PY) scripts/bench_foryou.py
	REELHOUSE_BIN=$(CURDIR)/.build/release/reelhouse $(PY) scripts/bench_search.py
	REELHOUSE_BIN=$(CURDIR)/.build/release/reelhouse $(PY) scripts/bench_swipe.py
	REELHOUSE_BIN=$(CURDIR)/.build/release/reelhouse $(PY) scripts/bench_stories.py
	REELHOUSE_BIN=$(CURDIR)/.build/release/reelhouse $(PY) scripts/bench_scaleout.py
	REELHOUSE_BIN=$(CURDIR)/.build/release/reelhouse $(PY) scripts/simulate_feed.py --large

# A day in an hour (outside CI): one tab swiping for 60 min with 2-minute token windows, a
# restart with a new secret halfway, an upload every 5 min (scripts/soak.py; SOAK_MINUTES=6
# for a short run).
soak:
	@scripts/ensure-deps.sh test
	$(SWIFT) build --product reelhouse
	REELHOUSE_BIN=$${REELHOUSE_BIN:-$(CURDIR)/.build/debug/reelhouse} $(PY) scripts/soak.py

# For You against random, most-popular and item-kNN on MovieLens-100k (fetched once into
# .cache/movielens/ from the recbole wheel on PyPI; never committed: its licence forbids it).
eval:
	@scripts/ensure-deps.sh runtime
	@scripts/fetch-movielens.sh > /dev/null
	$(SWIFT) build -c release --product reelhouse
	.build/release/reelhouse eval --movielens .cache/movielens/ml-100k.inter --split both

clean:
	rm -rf .build .venv
