"""SIGKILL a worker mid-transcode, restart it, and see the job finish with exactly one ready
video and no orphan files. SIGKILL a server between an upload's last byte and its import,
restart it, and see the upload become that one post."""
import base64
import json
import os
import signal
import subprocess
import time
from pathlib import Path

from conftest import BIN, RunningServer, db, files_under, http, import_json, make_clip, post_media


def job_row(data: Path) -> dict:
    with db(data) as connection:
        return dict(connection.execute("SELECT * FROM jobs").fetchone())


def ffmpeg_pids_for(data: Path) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if cmdline and cmdline[0].endswith(b"ffmpeg") and any(str(data).encode() in part for part in cmdline):
            pids.append(int(entry.name))
    return pids


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def start_worker(data: Path) -> subprocess.Popen:
    env = {**os.environ, "REELHOUSE_LEASE_SECONDS": "2"}
    return subprocess.Popen([BIN, "worker", "--data", str(data)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def test_sigkill_mid_transcode_then_restart(tmp_path, data):
    clip = make_clip(tmp_path / "long.mp4", size="1080x1920", seconds=10, audio=True)
    report = import_json(data, clip, extra=("--no-wait",))
    post_id = report["imported"][0]["id"]

    worker = start_worker(data)
    try:
        wait_for(lambda: job_row(data)["state"] == "running" and job_row(data)["progress"] >= 0.1,
                 timeout=120, what="the transcode to be under way")
        assert ffmpeg_pids_for(data), "ffmpeg should be running for this data folder"
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
    finally:
        if worker.poll() is None:
            worker.kill()

    # The encoder dies with its worker (the kernel's parent-death signal, set by setpriv), at
    # once: not when it finishes encoding into a job folder that the next attempt reuses. A
    # closed progress pipe alone does not stop ffmpeg; on a loaded machine it outlived 15 s.
    wait_for(lambda: not ffmpeg_pids_for(data), timeout=5, what="the orphaned ffmpeg to exit")
    assert job_row(data)["state"] == "running"  # the lease is still held by the dead worker
    with db(data) as connection:
        assert connection.execute("SELECT status FROM posts").fetchone()["status"] != "ready"

    worker = start_worker(data)
    try:
        wait_for(lambda: job_row(data)["state"] in ("succeeded", "failed"), timeout=300, what="the job to finish")
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=30) == 0, worker.stderr.read().decode()
    finally:
        if worker.poll() is None:
            worker.kill()

    job = job_row(data)
    assert job["state"] == "succeeded", job
    assert job["attempts"] == 2
    with db(data) as connection:
        posts = connection.execute("SELECT id, status FROM posts").fetchall()
    assert [(p["id"], p["status"]) for p in posts] == [(post_id, "ready")]
    assert [p.name for p in (data / "media").iterdir()] == [str(post_id)]
    media = post_media(data, post_id)
    listed = {media["masterPlaylist"], media["download"], media["poster"]["path"], media["thumbnail"]["path"]}
    for rendition in media["renditions"]:
        listed |= {rendition["playlist"], rendition["initSegment"], *rendition["segments"]}
    assert files_under(data / "media" / str(post_id)) == listed
    assert files_under(data / "tmp") == set()


def upload_jobs(data: Path) -> list[dict]:
    with db(data) as connection:
        return [dict(row) for row in connection.execute("SELECT * FROM jobs WHERE kind = 'upload_import'")]


def test_sigkill_between_the_last_byte_and_the_import_then_restart(tmp_path):
    # The first server runs no worker (an API node's setting), so the kill surely lands after
    # the last byte is recorded and before the import; its last PATCH answers at once.
    data = tmp_path / "data"
    clip = make_clip(tmp_path / "last byte.mp4", seconds=2)
    content = clip.read_bytes()
    server = RunningServer(data, env={"REELHOUSE_WORKER": "false", "REELHOUSE_UPLOAD_IMPORT_WAIT_SECONDS": "0"})
    key = server.key()
    tus = {"api-key": key, "Tus-Resumable": "1.0.0"}
    name = base64.b64encode(b"last byte.mp4").decode()
    status, headers, body = http(server.base + "/api/v1/uploads", "POST",
                                 {**tus, "Upload-Length": str(len(content)), "Upload-Metadata": f"filename {name}"})
    assert status == 201, body
    location = headers["Location"]
    upload_id = location.rsplit("/", 1)[1]
    half = len(content) // 2
    chunk = {**tus, "Content-Type": "application/offset+octet-stream"}
    status, _, body = http(server.base + location, "PATCH", {**chunk, "Upload-Offset": "0"}, content[:half])
    assert status == 204, body

    try:
        status, headers, body = http(server.base + location, "PATCH", {**chunk, "Upload-Offset": str(half)}, content[half:])
        assert status == 204 and "Upload-Job-Id" in headers and "Upload-Post-Id" not in headers, body
    finally:
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(timeout=10)
        server.stop()

    # Dead between the last byte and the import: the job is recorded, every byte is on disk,
    # no post exists.
    [job] = upload_jobs(data)
    assert job["subject"] == upload_id and job["state"] == "queued" and job["post_id"] is None
    assert (data / "uploads" / f"{upload_id}.bin").stat().st_size == len(content)
    with db(data) as connection:
        assert connection.execute("SELECT COUNT(*) FROM posts").fetchone()[0] == 0

    restarted = RunningServer(data)
    try:
        status, headers, _ = http(restarted.base + location, "HEAD", tus)
        assert status == 200 and headers["Upload-Offset"] == str(len(content)) == headers["Upload-Length"]
        assert "Upload-Job-Id" in headers, "a complete upload names its import job or its post's job"

        def post_named():
            status, headers, _ = http(restarted.base + location, "HEAD", tus)
            assert status == 200
            return headers if "Upload-Post-Id" in headers else None
        named = wait_for(post_named, timeout=60, what="HEAD to name the imported post")
        post_id, transcode_id = int(named["Upload-Post-Id"]), int(named["Upload-Job-Id"])
        assert named["Upload-Offset"] == str(len(content))

        def job_done():
            status, _, body = http(f"{restarted.base}/api/v1/jobs/{transcode_id}", headers={"api-key": key})
            assert status == 200, body
            job = json.loads(body)
            return job if job["state"] in ("succeeded", "failed") else None
        transcode = wait_for(job_done, timeout=240, what="the upload's transcode")
        assert transcode["state"] == "succeeded" and transcode["kind"] == "transcode" and transcode["post_id"] == post_id
        status, _, body = http(f"{restarted.base}/api/v1/videos/{post_id}", headers={"api-key": key})
        assert status == 200, body

        # The same state through the completing PATCH's eyes: a repeated last PATCH at the
        # full offset names the same post and job, and the job list shows the import by kind.
        status, headers, _ = http(restarted.base + location, "PATCH", {**chunk, "Upload-Offset": str(len(content))}, b"")
        assert status == 204 and headers["Upload-Post-Id"] == str(post_id) and headers["Upload-Job-Id"] == str(transcode_id)
        status, _, body = http(f"{restarted.base}/api/v1/jobs?limit=50", headers={"api-key": key})
        kinds = {(item["kind"], item.get("upload_id")) for item in json.loads(body)["items"]}
        assert ("upload_import", upload_id) in kinds and ("transcode", None) in kinds
        status, _, body = http(f"{restarted.base}/api/v1/jobs?kind=upload_import", headers={"api-key": key})
        assert status == 200 and [item["upload_id"] for item in json.loads(body)["items"]] == [upload_id]
        status, _, body = http(f"{restarted.base}/api/v1/jobs?kind=poll", headers={"api-key": key})
        assert status == 400 and json.loads(body)["error"]["code"] == "bad_request"
    finally:
        restarted.stop()

    [job] = upload_jobs(data)
    assert job["state"] == "succeeded" and job["attempts"] == 1, job
    with db(data) as connection:
        posts = connection.execute("SELECT id, status FROM posts").fetchall()
    assert [(p["id"], p["status"]) for p in posts] == [(post_id, "ready")]
    # No orphans: the bytes went into the one kept source; only the upload's record stays.
    assert sorted(p.name for p in (data / "uploads").iterdir()) == [f"{upload_id}.json"]
    assert files_under(data / "publishing") == set()  # (empty when the folder is absent too)
    assert len(list((data / "sources").iterdir())) == 1
    assert files_under(data / "tmp") == set()


def test_an_import_slower_than_the_completing_request_is_named_by_its_job_then_by_head(tmp_path):
    # The completing PATCH does not wait for the import here (uploadImportWaitSeconds 0), so the
    # answer names only the import job, and HEAD names the post once the job has run.
    data = tmp_path / "data"
    clip = make_clip(tmp_path / "slow import.mp4", seconds=2)
    content = clip.read_bytes()
    server = RunningServer(data, env={"REELHOUSE_UPLOAD_IMPORT_WAIT_SECONDS": "0"})
    try:
        key = server.key()
        tus = {"api-key": key, "Tus-Resumable": "1.0.0"}
        status, headers, body = http(server.base + "/api/v1/uploads", "POST", {**tus, "Upload-Length": str(len(content))})
        assert status == 201, body
        location = headers["Location"]
        status, headers, body = http(server.base + location, "PATCH",
                                     {**tus, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0"}, content)
        assert status == 204, body
        assert headers["Upload-Offset"] == str(len(content)) and "Upload-Post-Id" not in headers
        import_job = int(headers["Upload-Job-Id"])
        status, _, body = http(f"{server.base}/api/v1/jobs/{import_job}", headers={"api-key": key})
        job = json.loads(body)
        assert job["kind"] == "upload_import" and job["upload_id"] == location.rsplit("/", 1)[1]
        assert job["state"] in ("queued", "running", "succeeded"), job

        # Until the import has made the post, HEAD names the import job; then the post's job.
        status, headers, _ = http(server.base + location, "HEAD", tus)
        assert status == 200 and headers["Upload-Offset"] == str(len(content))
        assert "Upload-Post-Id" in headers or headers["Upload-Job-Id"] == str(import_job), headers

        def post_named():
            status, headers, _ = http(server.base + location, "HEAD", tus)
            assert status == 200
            return headers if "Upload-Post-Id" in headers else None
        named = wait_for(post_named, timeout=60, what="HEAD to name the imported post")
        assert int(named["Upload-Job-Id"]) != import_job
        status, _, body = http(f"{server.base}/api/v1/jobs/{import_job}", headers={"api-key": key})
        assert json.loads(body)["state"] == "succeeded"
        status, _, body = http(f"{server.base}/api/v1/jobs/{named['Upload-Job-Id']}", headers={"api-key": key})
        transcode = json.loads(body)
        assert transcode["kind"] == "transcode" and transcode["post_id"] == int(named["Upload-Post-Id"])
    finally:
        server.stop()
