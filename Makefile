# Reelhouse: `make run` serves, `make test` runs every test, `make bench` prints ratios.
SWIFT ?= swift
DATA ?= ./data
PY := .venv/bin/python

.PHONY: run build test test-swift test-e2e bench deps clean

run: deps
	$(SWIFT) build -c release --product reelhouse
	.build/release/reelhouse serve --data $(DATA) --demo

build: deps
	$(SWIFT) build --build-tests

deps:
	@scripts/ensure-deps.sh runtime

test:
	@scripts/ensure-deps.sh test
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) scripts/swift-test.sh
	REELHOUSE_BIN=$(CURDIR)/.build/debug/reelhouse $(PY) -m pytest -q Tests/e2e
	REELHOUSE_BIN=$(CURDIR)/.build/debug/reelhouse $(PY) -m pytest -q Tests/web

bench:
	@scripts/ensure-deps.sh bench
	$(SWIFT) build -c release --product reelhouse
	REELHOUSE_BIN=$(CURDIR)/.build/release/reelhouse $(PY) scripts/bench_transcode.py
	REELHOUSE_BIN=$(CURDIR)/.build/release/reelhouse $(PY) scripts/bench_feed.py
	REELHOUSE_BIN=$(CURDIR)/.build/release/reelhouse $(PY) scripts/bench_swipe.py

clean:
	rm -rf .build .venv
