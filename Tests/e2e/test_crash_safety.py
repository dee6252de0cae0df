"""SIGKILL a worker mid-transcode, restart it, and see the job finish with exactly one ready
video and no orphan files."""
import os
import signal
import subprocess
import time
from pathlib import Path

from conftest import BIN, db, files_under, import_json, make_clip, post_media


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
