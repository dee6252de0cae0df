#!/usr/bin/env python3
"""Search API benchmark: the bench libraries of 100k and 1M posts (`reelhouse bench-seed`, as
scripts/bench_feed.py makes them); wrk on loopback measures p50/p99 latency of
`GET /api/v1/search` for each kind of query — broad (a word in every post), rare words,
substrings, tags — and for all of them mixed. Prints figures and p99(1M) ÷ p99(100k); asserts
nothing. Goal from issue 14: p99 of the mix ≤ 50 ms at 1M posts on this machine.

BENCH_SEARCH_SIZES picks the sizes; BENCH_SEARCH_KEEP=DIR keeps (and reuses) the seeded
libraries in DIR, since seeding 1M posts takes minutes."""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_feed import free_port, wait_http  # noqa: E402
from pykit.wrk import run as wrk_run  # noqa: E402

BIN = os.environ.get("REELHOUSE_BIN", ".build/release/reelhouse")
SIZES = [int(x) for x in os.environ.get("BENCH_SEARCH_SIZES", "100000,1000000").split(",")]
DURATION = os.environ.get("BENCH_WRK_SECONDS", "6")
# One request at a time: the figure is a search's own latency. With several connections a
# 2-core machine is saturated and p99 measures the queue, not the search.
CONNECTIONS = "1"


def queries(size: int) -> dict[str, list[str]]:
    """Queries over the synthetic posts: "Synthetic clip N #topicK", uploader "Uploader N",
    username "userN", shortcode "sN", tags topic0…topic499 (a few common, most rare)."""
    return {
        "broad": ["synthetic", "clip", "uploader", "synthetic clip", "SYNTHETIC Clip"],
        "rare": [f"s{size // 3}", f"s{size - 17}", f"clip {size // 7}", "user996 s12", "zzzz nothing"],
        "substring": ["ynthet", "ploade", "opic49", f"{size // 11}"[-4:], "lip 9"],
        "tag": ["tag:topic3", "tag:topic250", "tag:topic499 -tag:topic0", "topic42", "synthetic tag:topic7"],
    }


LUA = """
local paths = {%s}
local i = 0
request = function()
  i = i %% #paths + 1
  return wrk.format("GET", paths[i])
end
"""


def wrk(base: str, key: str, paths: list[str], work: Path) -> dict:
    script = work / "paths.lua"
    script.write_text(LUA % ", ".join('"%s"' % p for p in paths))
    return wrk_run(base, connections=CONNECTIONS, seconds=DURATION, threads=1, headers={"api-key": key}, script=script)


def seed(data: Path, size: int) -> str:
    key_file = data / "bench-api-key"
    if key_file.exists():
        return key_file.read_text().strip()
    started = time.monotonic()
    key = subprocess.run([BIN, "bench-seed", "--data", str(data), "--count", str(size)],
                         capture_output=True, text=True, check=True).stdout.strip()
    key_file.write_text(key)
    print(f"  seeded {size:>8} posts in {time.monotonic() - started:6.1f} s", flush=True)
    return key


def main() -> int:
    keep = os.environ.get("BENCH_SEARCH_KEEP")
    work = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="reel-search-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    mixes = {}
    print(f"search benchmark: wrk -t1 -c{CONNECTIONS} -d{DURATION}s on loopback, {os.cpu_count()} cores", flush=True)
    try:
        for size in SIZES:
            data = work / f"data-{size}"
            key = seed(data, size)
            port = free_port()
            env = {**os.environ, "REELHOUSE_API_REQUESTS_PER_MINUTE": "1000000000", "REELHOUSE_WORKER": "0",
                   "REELHOUSE_COMPAT_ROUTES": "0"}
            server = subprocess.Popen([BIN, "serve", "--data", str(data), "--port", str(port), "--bcrypt-cost", "4"],
                                      env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                base = f"http://127.0.0.1:{port}"
                wait_http(base + "/api/v1/search?q=clip&limit=24", {"api-key": key})
                kinds = queries(size)
                paths = {kind: ["/api/v1/search?limit=24&q=" + urllib.parse.quote(q) for q in qs] for kind, qs in kinds.items()}
                for kind, kind_paths in paths.items():
                    r = wrk(base, key, kind_paths, work)
                    print(f"  {size:>8}  {kind:<10} p50 {r['p50']:8.2f} ms  p99 {r['p99']:8.2f} ms  {r['rps']:8.0f} req/s"
                          + (f"  ({r['non2xx']} non-2xx)" if r["non2xx"] else ""), flush=True)
                mix = wrk(base, key, [p for kind_paths in paths.values() for p in kind_paths], work)
                mixes[size] = mix
                print(f"  {size:>8}  {'mix':<10} p50 {mix['p50']:8.2f} ms  p99 {mix['p99']:8.2f} ms  {mix['rps']:8.0f} req/s"
                      + (f"  ({mix['non2xx']} non-2xx)" if mix["non2xx"] else ""), flush=True)
            finally:
                server.terminate()
                server.wait(timeout=30)
        if 100000 in mixes and 1000000 in mixes:
            print(f"  search p99(1M) ÷ p99(100k) = {mixes[1000000]['p99'] / mixes[100000]['p99']:.2f}   "
                  f"(goal: p99 ≤ 50 ms at 1M; it is {mixes[1000000]['p99']:.1f} ms)")
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
