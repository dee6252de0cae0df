#!/usr/bin/env bash
# Puts MovieLens-100k's interaction file in .cache/movielens/ and prints its path.
# The data comes from the recbole==1.2.1 wheel on PyPI (its dataset_example folder); MovieLens'
# licence forbids redistribution, so it is fetched here at eval time and never committed.
# Downloads only when the file is not there yet.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.cache/movielens
inter="$dir/ml-100k.inter"
if [ ! -s "$inter" ]; then
  # pip from the project's virtualenv (made as `make test` makes it), unless PYTHON names one.
  py="${PYTHON:-.venv/bin/python}"
  if [ -z "${PYTHON:-}" ] && [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
  mkdir -p "$dir"
  wheel="$(ls "$dir"/recbole-1.2.1-*.whl 2>/dev/null | head -n 1 || true)"
  if [ -z "$wheel" ]; then
    echo "downloading recbole==1.2.1 (for MovieLens-100k) into $dir" >&2
    "$py" -m pip download --quiet --no-deps --dest "$dir" recbole==1.2.1 >&2
    wheel="$(ls "$dir"/recbole-1.2.1-*.whl | head -n 1)"
  fi
  # A wheel is a zip archive; Python reads it where unzip is not installed.
  "$py" - "$wheel" "$inter" <<'PY'
import os, sys, zipfile
wheel, target = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as archive:
    data = archive.read("recbole/dataset_example/ml-100k/ml-100k.inter")
tmp = target + ".part"
with open(tmp, "wb") as out:
    out.write(data)
os.replace(tmp, target)  # never a half-written file under the real name
PY
fi
echo "$inter"
