#!/usr/bin/env python3
"""Scale-out load benchmark (issue 17): the multi-node topology on 127.0.0.1 under load.

1. Mixed load: nginx (the config `reelhouse edge nginx` prints, S3 mode: bytes from the API
   nodes through nginx's cache) in front of two `serve --role api` nodes on one PostgreSQL and
   one SeaweedFS bucket; wrk with CONNECTIONS connections for DURATION seconds cycling through
   feed pages, video answers, master and variant playlists, segments and keys. Prints req/s,
   errors and each node's RSS.
2. Segments through the edge ÷ nginx serving the same file from disk (goal ≥ 0.9).
3. Feed p99 on PostgreSQL at the largest size ÷ at the smallest (goal ≤ 1.5): `bench-seed` builds a
   SQLite library, `migrate-store --to` copies it into a fresh database, one API node serves it.
4. Faults under load (issue 28.5), the e2e tests that cause them, run here for their figures:
   one of two API nodes SIGKILLed behind nginx under 256 connections (failed share, goal ≤ 0.5 %),
   PostgreSQL restarted under load (seconds to heal, goal ≤ 5; answers by status), SeaweedFS
   restarted mid-upload (how long the resumed upload took).

Prints figures and ratios; asserts nothing. Environment: REELHOUSE_BIN, BENCH_SCALEOUT_SECONDS
(60), BENCH_SCALEOUT_CONNECTIONS (256), BENCH_SCALEOUT_SIZES (1000,1000000)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urljoin

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests"))

import m3u8  # noqa: E402

from pykit import postgres  # noqa: E402
from pykit.cli import run  # noqa: E402
from pykit.edge import Edge, static_nginx  # noqa: E402
from pykit.media import make_clip  # noqa: E402
from pykit.seaweed import Seaweed  # noqa: E402
from pykit.server import LiveServer  # noqa: E402
from pykit.wrk import run as wrk  # noqa: E402

DURATION = os.environ.get("BENCH_SCALEOUT_SECONDS", "60")
CONNECTIONS = os.environ.get("BENCH_SCALEOUT_CONNECTIONS", "256")
SIZES = [int(x) for x in os.environ.get("BENCH_SCALEOUT_SIZES", "1000,1000000").split(",")]
# Limits out of the way: the bench measures throughput, not the limiter.
UNLIMITED = {"REELHOUSE_API_REQUESTS_PER_MINUTE": "1000000000", "REELHOUSE_WORKER": "0"}


def mixed_paths(edge: Edge, key: str, items: list[dict]) -> list[tuple[str, bool]]:
    """(path, needs the API key) for every kind of request a player makes, in a player's order."""
    paths: list[tuple[str, bool]] = [("/api/v1/feed?limit=10&mode=shuffle", True)]
    for item in items:
        paths.append((f"/api/v1/videos/{item['id']}", True))
        master = item["media"]["master"]
        status, _, body = edge.get(master)
        assert status == 200, body
        variant_url = urljoin(master, m3u8.loads(body.decode()).playlists[0].uri)
        status, _, body = edge.get(variant_url)
        assert status == 200, body
        variant = m3u8.loads(body.decode())
        paths += [(master, False), (variant_url, False), (urljoin(variant_url, variant.keys[-1].uri), False),
                  (urljoin(variant_url, variant.segment_map[0].uri), False)]
        paths += [(urljoin(variant_url, segment.uri), False) for segment in variant.segments]
    return paths


def lua_cycle(paths: list[tuple[str, bool]], key: str, work: Path) -> Path:
    """A wrk script sending the paths round-robin, the API key only where it is needed."""
    entries = ",\n".join(f'  {{ {json.dumps(path)}, {"true" if keyed else "false"} }}' for path, keyed in paths)
    script = work / "mixed.lua"
    script.write_text(f"""
local paths = {{
{entries}
}}
local counter = 0
request = function()
  counter = counter + 1
  local entry = paths[(counter % #paths) + 1]
  local headers = {{}}
  if entry[2] then headers["api-key"] = "{key}" end
  return wrk.format("GET", entry[1], headers)
end
""")
    return script


def mixed_load(work: Path) -> None:
    seaweed = Seaweed(work / "seaweed", "reel-bench")
    database = postgres.cluster().fresh_database()
    env = {"REELHOUSE_DATABASE_URL": database, "REELHOUSE_STORAGE": seaweed.storage_setting, **seaweed.credentials,
           "REELHOUSE_SECRET": os.urandom(32).hex(), "REELHOUSE_PRESET": "ultrafast", **UNLIMITED}
    nodes: list[LiveServer] = []
    edge = None
    try:
        for n in range(4):
            make_clip(work / "clips" / f"clip-{n}.mp4", size="540x960", seconds=6, frequency=300 + 80 * n)
        run(work / "importer", "import", str(work / "clips"), "--json", env=env)
        nodes = [LiveServer(work / name / "data", args=("--role", "api", "--bcrypt-cost", "4"), env=env,
                            log_path=work / f"{name}.log") for name in ("a", "b")]
        # The first node made the owner account, in the database every node shares.
        key = run(work / "importer", "key", "create", "--user", "owner", env=env).stdout.strip()
        edge_root = Path(tempfile.mkdtemp(prefix="reel-bench-edge-"))
        edge_root.chmod(0o755)
        edge = Edge(edge_root, nodes[0].port, None, upstreams=[node.port for node in nodes])
        status, _, body = edge.get("/api/v1/feed?limit=10&mode=shuffle", {"api-key": key})
        assert status == 200, body
        items = [item for item in json.loads(body)["items"] if item["media"].get("master")]
        paths = mixed_paths(edge, key, items)
        script = lua_cycle(paths, key, work)
        before = [node.rss_kb() for node in nodes]
        result = wrk(edge.base, connections=CONNECTIONS, seconds=DURATION, script=script)
        after = [node.rss_kb() for node in nodes]
        print(f"  mixed load through nginx to 2 API nodes ({len(paths)} paths: feed, video, playlists, key, init, "
              f"segments): {result['requests']} requests, {result['rps']:.0f} req/s, p50 {result['p50']:.1f} ms, "
              f"p99 {result['p99']:.1f} ms, errors {result['errors']}", flush=True)
        for name, start, end in zip("ab", before, after):
            print(f"  node {name}: RSS {start / 1024:.0f} MiB before, {end / 1024:.0f} MiB after", flush=True)

        segment_path = next(path for path, _ in paths if path.endswith(".m4s"))
        status, _, segment = edge.get(segment_path)
        assert status == 200
        _, headers, _ = edge.get(segment_path)
        print(f"  edge cache for a segment fetched again: {headers.get('x-reelhouse-edge-cache', 'no header')}", flush=True)
        (work / "static").mkdir()
        (work / "static" / "segment.m4s").write_bytes(segment)
        through_edge = wrk(edge.base + segment_path, connections=64, seconds=10)
        static, url = static_nginx(work / "static" / "segment.m4s", work, "video/iso.segment")
        try:
            direct = wrk(url, connections=64, seconds=10)
        finally:
            static.terminate()
            static.wait(timeout=10)
        print(f"  one segment ({len(segment)} bytes), 64 connections: edge {through_edge['rps']:.0f} req/s, "
              f"nginx from disk {direct['rps']:.0f} req/s: edge ÷ nginx = {through_edge['rps'] / direct['rps']:.2f} "
              f"(goal ≥ 0.9)", flush=True)
    finally:
        if edge is not None:
            edge.stop()
        for node in nodes:
            node.stop()
        seaweed.stop()
        postgres.cluster().drop(database)


def feed_on_postgres(work: Path) -> None:
    p99 = {}
    for size in SIZES:
        data = work / f"seed-{size}"
        started = time.monotonic()
        key = run(data, "bench-seed", "--count", str(size)).stdout.strip()
        seeded = time.monotonic() - started
        database = postgres.cluster().fresh_database()
        started = time.monotonic()
        run(data, "migrate-store", "--to", database, timeout=7200)
        copied = time.monotonic() - started
        node = LiveServer(work / f"node-{size}" / "data", args=("--role", "api", "--bcrypt-cost", "4"),
                          env={"REELHOUSE_DATABASE_URL": database, **UNLIMITED}, log_path=work / f"feed-{size}.log")
        try:
            result = wrk(node.url + "/api/v1/feed?limit=10&mode=shuffle", connections=16, seconds=8, headers={"api-key": key})
        finally:
            node.stop()
            postgres.cluster().drop(database)
            shutil.rmtree(data, ignore_errors=True)
        p99[size] = result["p99"]
        print(f"  feed on PostgreSQL at {size:>8} posts (seeded {seeded:.0f} s, copied {copied:.0f} s): "
              f"p50 {result['p50']:.2f} ms, p99 {result['p99']:.2f} ms, {result['rps']:.0f} req/s", flush=True)
    if len(SIZES) > 1:
        print(f"  feed p99 at {SIZES[-1]} ÷ at {SIZES[0]} = {p99[SIZES[-1]] / p99[SIZES[0]]:.2f} (goal ≤ 1.5)")


FAULT_TESTS = [
    "Tests/e2e/test_multi_node.py::test_one_api_node_killed_under_load_costs_at_most_half_a_percent_and_no_acknowledged_write",
    "Tests/e2e/test_multi_node.py::test_an_upload_resumes_and_completes_across_a_seaweedfs_restart",
    "Tests/e2e/test_postgres_outage.py",
]


def faults() -> None:
    """Part 4: the fault tests, with the figures they measured (their `measurements` section)."""
    print("faults under load (the e2e tests, their measurements):", flush=True)
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *FAULT_TESTS],
                            cwd=ROOT, capture_output=True, text=True, env={**os.environ})
    lines = result.stdout.splitlines()
    start = next((n for n, line in enumerate(lines) if "measurements" in line and line.startswith("=")), None)
    for line in lines[start + 1:-1] if start is not None else []:
        if line.startswith("="):
            break
        print(f"  {line}")
    print(f"  ({lines[-1] if lines else result.stderr.strip()[-300:]})", flush=True)


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="reel-scaleout-bench-"))
    work.chmod(0o755)  # nginx's workers run as an unprivileged user and read the static segment
    print(f"scale-out benchmark: {CONNECTIONS} connections for {DURATION} s, {os.cpu_count()} cores", flush=True)
    try:
        mixed_load(work)
        feed_on_postgres(work)
        faults()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
