"""Uploads with `storage` a bucket keep no state on an API node (docs/scale-out.md, "Uploads in
the bucket"): two `reelhouse serve --role api` processes with their own data folders on one
SeaweedFS bucket (and, until serving from PostgreSQL is wired, one SQLite file both link to);
a tus upload started through node A, A killed with SIGKILL mid-PATCH, resumed through node B,
and imported and transcoded by a worker node C from the bucket. Two PATCHes at one offset
through A and B at once: one succeeds, the other is refused."""
import base64
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
import uuid
from pathlib import Path

import pytest

from conftest import BIN, LiveServer, db, http, make_clip
from pykit import TEST_ENVIRONMENT
from pykit.seaweed import Seaweed
from pykit.server import free_port

TUS = {"Tus-Resumable": "1.0.0"}
BUCKET = "reel-nodes"


@pytest.fixture(scope="module")
def seaweed(tmp_path_factory):
    running = Seaweed(tmp_path_factory.mktemp("seaweed"), BUCKET)
    try:
        yield running
    finally:
        running.stop()


def node_folder(shared: Path, folder: Path) -> Path:
    """A data folder of its own that shares only the SQLite library (and the secret) of `shared`."""
    folder.mkdir(parents=True)
    (folder / "reelhouse.sqlite").symlink_to(shared / "reelhouse.sqlite")
    shutil.copy(shared / "secret.key", folder / "secret.key")
    return folder


def bucket_env(seaweed: Seaweed, prefix: str) -> dict:
    return {"REELHOUSE_STORAGE": f"s3://{BUCKET}/{prefix}?endpoint={seaweed.endpoint}&region=us-east-1",
            **seaweed.credentials, "REELHOUSE_PRESET": "ultrafast"}


def tus(key: str, extra: dict | None = None) -> dict:
    return {**TUS, "api-key": key, **(extra or {})}


def head_offset(node, location: str, key: str) -> int:
    status, headers, body = http(node.url + location, "HEAD", tus(key))
    assert status == 200, body
    return int(headers["Upload-Offset"])


def patch(node, location: str, offset: int, body: bytes, key: str):
    return http(node.url + location, "PATCH",
                tus(key, {"Content-Type": "application/offset+octet-stream", "Upload-Offset": str(offset)}), body)


def test_an_upload_started_on_a_killed_node_is_finished_through_another_and_transcoded_by_a_third(tmp_path, seaweed):
    prefix = f"nodes-{uuid.uuid4().hex[:8]}"
    env = bucket_env(seaweed, prefix)
    args = ("--role", "api", "--bcrypt-cost", "4")
    node_a = LiveServer(tmp_path / "a", args=args, env=env)
    node_b = worker = None
    try:
        node_b = LiveServer(node_folder(tmp_path / "a", tmp_path / "b"), args=args, env=env)
        key = node_a.key()
        data = make_clip(tmp_path / "resume me.mp4", seconds=2).read_bytes()
        status, headers, body = http(node_a.url + "/api/v1/uploads", "POST", tus(key, {
            "Upload-Length": str(len(data)), "Upload-Metadata": "filename cmVzdW1lLm1wNA==,filetype dmlkZW8vbXA0"}))
        assert status == 201, body
        location = headers["Location"]
        upload_id = location.rsplit("/", 1)[1]
        third = len(data) // 3

        status, _, body = patch(node_a, location, 0, data[:third], key)
        assert status == 204, body
        assert head_offset(node_b, location, key) == third, "node B sees what node A stored"

        # A second PATCH reaches node A, which dies with part of it: SIGKILL, nothing to clean up.
        sock = socket.create_connection(("127.0.0.1", node_a.port))
        sock.sendall("\r\n".join([f"PATCH {location} HTTP/1.1", f"Host: 127.0.0.1:{node_a.port}", f"api-key: {key}",
                                  "Tus-Resumable: 1.0.0", "Content-Type: application/offset+octet-stream",
                                  f"Upload-Offset: {third}", f"Content-Length: {len(data) - third}", "", ""]).encode())
        sock.sendall(data[third:2 * third])
        time.sleep(0.5)
        node_a.process.send_signal(signal.SIGKILL)
        node_a.process.wait()
        sock.close()

        # Node B answers for the upload from the bucket alone and takes the rest.
        offset = head_offset(node_b, location, key)
        assert offset == third, "bytes a killed node still held were not stored"
        worker_port = free_port()
        worker_log = open(tmp_path / "worker.log", "w+")
        worker = subprocess.Popen(
            [BIN, "serve", "--data", str(node_folder(tmp_path / "a", tmp_path / "c")), "--role", "worker", "--port", str(worker_port)],
            stdout=worker_log, stderr=subprocess.STDOUT, env={**os.environ, **TEST_ENVIRONMENT, **env})
        status, headers, body = patch(node_b, location, offset, data[offset:], key)
        assert status == 204, body
        assert headers["Upload-Offset"] == str(len(data))

        deadline = time.monotonic() + 240
        post = None
        while time.monotonic() < deadline:
            with db(tmp_path / "a") as connection:
                post = connection.execute("SELECT id, status FROM posts ORDER BY id DESC LIMIT 1").fetchone()
            if post is not None and post["status"] in ("ready", "failed"):
                break
            assert worker.poll() is None, (tmp_path / "worker.log").read_text()
            time.sleep(0.3)
        assert post is not None and post["status"] == "ready", (tmp_path / "worker.log").read_text()[-3000:]

        # Everything lives in the bucket; no node kept the upload or the source on its disk.
        assert f"{prefix}/media/{post['id']}/.published" in seaweed.keys(f"{prefix}/media/{post['id']}/")
        assert any(name.endswith(".mp4") for name in seaweed.keys(f"{prefix}/sources/"))
        assert seaweed.keys(f"{prefix}/uploads/{upload_id}/parts/") == [], "the parts go once the upload is a post"
        assert f"{prefix}/uploads/{upload_id}/record.json" in seaweed.keys(f"{prefix}/uploads/{upload_id}/")
        for node in "abc":
            for kept in ("uploads", "sources"):
                assert not any((tmp_path / node / kept).glob("*")), f"node {node} kept something in {kept}/"
        status, headers, _ = http(node_b.url + location, "HEAD", tus(key))
        assert status == 200 and headers["Upload-Post-Id"] == str(post["id"])
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)
        for node in (node_a, node_b):
            if node is not None:
                node.stop()


def test_two_patches_at_one_offset_through_two_nodes_cannot_both_succeed(tmp_path, seaweed):
    env = bucket_env(seaweed, f"race-{uuid.uuid4().hex[:8]}")
    args = ("--role", "api", "--bcrypt-cost", "4")
    node_a = LiveServer(tmp_path / "a", args=args, env=env)
    node_b = None
    try:
        node_b = LiveServer(node_folder(tmp_path / "a", tmp_path / "b"), args=args, env=env)
        key = node_a.key()
        for trial in range(5):
            status, headers, body = http(node_a.url + "/api/v1/uploads", "POST", tus(key, {"Upload-Length": "4000000"}))
            assert status == 201, body
            location = headers["Location"]
            results: dict[str, int] = {}
            barrier = threading.Barrier(2)

            def send(name, node, fill):
                barrier.wait()
                results[name] = patch(node, location, 0, fill * 1_000_000, key)[0]

            threads = [threading.Thread(target=send, args=("a", node_a, b"A")), threading.Thread(target=send, args=("b", node_b, b"B"))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            # The loser either found the offset moved or lost the race for the part's key: 409 both ways.
            assert sorted(results.values()) == [204, 409], f"trial {trial}: {results}"
            assert head_offset(node_b, location, key) == 1_000_000
            assert head_offset(node_a, location, key) == 1_000_000
    finally:
        for node in (node_a, node_b):
            if node is not None:
                node.stop()


def test_a_chunk_failing_its_checksum_leaves_nothing_in_the_bucket(tmp_path, seaweed):
    prefix = f"sum-{uuid.uuid4().hex[:8]}"
    node = LiveServer(tmp_path / "a", args=("--role", "api", "--bcrypt-cost", "4"), env=bucket_env(seaweed, prefix))
    try:
        key = node.key()
        status, headers, body = http(node.url + "/api/v1/uploads", "POST", tus(key, {"Upload-Length": "30000000"}))
        assert status == 201, body
        location = headers["Location"]
        parts = f"{prefix}/uploads/{location.rsplit('/', 1)[1]}/parts/"
        first = os.urandom(1000)
        assert patch(node, location, 0, first, key)[0] == 204
        # 20 MB: two 8 MiB parts are stored before the body ends and the digest can be checked.
        chunk = os.urandom(20_000_000)
        wrong = base64.b64encode(hashlib.sha1(b"something else").digest()).decode()
        status, _, body = http(node.url + location, "PATCH", tus(key, {
            "Content-Type": "application/offset+octet-stream", "Upload-Offset": "1000", "Upload-Checksum": f"sha1 {wrong}"}), chunk)
        assert status == 460, body
        assert head_offset(node, location, key) == 1000
        assert seaweed.keys(parts) == [parts + "00000000000000000000"], "the bad chunk's stored parts were deleted"
        right = base64.b64encode(hashlib.sha1(chunk).digest()).decode()
        status, headers, body = http(node.url + location, "PATCH", tus(key, {
            "Content-Type": "application/offset+octet-stream", "Upload-Offset": "1000", "Upload-Checksum": f"sha1 {right}"}), chunk)
        assert status == 204, body
        assert headers["Upload-Offset"] == "20001000"
        assert len(seaweed.keys(parts)) == 4, "1000 bytes, then 8 MiB, 8 MiB and the rest of the chunk"
    finally:
        node.stop()
