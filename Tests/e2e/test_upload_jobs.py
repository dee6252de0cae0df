"""What happens after an upload: the size policy's compression pass, following the job (GET
with ETA, server-sent events), cancel and retry, a stuck job timing out into `failed`, and the
server's memory while a 50 MB body streams in."""
import json
from datetime import datetime
import os
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import RunningServer, db, ffmpeg, http, make_clip, record_measurement
from test_uploads import TUS, error_code, metadata, wait_for_job


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # A small compression threshold keeps the test clip small; the policy is the same.
    running = RunningServer(tmp_path_factory.mktemp("jobs") / "data", env={"REELHOUSE_UPLOAD_COMPRESS_ABOVE_BYTES": "3000000"})
    running.api_key = running.key()
    yield running
    running.stop()


def upload(server, path: Path, key: str | None = None, **meta) -> tuple[int, int]:
    content = path.read_bytes()
    headers = {"api-key": key or server.api_key, **TUS, "Upload-Length": str(len(content)),
               "Upload-Metadata": metadata(filename=path.name, **meta), "Content-Type": "application/offset+octet-stream"}
    status, headers, body = http(server.base + "/api/v1/uploads", "POST", headers, content, timeout=300)
    assert status == 201, body
    return int(headers["Upload-Job-Id"]), int(headers["Upload-Post-Id"])


def job(server, job_id: int) -> dict:
    status, _, body = http(f"{server.base}/api/v1/jobs/{job_id}", headers={"api-key": server.api_key})
    assert status == 200, body
    return json.loads(body)


def probe(path: Path) -> dict:
    out = subprocess.run(["ffprobe", "-v", "error", "-print_format", "json", "-show_streams", "-show_format", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


@pytest.mark.sqlite_only
def test_a_large_upload_is_compressed_to_1080p30_h264_and_only_that_is_kept(server, tmp_path):
    big = tmp_path / "phone-4k.mov"
    # 1440×2560 at 60 fps with a high bitrate: over the threshold, over 1080p and over 30 fps.
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=1440x2560:rate=60", "-f", "lavfi", "-i", "sine=duration=3",
           "-t", "3", "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "12M", "-pix_fmt", "yuv420p", "-c:a", "aac",
           "-shortest", str(big))
    assert big.stat().st_size > 3_000_000
    job_id, post_id = upload(server, big)
    seen_progress = []
    deadline = time.monotonic() + 400
    while time.monotonic() < deadline:
        current = job(server, job_id)
        seen_progress.append(current["progress"])
        if current["state"] in ("succeeded", "failed"):
            break
        time.sleep(0.3)
    assert current["state"] == "succeeded", current
    with db(server.data) as connection:
        post = connection.execute("SELECT preparation, media_json FROM posts WHERE id = ?", (post_id,)).fetchone()
        sources = [row[0] for row in connection.execute("SELECT path FROM post_sources WHERE post_id = ?", (post_id,))]
    assert post["preparation"] == "as_is"  # compressed once; a retry would not compress again
    assert len(sources) == 1 and sources[0].endswith(".mp4")
    kept = server.data / sources[0]
    info = probe(kept)
    video = next(s for s in info["streams"] if s["codec_type"] == "video")
    assert video["codec_name"] == "h264"
    assert (video["width"], video["height"]) == (1080, 1920)
    num, den = map(int, video["avg_frame_rate"].split("/"))
    assert abs(num / den - 30) < 0.5
    assert kept.stat().st_size < big.stat().st_size
    # The original is not kept: the only file in sources/ for this post is the compressed one.
    assert not any(name.endswith(".mov") for name in os.listdir(server.data / "sources"))
    media = json.loads(post["media_json"])
    assert max(media["width"], media["height"]) <= 1920


@pytest.mark.sqlite_only
def test_a_small_upload_is_kept_as_it_is(server, tmp_path):
    small = make_clip(tmp_path / "small.mp4", seconds=2)
    job_id, post_id = upload(server, small)
    assert wait_for_job(server, job_id)["state"] == "succeeded"
    with db(server.data) as connection:
        path = connection.execute("SELECT path FROM post_sources WHERE post_id = ?", (post_id,)).fetchone()[0]
    assert (server.data / path).read_bytes() == small.read_bytes()


def test_job_events_stream_progress_until_the_end(server, tmp_path):
    clip = make_clip(tmp_path / "events.mp4", seconds=8, size="720x1280", source="mandelbrot")
    job_id, _ = upload(server, clip)
    request = urllib.request.Request(f"{server.base}/api/v1/jobs/{job_id}/events", headers={"api-key": server.api_key})
    events = []
    with urllib.request.urlopen(request, timeout=300) as response:
        assert response.headers["Content-Type"].startswith("text/event-stream")
        name = None
        for raw in response:
            line = raw.decode().rstrip("\n")
            if line.startswith("event:"):
                name = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                events.append((name, json.loads(line.split(":", 1)[1])))
    assert events and all(name == "job" for name, _ in events)
    states = [event["state"] for _, event in events]
    assert states[-1] == "succeeded"
    progress = [event["progress"] for _, event in events]
    for attempt in attempts([event for _, event in events]):  # a retry starts again from 0
        assert [event["progress"] for event in attempt] == sorted(event["progress"] for event in attempt), progress
    assert len({round(p, 3) for p in progress}) >= 3, progress  # more than start and end
    running = [event for _, event in events if event["state"] == "running"]
    assert running
    for event in running:
        # The server estimates once 2 s have passed and 2 % is done; an event written later than
        # that (its own timestamps say so) must carry the estimate.
        elapsed = (iso(event["updated_at"]) - iso(event["started_at"])).total_seconds()
        if elapsed >= 2.5 and 0.02 <= event["progress"] < 1:
            assert event.get("eta_seconds") is not None and event["eta_seconds"] >= 0, event


def attempts(events: list[dict]) -> list[list[dict]]:
    """Splits a job's events into attempts: a `queued` event after a running one starts the next."""
    runs: list[list[dict]] = [[]]
    for event in events:
        if event["state"] == "queued" and any(e["state"] == "running" for e in runs[-1]):
            runs.append([])
        runs[-1].append(event)
    return runs


def iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@pytest.mark.sqlite_only
def test_cancel_then_retry(server, tmp_path):
    clip = make_clip(tmp_path / "cancel me.mp4", seconds=20, size="720x1280", source="mandelbrot")
    job_id, post_id = upload(server, clip)
    deadline = time.monotonic() + 60
    while job(server, job_id)["state"] != "running" and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1)
    status, _, body = http(f"{server.base}/api/v1/jobs/{job_id}/cancel", "POST", {"api-key": server.api_key})
    assert status == 200, body
    cancelled = json.loads(body)
    assert cancelled["state"] == "failed" and cancelled["last_error"] == "cancelled by owner"
    status, _, body = http(f"{server.base}/api/v1/videos/{post_id}", headers={"api-key": server.api_key})
    assert status == 404  # not ready, so not in the library
    with db(server.data) as connection:
        post = connection.execute("SELECT status, failure_reason FROM posts WHERE id = ?", (post_id,)).fetchone()
    assert post["status"] == "failed" and post["failure_reason"] == "cancelled by owner"
    # The worker noticed: no ffmpeg of this job keeps running, and its work folder goes away.
    deadline = time.monotonic() + 15
    while (server.data / "tmp" / f"job-{job_id}").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not (server.data / "tmp" / f"job-{job_id}").exists()
    assert job(server, job_id)["state"] == "failed"
    # Cancelling again changes nothing; retrying a job that is not failed is a conflict.
    assert http(f"{server.base}/api/v1/jobs/{job_id}/cancel", "POST", {"api-key": server.api_key})[0] == 200

    status, _, body = http(f"{server.base}/api/v1/jobs/{job_id}/retry", "POST", {"api-key": server.api_key})
    assert status == 200, body
    assert json.loads(body)["state"] in ("queued", "running")
    assert wait_for_job(server, job_id, timeout=400)["state"] == "succeeded"
    assert http(f"{server.base}/api/v1/videos/{post_id}", headers={"api-key": server.api_key})[0] == 200
    status, _, body = http(f"{server.base}/api/v1/jobs/{job_id}/retry", "POST", {"api-key": server.api_key})
    assert status == 409 and error_code(body) == "conflict"


def test_only_the_uploader_or_the_owner_controls_a_job(server, tmp_path):
    member = server.add_user("uploader")
    other = server.add_user("bystander")
    clip = make_clip(tmp_path / "mine.mp4", seconds=2, source="rgbtestsrc")
    job_id, _ = upload(server, clip, key=member)
    status, _, body = http(f"{server.base}/api/v1/jobs/{job_id}/cancel", "POST", {"api-key": other})
    assert status == 403 and error_code(body) == "forbidden"
    status, _, _ = http(f"{server.base}/api/v1/jobs/{job_id}/cancel", "POST", {"api-key": member})
    assert status == 200
    assert http(f"{server.base}/api/v1/jobs/999999/cancel", "POST", {"api-key": member})[0] == 404


@pytest.mark.sqlite_only
def test_a_stuck_job_times_out_into_failed(tmp_path):
    running = RunningServer(tmp_path / "data", env={"REELHOUSE_JOB_TIMEOUT_SECONDS": "2"})
    try:
        key = running.key()
        running.api_key = key
        clip = make_clip(tmp_path / "slow.mp4", seconds=10, size="1080x1920")
        job_id, post_id = upload(running, clip)
        final = wait_for_job(running, job_id, timeout=60)
        assert final["state"] == "failed"
        assert "still not finished after 2 s" in final["last_error"]
        with db(running.data) as connection:
            post = connection.execute("SELECT status, failure_reason FROM posts WHERE id = ?", (post_id,)).fetchone()
        assert post["status"] == "failed" and "still not finished" in post["failure_reason"]
    finally:
        running.stop()


def test_memory_stays_flat_while_a_50_mb_upload_streams(server, tmp_path):
    size = 50_000_000
    big = tmp_path / "noise.mp4"
    with open(big, "wb") as out:
        for _ in range(size // 1_000_000):
            out.write(os.urandom(1_000_000))
    headers = {"api-key": server.api_key, **TUS, "Upload-Length": str(size), "Upload-Metadata": metadata(filename="noise.mp4")}
    status, created, _ = http(server.base + "/api/v1/uploads", "POST", headers)
    assert status == 201
    baseline = server.rss_kb()
    samples = []
    done = threading.Event()

    def sample():
        while not done.is_set():
            samples.append(server.rss_kb())
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()

    def body():
        with open(big, "rb") as source:
            while chunk := source.read(256 * 1024):
                yield chunk
                time.sleep(0.01)  # a couple of seconds of streaming, so the samples see it

    request = urllib.request.Request(server.base + created["Location"], data=body(), method="PATCH", headers={
        "api-key": server.api_key, **TUS, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream",
        "Content-Length": str(size)})
    try:
        urllib.request.urlopen(request, timeout=300)
        status = 204
    except urllib.error.HTTPError as error:
        status = error.code
        reply = json.loads(error.read())
    finally:
        done.set()
        sampler.join()
    peak = max(samples)
    growth_mb = (peak - baseline) / 1024
    record_measurement(f"server RSS while a 50 MB upload streamed: baseline {baseline / 1024:.1f} MB, "
                       f"peak {peak / 1024:.1f} MB, growth {growth_mb:.1f} MB ({len(samples)} samples)")
    # Random bytes are not a video: refused at completion, stored nowhere.
    assert status == 422 and reply["error"]["code"] == "invalid_media"
    assert growth_mb < 40, "the body looks buffered in memory"


def test_upkeep_runs_as_one_recurring_job_of_each_kind_shown_to_the_owner_by_kind(server):
    owner = {"api-key": server.api_key}

    def upkeep(kind: str) -> dict | None:
        status, _, body = http(f"{server.base}/api/v1/jobs?kind={kind}", headers=owner)
        assert status == 200, body
        [job] = json.loads(body)["items"]
        return job if job["state"] == "queued" and job.get("started_at") else None

    for kind in ("sweep", "upload_expiry"):
        # Due at start-up, run once, then queued for its next round with no attempt used.
        deadline = time.monotonic() + 30
        while (job := upkeep(kind)) is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert job is not None, f"the {kind} job never ran its first round"
        assert job["attempts"] == 0 and job.get("last_error") is None, job
    status, _, body = http(f"{server.base}/api/v1/jobs?limit=50", headers=owner)
    assert status == 200 and not {item["kind"] for item in json.loads(body)["items"]} & {"sweep", "upload_expiry"}
    onlooker = server.add_user("onlooker")
    status, _, body = http(f"{server.base}/api/v1/jobs?kind=sweep", headers={"api-key": onlooker})
    assert status == 403 and error_code(body) == "forbidden"
