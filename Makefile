# Reelhouse: `make run` serves, `make test` runs every test, `make bench` prints ratios.
SWIFT ?= swift
DATA ?= ./data
PY := .venv/bin/python

.PHONY: run build install test test-swift test-e2e e2e-postgres bench eval deps clean

# `make run PORT=9090 DATA=/srv/reels` (PORT and HOST are optional; the defaults are 8080 and 127.0.0.1)
run: deps
	$(SWIFT) build -c release --product reelhouse
	.build/release/reelhouse serve --data $(DATA) --demo $(if $(PORT),--port $(PORT)) $(if $(HOST),--host $(HOST))

build: deps
	$(SWIFT) build --build-tests

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
TIMINGS := $(CURDIR)/.build/test-timings.txt
test:
	@scripts/ensure-deps.sh test
	@mkdir -p .build && rm -f $(TIMINGS)
	@REELHOUSE_TIMINGS=$(TIMINGS) scripts/timed.sh build $(SWIFT) build --build-tests
	@status=0; \
	REELHOUSE_TIMINGS=$(TIMINGS) SWIFT=$(SWIFT) scripts/timed.sh swift scripts/swift-test.sh || status=1; \
	REELHOUSE_TIMINGS=$(TIMINGS) REELHOUSE_BIN=$(CURDIR)/.build/debug/reelhouse scripts/timed.sh e2e $(PY) -m pytest -q Tests/e2e --ignore=Tests/e2e/test_postgres_serve.py || status=1; \
	REELHOUSE_TIMINGS=$(TIMINGS) REELHOUSE_BIN=$(CURDIR)/.build/debug/reelhouse scripts/timed.sh e2e-pg $(E2E_POSTGRES_RUN) || status=1; \
	REELHOUSE_TIMINGS=$(TIMINGS) REELHOUSE_BIN=$(CURDIR)/.build/debug/reelhouse scripts/timed.sh web $(PY) -m pytest -q Tests/web || status=1; \
	REELHOUSE_TIMINGS=$(TIMINGS) REELHOUSE_BIN=$(CURDIR)/.build/debug/reelhouse scripts/timed.sh api $(PY) -m pytest -q Tests/api || status=1; \
	echo "── suite timings ──"; cat $(TIMINGS); exit $$status

# The e2e suite again with every library in PostgreSQL: a private PostgreSQL 15 cluster the
# tests start themselves, a fresh database per data folder (Tests/pykit/postgres.py). Tests that
# read the SQLite file itself are marked sqlite_only and skipped with their reason. Left out: the
# files whose servers bring their own store and touch no library here (SigV4 vectors, the nginx
# edge, the multi-node test: it runs on its own PostgreSQL in the e2e suite).
E2E_POSTGRES := Tests/e2e --ignore=Tests/e2e/test_sigv4_vectors.py --ignore=Tests/e2e/test_edge_nginx.py \
	--ignore=Tests/e2e/test_multi_node.py
E2E_POSTGRES_RUN = env REELHOUSE_E2E_DATABASE=postgres $(PY) -m pytest -q $(E2E_POSTGRES)
e2e-postgres:
	REELHOUSE_BIN=$${REELHOUSE_BIN:-$(CURDIR)/.build/debug/reelhouse} $(E2E_POSTGRES_RUN)

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

# For You against random, most-popular and item-kNN on MovieLens-100k (fetched once into
# .cache/movielens/ from the recbole wheel on PyPI; never committed: its licence forbids it).
eval:
	@scripts/ensure-deps.sh runtime
	@scripts/fetch-movielens.sh > /dev/null
	$(SWIFT) build -c release --product reelhouse
	.build/release/reelhouse eval --movielens .cache/movielens/ml-100k.inter --split both

clean:
	rm -rf .build .venv
