"""Several nodes on real parts (issue 17, docs/scale-out.md): nginx (the config `reelhouse edge
nginx` prints) in front of two API nodes, two worker nodes, one PostgreSQL and one SeaweedFS, all
on 127.0.0.1, each node with its own data folder (nothing shared but the database, the bucket and
the secret). In order, one story:

1. a session opened through one API node is honoured by the other;
2. a tus upload through nginx: the API node receiving a PATCH is SIGKILLed mid-body, the upload
   resumes through nginx on the other node and completes;
3. its transcode: the worker running ffmpeg is SIGKILLed mid-job, the other worker takes the job
   over when the lease runs out and publishes the post;
4. the video plays through the edge with URLs signed by the other API node;
5. a feed session continues across an API node restart with the cursor it was given;
6. one API node SIGKILLed under 256 connections of load through nginx: at most 0.5 % of the
   requests fail and every acknowledged write (an event batch) is in the database afterwards;
7. SeaweedFS SIGKILLed and restarted between two PATCHes of a tus upload: the upload resumes,
   completes and its post is published.
"""
import base64
import hashlib
import http.client
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from urllib.parse import urlparse

import pytest

from conftest import make_clip, record_measurement, reelhouse
from pykit import cli, postgres, load
from pykit.api import sign_in
from pykit.edge import NGINX, Edge, play_through
from pykit.seaweed import Seaweed
from pykit.server import LiveServer

BUCKET = "reel-nodes"
TUS = {"Tus-Resumable": "1.0.0"}
LEASE_SECONDS = 3
LIBRARY_CLIPS = 5
WORKER_READY = "Reelhouse worker started"


class Cluster:
    """The whole topology; `stop()` takes it down whatever state a step left it in."""

    def __init__(self, root: Path):
        self.root = root
        self.nodes: list[LiveServer] = []
        self.seaweed = Seaweed(root / "seaweed", BUCKET)
        self.database = postgres.cluster().fresh_database()
        self.env = {
            "REELHOUSE_DATABASE_URL": self.database,
            "REELHOUSE_STORAGE": self.seaweed.storage_setting,
            **self.seaweed.credentials,
            "REELHOUSE_SECRET": os.urandom(32).hex(),
            "REELHOUSE_LEASE_SECONDS": str(LEASE_SECONDS),
            # The load test sends thousands of calls a second with one key.
            "REELHOUSE_API_REQUESTS_PER_MINUTE": "100000000",
        }
        # The library first, its transcodes left to the workers (--no-wait queues them).
        clips = [make_clip(root / "clips" / f"library-{n}.mp4", seconds=2, frequency=300 + 60 * n) for n in range(LIBRARY_CLIPS)]
        reelhouse(root / "importer", "import", str(root / "clips"), "--no-wait", "--json", env=self.env)
        assert len(clips) == LIBRARY_CLIPS
        self.api = [self.start_api("a"), self.start_api("b")]
        self.workers = [self.start_worker("w1"), self.start_worker("w2")]
        # Outside pytest's 0700 folders: nginx's workers (nobody, when the tests run as root)
        # write its cache.
        self.edge_root = Path(tempfile.mkdtemp(prefix="reelhouse-nodes-edge-"))
        self.edge_root.chmod(0o755)
        self.edge = Edge(self.edge_root, self.api[0].port, None, upstreams=[node.port for node in self.api])

    def start_api(self, name: str, port: int | None = None) -> LiveServer:
        node = LiveServer(self.root / name / "data", args=("--role", "api", "--bcrypt-cost", "4"), env=self.env,
                          log_path=self.root / f"{name}-{len(self.nodes)}.log", port=port)
        self.nodes.append(node)
        return node

    def start_worker(self, name: str) -> LiveServer:
        node = LiveServer(self.root / name / "data", args=("--role", "worker"), env=self.env, ready_text=WORKER_READY,
                          log_path=self.root / f"{name}.log", serves_http=False, startup_timeout=60)
        self.nodes.append(node)
        return node

    def owner_password(self) -> str:
        printed = [password for node in self.nodes if (password := node.printed_password())]
        assert len(printed) == 1, "exactly one node creates the owner account"
        return printed[0]

    def logs(self) -> str:
        return "\n".join(f"--- {node.log_path.name}\n{node.output()[-3000:]}" for node in self.nodes)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
        if getattr(self, "edge", None) is not None:
            self.edge.stop()
        if getattr(self, "edge_root", None) is not None:
            shutil.rmtree(self.edge_root, ignore_errors=True)
        self.seaweed.stop()
        postgres.cluster().drop(self.database)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    if not os.access(NGINX, os.X_OK):
        pytest.fail("nginx is not installed: run scripts/ensure-deps.sh test")
    running = Cluster(tmp_path_factory.mktemp("nodes"))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def cookie(cluster) -> str:
    name_value, _ = sign_in(cluster.edge.base, "owner", cluster.owner_password())
    return name_value


def call(base: str, path: str, cookie: str, method: str = "GET", headers: dict | None = None, body: bytes | None = None):
    target = urlparse(base)
    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
    try:
        # Origin as a browser sends it: cookie-authenticated writes without it are refused.
        connection.request(method, path, body=body, headers={"Cookie": cookie, "Origin": f"{target.scheme}://{target.netloc}", **(headers or {})})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def wait_until(condition, timeout: float, what: str, cluster: Cluster, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (value := condition()):
            return value
        time.sleep(interval)
    raise AssertionError(f"{what} within {timeout:.0f} s\n{cluster.logs()}")


def post_state(cluster: Cluster, post_id: int) -> str:
    rows = postgres.cluster().query(cluster.database, f"SELECT status FROM posts WHERE id = {int(post_id)}")
    return rows[0][0] if rows else "missing"


def received_bytes(port: int) -> int:
    """Bytes the process listening on `port` has read from its accepted TCP connections (ss -i)."""
    out = subprocess.run(["ss", "-tinH", "state", "established", f"( sport = :{port} )"], capture_output=True, text=True,
                         check=True).stdout
    return sum(int(value) for value in re.findall(r"bytes_received:(\d+)", out))


def begin_upload(cluster: Cluster, cookie: str, name: str, data: bytes, first: int) -> str:
    """A tus upload of `data` created through nginx and its first `first` bytes sent: its path."""
    encoded_name = base64.b64encode(name.encode()).decode()
    status, headers, body = call(cluster.edge.base, "/api/v1/uploads", cookie, "POST",
                                 {**TUS, "Upload-Length": str(len(data)), "Upload-Metadata": f"filename {encoded_name}"})
    assert status == 201, body
    location = headers["location"]
    location = location[location.index("/api/"):]  # absolute or not, the path is what nginx routes
    status, headers, body = call(cluster.edge.base, location, cookie, "PATCH",
                                 {**TUS, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"}, data[:first])
    assert status == 204 and headers["upload-offset"] == str(first), body
    return location


def test_a_session_opened_on_one_node_is_honoured_by_the_other(cluster, cookie):
    for node in cluster.api:
        status, _, body = call(node.url, "/api/v1/me", cookie)
        assert status == 200 and json.loads(body)["name"] == "owner", body


def test_an_upload_survives_its_node_dying_mid_patch_and_its_transcode_its_worker(cluster, cookie, tmp_path):
    clip = make_clip(tmp_path / "phone upload.mp4", size="540x960", seconds=12, frequency=660)
    data = clip.read_bytes()
    first = len(data) // 3
    location = begin_upload(cluster, cookie, clip.name, data, first)

    # The next PATCH streams slowly through nginx; the API node reading it is found by the bytes
    # its sockets receive, and SIGKILLed with the body half sent.
    before = {node.port: received_bytes(node.port) for node in cluster.api}
    outcome: dict = {}

    def slow_patch():
        connection = http.client.HTTPConnection("127.0.0.1", cluster.edge.port, timeout=60)
        rest = data[first:]
        try:
            connection.putrequest("PATCH", location)
            for name, value in {**TUS, "Cookie": cookie, "Origin": cluster.edge.base, "Upload-Offset": str(first), "Content-Length": str(len(rest)),
                                "Content-Type": "application/offset+octet-stream"}.items():
                connection.putheader(name, value)
            connection.endheaders()
            for start in range(0, len(rest), 32 * 1024):
                connection.send(rest[start:start + 32 * 1024])
                time.sleep(0.02)
            outcome["status"] = connection.getresponse().status
        except OSError as error:
            outcome["error"] = repr(error)
        finally:
            connection.close()

    sender = threading.Thread(target=slow_patch)
    sender.start()
    receiving = wait_until(
        lambda: [node for node in cluster.api if received_bytes(node.port) - before[node.port] > 256 * 1024],
        20, "an API node receives the second PATCH", cluster, interval=0.05)
    victim = receiving[0]
    survivor = next(node for node in cluster.api if node is not victim)
    victim.kill()
    sender.join(timeout=90)
    assert outcome.get("status") != 204, f"the PATCH whose node died cannot have succeeded: {outcome}"

    # Resumed through nginx, which passes over the dead node: the offset is what was kept.
    status, headers, _ = call(cluster.edge.base, location, cookie, "HEAD", TUS)
    assert status == 200, cluster.logs()
    offset = int(headers["upload-offset"])
    assert first <= offset < len(data)
    status, headers, body = call(cluster.edge.base, location, cookie, "PATCH",
                                 {**TUS, "Upload-Offset": str(offset), "Content-Type": "application/offset+octet-stream"},
                                 data[offset:])
    assert status == 204 and headers["upload-offset"] == str(len(data)), body

    # The import names the post (at once, or later through HEAD); its transcode goes to a worker.
    def named_post():
        status, headers, _ = call(survivor.url, location, cookie, "HEAD", TUS)
        return int(headers["upload-post-id"]) if status == 200 and headers.get("upload-post-id") else None
    post_id = wait_until(named_post, 120, "the upload's import names its post", cluster)

    # The worker running ffmpeg for it is SIGKILLed mid-encode; the other takes the job over.
    def encoding_worker():
        for worker in cluster.workers:
            found = subprocess.run(["pgrep", "-P", str(worker.process.pid), "-x", "ffmpeg"], capture_output=True, text=True)
            if found.returncode == 0 and post_state(cluster, post_id) != "ready":
                return worker
        return None
    doomed = wait_until(encoding_worker, 120, "a worker encodes the uploaded post", cluster, interval=0.05)
    doomed.kill()
    wait_until(lambda: post_state(cluster, post_id) == "ready", 240, "the other worker publishes the post", cluster)
    attempts = postgres.cluster().query(
        cluster.database, f"SELECT attempts, state FROM jobs WHERE kind = 'transcode' AND post_id = {post_id}")
    assert attempts == [["2", "succeeded"]], attempts

    # The bytes kept as its source are the bytes sent.
    sources = [key for key in cluster.seaweed.keys("") if "/sources/" in f"/{key}"]
    kept = [cluster.seaweed.client.get_object(Bucket=BUCKET, Key=key)["Body"].read() for key in sources]
    assert hashlib.sha256(data).digest() in {hashlib.sha256(blob).digest() for blob in kept}, sources

    # Played through the edge with URLs the surviving API node signed.
    status, _, body = call(survivor.url, f"/api/v1/videos/{post_id}", cookie)
    assert status == 200, body
    stream = play_through(cluster.edge, json.loads(body), tmp_path / "played.mp4")
    assert stream["codec_name"] == "h264" and int(stream["nb_read_frames"]) >= 300, stream

    # The dead API node comes back where the edge expects it.
    cluster.api[cluster.api.index(victim)] = cluster.start_api("a-again", port=victim.port)


def test_a_feed_session_continues_across_a_node_restart_with_its_cursor(cluster, cookie):
    ready = wait_until(lambda: (count := int(postgres.cluster().query(
        cluster.database, "SELECT count(*) FROM posts WHERE status = 'ready'")[0][0])) >= LIBRARY_CLIPS and count,
        240, "the workers publish the library", cluster)
    status, _, body = call(cluster.edge.base, "/api/v1/feed?limit=2&mode=shuffle", cookie)
    assert status == 200, body
    page = json.loads(body)
    seen = [item["id"] for item in page["items"]]
    node = cluster.api[0]
    node.stop()
    cluster.api[0] = cluster.start_api("a-restarted", port=node.port)
    cursor = page["next_cursor"]
    while cursor and len(seen) < ready:
        for base in [cluster.api[0].url, cluster.edge.base]:  # the restarted node, then whichever nginx picks
            if not cursor or len(seen) >= ready:
                break
            status, _, body = call(base, f"/api/v1/feed?limit=2&mode=shuffle&cursor={cursor}", cookie)
            assert status == 200, body
            page = json.loads(body)
            seen += [item["id"] for item in page["items"]]
            cursor = page["next_cursor"]
    assert len(seen) == len(set(seen)) == ready, f"a cycle shows every ready post once: {seen}"


def edge_errors(log: str) -> str:
    """nginx's error log, one line per kind of message and upstream, with its count."""
    kinds = Counter(re.sub(r"^.*?\*\d+ |, client: [^\n]*?upstream: \"(http://[^/]+)[^\n]*$", r" \1", line)
                    for line in log.splitlines() if "[error]" in line or "[warn]" in line)
    return "\n".join(f"{count} x {kind}" for kind, count in kinds.most_common())


def test_one_api_node_killed_under_load_costs_at_most_half_a_percent_and_no_acknowledged_write(cluster):
    """256 keep-alive connections through nginx for 12 s, one in 20 requests a one-event batch
    (a write whose id is kept when acknowledged), the rest feed pages; 4 s in, one API node is
    SIGKILLed. nginx passes reads over the dead node (`proxy_next_upstream`); a write it had
    already sent there is lost with it and answered 502, never acknowledged."""
    wait_until(lambda: int(postgres.cluster().query(
        cluster.database, "SELECT count(*) FROM posts WHERE status = 'ready'")[0][0]) >= LIBRARY_CLIPS,
        240, "the workers publish the library", cluster)
    post_id = int(postgres.cluster().query(cluster.database, "SELECT min(id) FROM posts WHERE status = 'ready'")[0][0])
    # Both nodes up (the tests before restarted them), and nginx past any failure it counted
    # then (`fail_timeout=5s`), so the load starts on two nodes.
    for node in cluster.api:
        wait_until(lambda: call(node.url, "/ready", "")[0] == 200, 30, f"{node.url} is ready", cluster)
    time.sleep(6)
    key = cli.run(cluster.root / "importer", "key", "create", "--user", "owner", env=cluster.env).stdout.strip()
    acknowledged: set[str] = set()
    guard = threading.Lock()

    def plan(n: int) -> load.Request:
        if n % 20:
            return load.Request("GET", "/api/v1/feed?limit=5&mode=latest")
        event = str(uuid.uuid4())
        body = json.dumps({"events": [{"event_id": event, "type": "impression", "post_id": post_id,
                                       "at": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())}]}).encode()

        def keep():
            with guard:
                acknowledged.add(event)
        return load.Request("POST", "/api/v1/events", body, keep)

    victim = cluster.api[1]
    started = time.monotonic()
    tally = load.hammer(cluster.edge.port, 256, 12, {"api-key": key, "Content-Type": "application/json"}, plan,
                        during=victim.kill, at=4)
    elapsed = time.monotonic() - started
    failed_share = tally.failed / max(1, tally.total)
    record_measurement(f"kill -9 under load: {tally.total} requests in {elapsed:.1f} s ({tally.total / elapsed:.0f}/s), "
          f"{tally.failed} failed ({100 * failed_share:.2f} %): {dict(tally.statuses)} {dict(tally.errors)}; "
          f"{len(acknowledged)} event batches acknowledged")
    assert tally.total >= 1000, f"the load ran: {tally.total} requests"
    assert failed_share <= 0.005, (f"{tally.failed} of {tally.total} failed: {dict(tally.statuses)} {dict(tally.errors)}\n"
                                   f"{edge_errors(cluster.edge.error_log())}")
    stored = {row[0] for row in postgres.cluster().query(cluster.database, "SELECT event_id::text FROM watch_events")}
    missing = acknowledged - stored
    assert acknowledged and not missing, f"{len(missing)} acknowledged events are not stored: {sorted(missing)[:5]}"

    # The dead node comes back where the edge expects it.
    cluster.api[1] = cluster.start_api("b-again", port=victim.port)


def test_an_upload_resumes_and_completes_across_a_seaweedfs_restart(cluster, cookie, tmp_path):
    clip = make_clip(tmp_path / "during the outage.mp4", size="360x640", seconds=4, frequency=520)
    data = clip.read_bytes()
    first = len(data) // 2
    location = begin_upload(cluster, cookie, clip.name, data, first)

    # While SeaweedFS is down a quarter more is sent: kept or refused, nothing may be lost.
    during: dict = {}

    def patch_while_down():
        status, headers, body = call(cluster.edge.base, location, cookie, "PATCH",
                                     {**TUS, "Upload-Offset": str(first), "Content-Type": "application/offset+octet-stream"},
                                     data[first:first + len(data) // 4])
        during.update(status=status, offset=headers.get("upload-offset"), body=body[:200])
    seconds = cluster.seaweed.restart(while_down=patch_while_down)
    assert during["status"] < 500 or during["status"] == 503, f"a PATCH while the bucket is down: {during}"

    # A tus client's resume: ask the offset, send the rest from there, again until done.
    def resumed():
        status, headers, _ = call(cluster.edge.base, location, cookie, "HEAD", TUS)
        if status != 200:
            return None
        offset = int(headers["upload-offset"])
        if offset == len(data):
            return offset
        status, headers, _ = call(cluster.edge.base, location, cookie, "PATCH",
                                  {**TUS, "Upload-Offset": str(offset), "Content-Type": "application/offset+octet-stream"},
                                  data[offset:])
        return int(headers["upload-offset"]) if status == 204 and headers["upload-offset"] == str(len(data)) else None
    started = time.monotonic()
    wait_until(resumed, 60, "the upload resumes after SeaweedFS restarted", cluster, interval=0.5)
    record_measurement(f"SeaweedFS restart mid-upload: a PATCH while it was down: {during}; SeaweedFS back in {seconds:.1f} s; "
          f"the upload completed {time.monotonic() - started:.1f} s later")

    def named_post():
        status, headers, _ = call(cluster.edge.base, location, cookie, "HEAD", TUS)
        return int(headers["upload-post-id"]) if status == 200 and headers.get("upload-post-id") else None
    post_id = wait_until(named_post, 120, "the upload's import names its post", cluster)
    wait_until(lambda: post_state(cluster, post_id) == "ready", 240, "a worker publishes the uploaded post", cluster)
