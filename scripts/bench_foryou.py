#!/usr/bin/env python3
"""For You benchmark (issue 16): a synthetic library of 100k posts, 10k users and 1M watch
events (with their aggregates and the neighbour table, written by `reelhouse bench-seed`), then
wrk on loopback measures `GET /api/v1/feed?mode=for_you` p50/p99 with every request by another
user, against the same server's shuffled feed (`mode=shuffle`, the in-process baseline), and
the event ingest rate (`POST /api/v1/events`, batches of 100 spread over many users, whose
rate limit is 1,200 events a minute each). Prints figures and ratios; asserts nothing.
Goals from the issue: For You p99 ≤ 50 ms; ingest ≥ 2,000 events/s."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_feed import free_port, wait_http  # noqa: E402
from pykit.wrk import run as wrk_run  # noqa: E402

BIN = os.environ.get("REELHOUSE_BIN", ".build/release/reelhouse")
POSTS = int(os.environ.get("BENCH_FORYOU_POSTS", "100000"))
USERS = int(os.environ.get("BENCH_FORYOU_USERS", "10000"))
EVENTS = int(os.environ.get("BENCH_FORYOU_EVENTS", "1000000"))
KEYS = int(os.environ.get("BENCH_FORYOU_KEYS", "2000"))
DURATION = os.environ.get("BENCH_WRK_SECONDS", "10")
CONNECTIONS = os.environ.get("BENCH_FORYOU_CONNECTIONS", "4")

# Each request by the next user in turn; each wrk thread starts at its own place in the list.
ROTATE_KEYS = r"""
local keys = {}
for line in io.lines(os.getenv("BENCH_KEYS_FILE")) do if #line > 0 then keys[#keys + 1] = line end end
local threads = 0
function setup(thread) threads = threads + 1; thread:set("tid", threads) end
function init(args) i = (tid or 1) * 7919 end
function request()
  i = i + 1
  return wrk.format(nil, nil, {["api-key"] = keys[(i % #keys) + 1]})
end
"""

# A batch of 100 events (impressions, views, skips) about random posts, by the next user.
EVENT_BATCHES = ROTATE_KEYS.replace("function request()", "function request_unused()") + r"""
math.randomseed(os.time() + (tid or 1))
local maxPost = tonumber(os.getenv("BENCH_MAX_POST"))
local function uuid()
  return string.format("%08x-%04x-4%03x-%04x-%06x%06x", math.random(0, 0x7fffffff), math.random(0, 0xffff),
    math.random(0, 0xfff), 0x8000 + math.random(0, 0x3fff), math.random(0, 0xffffff), math.random(0, 0xffffff))
end
function request()
  i = i + 1
  local at = os.date("!%Y-%m-%dT%H:%M:%S.000Z")
  local events = {}
  for n = 1, 100 do
    local post = math.random(1, maxPost)
    local kind = math.random(1, 3)
    local extra = ""
    local name = "impression"
    if kind == 2 then name = "view"; extra = ',"watched_ms":9000,"duration_ms":12500,"loops":0'
    elseif kind == 3 then name = "skip"; extra = ',"watched_ms":800' end
    events[n] = string.format('{"event_id":"%s","type":"%s","post_id":%d,"at":"%s"%s}', uuid(), name, post, at, extra)
  end
  local body = '{"events":[' .. table.concat(events, ",") .. ']}'
  return wrk.format("POST", nil, {["api-key"] = keys[(i % #keys) + 1], ["content-type"] = "application/json"}, body)
end
"""


def wrk(url: str, script: Path, env: dict, duration: str = DURATION) -> dict:
    return wrk_run(url, connections=CONNECTIONS, seconds=duration, script=script, env=env)


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="reel-foryou-bench-"))
    data = work / "data"
    keys_file = work / "keys.txt"
    print(f"For You benchmark: {POSTS} posts, {USERS} users, {EVENTS} events; wrk -t2 -c{CONNECTIONS} -d{DURATION}s, "
          f"{os.cpu_count()} cores", flush=True)
    try:
        started = time.monotonic()
        seed = subprocess.run([BIN, "bench-seed", "--data", str(data), "--count", str(POSTS), "--users", str(USERS),
                               "--events", str(EVENTS), "--keys", str(KEYS), "--keys-file", str(keys_file)],
                              capture_output=True, text=True, check=True)
        print(f"  seeded in {time.monotonic() - started:.1f} s: " + " / ".join(seed.stderr.strip().splitlines()), flush=True)
        port = free_port()
        env = {**os.environ, "REELHOUSE_API_REQUESTS_PER_MINUTE": "1000000000", "REELHOUSE_WORKER": "0",
               "REELHOUSE_COMPAT_ROUTES": "0"}
        server = subprocess.Popen([BIN, "serve", "--data", str(data), "--port", str(port), "--bcrypt-cost", "4"],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            first_key = keys_file.read_text().split()[0]
            page = json.loads(wait_http(base + "/api/v1/feed?mode=for_you&limit=10", {"api-key": first_key}, timeout=120))
            kinds = {}
            for item in page["items"]:
                kinds[item.get("reason_kind")] = kinds.get(item.get("reason_kind"), 0) + 1
            print(f"  a For You page: {len(page['items'])} items, reasons {kinds}", flush=True)
            rotate = work / "rotate.lua"
            rotate.write_text(ROTATE_KEYS)
            wrk_env = {"BENCH_KEYS_FILE": str(keys_file)}
            wrk(base + "/api/v1/feed?mode=shuffle&limit=10", rotate, wrk_env, "3")  # warm the caches
            for_you = wrk(base + "/api/v1/feed?mode=for_you&limit=10", rotate, wrk_env)
            shuffle = wrk(base + "/api/v1/feed?mode=shuffle&limit=10", rotate, wrk_env)
            for label, r in [("for_you", for_you), ("shuffle", shuffle)]:
                print(f"  {label:<8} p50 {r['p50']:7.2f} ms  p99 {r['p99']:7.2f} ms  {r['rps']:8.0f} req/s"
                      + (f"  ({r['non2xx']} non-2xx)" if r["non2xx"] else ""), flush=True)
            print(f"  for_you p99 ÷ shuffle p99 = {for_you['p99'] / shuffle['p99']:.2f}   (goal: for_you p99 ≤ 50 ms)", flush=True)

            probe = urllib.request.Request(base + "/api/v1/events", data=b'{"events":[]}', method="POST",
                                           headers={"api-key": first_key, "content-type": "application/json"})
            try:
                urllib.request.urlopen(probe, timeout=10).read()
                available = True
            except urllib.error.HTTPError as error:
                available = error.code != 404
            if not available:
                print("  event ingest: POST /api/v1/events is not in this build", flush=True)
            else:
                batches = work / "events.lua"
                batches.write_text(EVENT_BATCHES)
                ingest = wrk(base + "/api/v1/events", batches, {**wrk_env, "BENCH_MAX_POST": str(POSTS)})
                stored = (ingest["requests"] - ingest["non2xx"]) * 100 / ingest["seconds"]
                print(f"  ingest   p50 {ingest['p50']:7.2f} ms  p99 {ingest['p99']:7.2f} ms  {ingest['rps']:8.0f} batches/s  "
                      f"{stored:9.0f} events/s accepted" + (f"  ({ingest['non2xx']} non-2xx)" if ingest["non2xx"] else "")
                      + "   (goal ≥ 2,000 events/s)", flush=True)
        finally:
            server.terminate()
            server.wait(timeout=30)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
