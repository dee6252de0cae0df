"""tus 1.0 uploads against a real `reelhouse serve`: every status of the protocol, interruption
and resume over a raw socket, serialised concurrent PATCHes, expiry, checksums, the tuspy
client, and a completed upload followed through its job to a published post."""
import base64
import hashlib
import json
import os
import socket
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from conftest import RunningServer, db, http, make_clip
from test_bad_inputs import MAX_DURATION, MAX_PIXELS, build_bad_folder

TUS = {"Tus-Resumable": "1.0.0"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # The same limits as the import bad-input test, so its corpus is refused for the same reasons.
    running = RunningServer(tmp_path_factory.mktemp("uploads") / "data",
                            env={"REELHOUSE_MAX_DURATION": MAX_DURATION, "REELHOUSE_MAX_IMAGE_PIXELS": MAX_PIXELS})
    running.api_key = running.key()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def clip(tmp_path_factory) -> Path:
    return make_clip(tmp_path_factory.mktemp("clips") / "beach day.mp4", seconds=2)


def auth(server, extra: dict | None = None, key: str | None = None) -> dict:
    return {"api-key": key or server.api_key, **TUS, **(extra or {})}


def metadata(**values) -> str:
    return ",".join(f"{k} {base64.b64encode(str(v).encode()).decode()}" for k, v in values.items())


def create(server, length: int, meta: str = "", extra: dict | None = None, body: bytes | None = None, key: str | None = None):
    headers = auth(server, {"Upload-Length": str(length), **({"Upload-Metadata": meta} if meta else {}), **(extra or {})}, key)
    if body is not None:
        headers["Content-Type"] = "application/offset+octet-stream"
    return http(server.base + "/api/v1/uploads", "POST", headers, body)


def new_upload(server, length: int, **meta) -> str:
    status, headers, body = create(server, length, metadata(**meta))
    assert status == 201, body
    return headers["Location"]


def patch(server, location: str, offset: int, chunk: bytes, extra: dict | None = None, key: str | None = None):
    headers = auth(server, {"Upload-Offset": str(offset), "Content-Type": "application/offset+octet-stream", **(extra or {})}, key)
    return http(server.base + location, "PATCH", headers, chunk)


def head(server, location: str, key: str | None = None):
    return http(server.base + location, "HEAD", auth(server, key=key))


def error_code(body: bytes) -> str:
    return json.loads(body)["error"]["code"]


def upload_files(server) -> set[str]:
    folder = server.data / "uploads"
    return {p.name for p in folder.iterdir()} if folder.exists() else set()


def wait_for_job(server, job_id: int, timeout: float = 240) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, _, body = http(f"{server.base}/api/v1/jobs/{job_id}", headers={"api-key": server.api_key})
        assert status == 200, body
        job = json.loads(body)
        if job["state"] in ("succeeded", "failed"):
            return job
        time.sleep(0.3)
    raise AssertionError(f"job {job_id} did not finish")


# --- discovery and creation -------------------------------------------------------------

def test_options_advertises_version_extensions_limit_and_checksums(server):
    status, headers, _ = http(server.base + "/api/v1/uploads", "OPTIONS", {"api-key": server.api_key})
    assert status == 204
    assert headers["Tus-Version"] == "1.0.0" and headers["Tus-Resumable"] == "1.0.0"
    assert set(headers["Tus-Extension"].split(",")) >= {"creation", "creation-with-upload", "termination", "expiration", "checksum"}
    assert headers["Tus-Max-Size"] == "50000000"
    assert set(headers["Tus-Checksum-Algorithm"].split(",")) == {"sha1", "sha256"}


def test_uploads_need_credentials(server):
    status, headers, body = http(server.base + "/api/v1/uploads", "POST", {**TUS, "Upload-Length": "10"})
    assert status == 401 and error_code(body) == "unauthorized"
    assert headers["Tus-Resumable"] == "1.0.0"


@pytest.mark.parametrize("version", [None, "0.2.2", "2.0.0"])
def test_missing_or_unsupported_tus_version_is_412(server, version):
    headers = {"api-key": server.api_key, "Upload-Length": "10"}
    if version:
        headers["Tus-Resumable"] = version
    status, _, body = http(server.base + "/api/v1/uploads", "POST", headers)
    assert status == 412 and error_code(body) == "precondition_failed"


def test_missing_length_and_over_the_limit_are_413_with_the_limit(server):
    status, _, body = http(server.base + "/api/v1/uploads", "POST", auth(server))
    assert status == 413 and "50 MB" in json.loads(body)["error"]["message"]
    status, _, body = create(server, 50_000_001)
    assert status == 413
    message = json.loads(body)["error"]["message"]
    assert "50 MB" in message and "50000000 bytes" in message


@pytest.mark.parametrize("length", ["-1", "abc", "1.5", "", "99999999999999999999999"])
def test_malformed_length_is_400(server, length):
    status, _, body = http(server.base + "/api/v1/uploads", "POST", auth(server, {"Upload-Length": length}))
    assert status == 400, body


@pytest.mark.parametrize("meta", ["filter " + base64.b64encode(b"sepia").decode(), "key !!notbase64!!", "a YQ==,a YQ==",
                                  "tags " + base64.b64encode(b"ok," + b"x" * 65).decode()])
def test_bad_metadata_is_400(server, meta):
    status, _, body = create(server, 10, meta)
    assert status == 400 and error_code(body) == "bad_request", body


def test_a_key_without_a_value_is_allowed(server):
    assert create(server, 10, "filename,description " + base64.b64encode(b"hi").decode())[0] == 201


def test_creation_sets_location_expiry_and_zero_offset(server):
    status, headers, _ = create(server, 1000, metadata(filename="a.mp4"))
    assert status == 201
    location = headers["Location"]
    assert location.startswith("/api/v1/uploads/") and len(location.rsplit("/", 1)[1]) == 32
    assert headers["Upload-Expires"].endswith("GMT")
    status, headers, _ = head(server, location)
    assert status == 200
    assert headers["Upload-Offset"] == "0" and headers["Upload-Length"] == "1000"
    assert headers["Cache-Control"] == "no-store"


# --- PATCH rules --------------------------------------------------------------------------

def test_patch_statuses(server):
    location = new_upload(server, 100)
    status, _, _ = http(server.base + location, "PATCH", auth(server, {"Upload-Offset": "0", "Content-Type": "text/plain"}), b"x")
    assert status == 400
    assert patch(server, location, -1, b"x")[0] == 400
    status, _, body = patch(server, location, 5, b"x")
    assert status == 409 and "0 bytes" in json.loads(body)["error"]["message"]
    assert patch(server, "/api/v1/uploads/" + "0" * 32, 0, b"x")[0] == 404
    status, headers, _ = patch(server, location, 0, b"0123456789")
    assert status == 204 and headers["Upload-Offset"] == "10"
    # Past Upload-Length: 413, and nothing of that body is kept.
    status, _, _ = patch(server, location, 10, b"y" * 95)
    assert status == 413
    assert head(server, location)[1]["Upload-Offset"] == "10"


@pytest.mark.parametrize("name", ["..%2F..%2Fetc%2Fpasswd", "%2e%2e", "..%5C..%5Cwindows", "ABCDEF" * 6, "0" * 31 + "g", "%C0%AE%C0%AE"])
def test_hostile_upload_ids_are_404(server, name):
    status, _, _ = http(f"{server.base}/api/v1/uploads/{name}", "HEAD", auth(server))
    assert status == 404


def test_someone_elses_upload_is_404(server):
    location = new_upload(server, 10)
    other = server.add_user("mallory")
    assert head(server, location, key=other)[0] == 404
    assert patch(server, location, 0, b"x", key=other)[0] == 404
    assert http(server.base + location, "DELETE", auth(server, key=other))[0] == 404
    assert head(server, location)[0] == 200


def test_checksums_accept_a_match_and_reject_a_mismatch_with_460(server):
    location = new_upload(server, 8)
    good = base64.b64encode(hashlib.sha1(b"abcd").digest()).decode()
    assert patch(server, location, 0, b"abcd", {"Upload-Checksum": f"sha1 {good}"})[0] == 204
    wrong = base64.b64encode(hashlib.sha256(b"something else").digest()).decode()
    status, _, body = patch(server, location, 4, b"efgh", {"Upload-Checksum": f"sha256 {wrong}"})
    assert status == 460 and error_code(body) == "checksum_mismatch"
    assert head(server, location)[1]["Upload-Offset"] == "4"
    assert patch(server, location, 4, b"efgh", {"Upload-Checksum": "md5 " + base64.b64encode(b"x" * 16).decode()})[0] == 400
    path = server.data / "uploads" / (location.rsplit("/", 1)[1] + ".bin")
    assert path.read_bytes() == b"abcd"


def test_termination_removes_the_upload(server):
    location = new_upload(server, 100)
    assert patch(server, location, 0, b"z" * 10)[0] == 204
    upload_id = location.rsplit("/", 1)[1]
    assert any(name.startswith(upload_id) for name in upload_files(server))
    status, headers, _ = http(server.base + location, "DELETE", auth(server))
    assert status == 204 and headers["Tus-Resumable"] == "1.0.0"
    assert head(server, location)[0] == 404
    assert not any(name.startswith(upload_id) for name in upload_files(server))


def test_an_expired_upload_is_410_and_removed(server):
    location = new_upload(server, 100)
    upload_id = location.rsplit("/", 1)[1]
    record_path = server.data / "uploads" / f"{upload_id}.json"
    record = json.loads(record_path.read_text())
    record["expiresAt"] = time.time() - 1
    record_path.write_text(json.dumps(record))
    assert head(server, location)[0] == 410
    assert patch(server, location, 0, b"x")[0] in (404, 410)
    assert not any(name.startswith(upload_id) for name in upload_files(server))


def raw_patch(server, location: str, offset: int, body: bytes, send: int | None = None, pause: float = 0.0,
              then_close: bool = False):
    """A PATCH over a plain socket: sends `send` bytes of `body`, optionally pauses, then either
    closes the connection (an interruption) or sends the rest. Returns the status, or None."""
    sock = socket.create_connection(("127.0.0.1", server.port))
    head_lines = [f"PATCH {location} HTTP/1.1", f"Host: 127.0.0.1:{server.port}", f"api-key: {server.api_key}",
                  "Tus-Resumable: 1.0.0", "Content-Type: application/offset+octet-stream",
                  f"Upload-Offset: {offset}", f"Content-Length: {len(body)}", "", ""]
    sock.sendall("\r\n".join(head_lines).encode())
    first = body if send is None else body[:send]
    sock.sendall(first)
    if pause:
        time.sleep(pause)
    if then_close:
        sock.close()
        return None
    sock.sendall(body[len(first):])
    sock.settimeout(60)
    reply = sock.recv(4096).decode(errors="replace")
    sock.close()
    return int(reply.split(" ", 2)[1])


def test_concurrent_patches_to_one_upload_are_serialised(server):
    location = new_upload(server, 400_000)
    first_body, second_body = b"A" * 200_000, b"B" * 200_000
    results = {}
    slow = threading.Thread(target=lambda: results.setdefault("slow", raw_patch(server, location, 0, first_body, send=100_000, pause=1.5)))
    slow.start()
    # The slow PATCH holds the upload's lock from its first byte on: wait until its bytes reach
    # the file (not for a fixed time, which a loaded machine overruns) before the second starts.
    part = server.data / "uploads" / (location.rsplit("/", 1)[1] + ".bin")
    deadline = time.monotonic() + 30
    while not (part.exists() and part.stat().st_size > 0) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert part.exists() and part.stat().st_size > 0, "the first PATCH's bytes never arrived"
    results["fast"] = patch(server, location, 0, second_body)[0]
    slow.join()
    # The second waited for the first, then found the offset moved.
    assert results == {"slow": 204, "fast": 409}
    path = server.data / "uploads" / (location.rsplit("/", 1)[1] + ".bin")
    assert path.read_bytes() == first_body


@pytest.mark.sqlite_only
def test_interrupted_patch_resumes_from_the_bytes_that_arrived_and_publishes(server, clip):
    data = clip.read_bytes()
    location = new_upload(server, len(data), filename=clip.name, filetype="video/mp4", description="Resumed on a bad network",
                          tags="beach,resume", filter="mono")
    assert raw_patch(server, location, 0, data, send=len(data) // 2, pause=0.3, then_close=True) is None
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        status, headers, _ = head(server, location)
        if status == 200 and int(headers["Upload-Offset"]) > 0:
            break
        time.sleep(0.1)
    offset = int(head(server, location)[1]["Upload-Offset"])
    assert 0 < offset <= len(data) // 2
    status, headers, body = patch(server, location, offset, data[offset:])
    assert status == 204, body
    assert headers["Upload-Offset"] == str(len(data))
    job_id, post_id = int(headers["Upload-Job-Id"]), int(headers["Upload-Post-Id"])
    assert wait_for_job(server, job_id)["state"] == "succeeded"
    status, _, body = http(f"{server.base}/api/v1/videos/{post_id}", headers={"api-key": server.api_key})
    assert status == 200, body
    video = json.loads(body)
    assert video["description"] == "Resumed on a bad network"
    assert {tag["name"] for tag in video["tags"]} >= {"beach", "resume"}
    with db(server.data) as connection:
        row = connection.execute("SELECT filter, created_by, folder_name FROM posts WHERE id = ?", (post_id,)).fetchone()
    assert row["filter"] == "mono" and row["created_by"] is not None
    assert row["folder_name"].startswith("beach-day")
    # The finished upload's bytes moved into the library; only its small record remains.
    upload_id = location.rsplit("/", 1)[1]
    assert f"{upload_id}.bin" not in upload_files(server)
    status, headers, _ = head(server, location)
    assert status == 200 and headers["Upload-Post-Id"] == str(post_id)


def test_creation_with_upload_in_one_request(server, clip):
    data = clip.read_bytes()
    status, headers, body = create(server, len(data), metadata(filename="again.mp4"), body=data)
    assert status == 201, body
    assert headers["Upload-Offset"] == str(len(data))
    post_id = int(headers["Upload-Post-Id"])
    # The same bytes again: the existing post comes back instead of a duplicate.
    status, headers, body = create(server, len(data), metadata(filename="third.mp4"), body=data)
    assert status == 201 and int(headers["Upload-Post-Id"]) == post_id


# --- bad input: the reason comes back and nothing is stored ------------------------------

@pytest.mark.sqlite_only
def test_each_bad_input_returns_its_reason_and_stores_nothing(server, tmp_path):
    """The pipeline's bad-input corpus (see test_bad_inputs.py), uploaded one by one."""
    expect = build_bad_folder(tmp_path / "bad", tmp_path / "scratch")
    with db(server.data) as connection:
        before = connection.execute("SELECT COUNT(*) FROM posts").fetchone()[0]
    sources_before = set(os.listdir(server.data / "sources"))
    uploads_before = upload_files(server)
    for name, phrase in expect.items():
        content = (tmp_path / "bad" / name).read_bytes()
        status, _, body = create(server, len(content), metadata(filename=name), body=content)
        assert status == 422, (name, status, body)
        error = json.loads(body)["error"]
        assert error["code"] == "invalid_media", (name, error)
        assert phrase.lower() in error["message"].lower(), (name, error["message"], phrase)
    with db(server.data) as connection:
        assert connection.execute("SELECT COUNT(*) FROM posts").fetchone()[0] == before
    assert set(os.listdir(server.data / "sources")) == sources_before
    assert upload_files(server) == uploads_before
    assert not list((server.data / "publishing").glob("*"))
    assert http(server.base + "/health")[0] == 200


# --- an independent client ----------------------------------------------------------------

def test_tuspy_uploads_is_interrupted_and_resumes(server, tmp_path):
    from tusclient import client as tus_client
    from tusclient.uploader import Uploader

    clip = make_clip(tmp_path / "tuspy clip.mp4", seconds=3, size="480x854", source="mandelbrot")
    size = clip.stat().st_size
    chunk = max(16_384, size // 6)
    tus = tus_client.TusClient(server.base + "/api/v1/uploads", headers={"api-key": server.api_key})
    first = Uploader(file_path=str(clip), client=tus, chunk_size=chunk, metadata={"filename": clip.name, "tags": "tuspy"})
    first.upload_chunk()
    first.upload_chunk()
    url = first.url
    assert 0 < first.offset < size
    del first  # the process "dies" here

    resumed = Uploader(file_path=str(clip), client=tus, chunk_size=chunk, url=url)
    assert resumed.offset == 2 * chunk
    resumed.upload()
    assert resumed.offset == size
    status, headers, _ = head(server, urlparse(url).path)
    assert status == 200
    job = wait_for_job(server, int(headers["Upload-Job-Id"]))
    assert job["state"] == "succeeded"
    status, _, body = http(f"{server.base}/api/v1/videos/{headers['Upload-Post-Id']}", headers={"api-key": server.api_key})
    assert status == 200 and any(tag["name"] == "tuspy" for tag in json.loads(body)["tags"])


def test_a_creation_whose_first_chunk_fails_leaves_nothing(server):
    before = upload_files(server)
    wrong = base64.b64encode(hashlib.sha1(b"other").digest()).decode()
    status, headers, body = create(server, 100, body=b"x" * 10, extra={"Upload-Checksum": f"sha1 {wrong}"})
    assert status == 460 and "Location" not in headers
    assert upload_files(server) == before
