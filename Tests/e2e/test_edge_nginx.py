"""The nginx edge through real nginx (Debian's 1.22, `scripts/ensure-deps.sh test`): the config
`reelhouse edge nginx` prints, in front of a real `reelhouse serve` with really encoded, encrypted
videos. Both ways the edge gets bytes are run: from the media folder (`--media-root`) and, as
with S3 storage, proxied from the API and kept in nginx's cache. What is checked through nginx:
playlists, segments (Range, ETag, If-None-Match, immutable caching) and images; forged 403 and
expired 410; traversal refused; one check per token and file however often a file is fetched;
keys always answered by the API; and a whole video played (master, variant, init, segments, key,
one segment decrypted with `cryptography` and decoded by ffprobe)."""
import base64
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import urljoin

import pytest

from conftest import BIN, RunningServer, http as request, import_json, make_clip, record_measurement, reelhouse
from pykit.edge import NGINX, Edge, play_through, variant
from pykit.server import free_port

# Short token windows so a real expiry happens within the test; every URL used is taken from a
# feed page read when at least FRESH seconds of its window are left.
WINDOW = 12
FRESH = 7
SHORT_WINDOW = {"REELHOUSE_MEDIA_TOKEN_WINDOW": str(WINDOW), "REELHOUSE_MEDIA_TOKEN_MARGIN": "0"}
IMMUTABLE = "public, max-age=31536000, immutable"
CHECK_ROUTE = "/internal/media-auth"
MEDIA_ROUTE = "/media/{token}/{id}/**"


class Library:
    """Two encrypted videos in a data folder nginx's workers can read (when the test runs as
    root they run as `nobody`, so the folder is world-traversable; secret.key stays 0600), served
    by `reelhouse serve` with a short token window."""

    def __init__(self, env: dict = SHORT_WINDOW):
        self.root = Path(tempfile.mkdtemp(prefix="reelhouse-edge-"))
        self.server = None
        try:
            self.root.chmod(0o755)
            self.data = self.root / "data"
            clips = [make_clip(self.root / "clips" / f"edge-{n}.mp4", size="360x640", seconds=5, frequency=440 + 110 * n) for n in range(2)]
            report = import_json(self.data, *clips)
            assert len(report["imported"]) == 2, report
            self.server = RunningServer(self.data, env=env)
            self.owner_key = self.server.key("owner")
            self.viewer_key = self.server.add_user("viewer")
        except BaseException:
            self.close()
            raise

    def feed(self) -> list[dict]:
        """The two posts, by id, from the owner's feed read early enough in a token window that its URLs outlive the test step."""
        while True:
            status, _, body = request(self.server.base + "/api/v1/feed?limit=10", headers={"api-key": self.owner_key})
            assert status == 200, body
            items = [item for item in json.loads(body)["items"] if item["media"]["master"]]
            assert len(items) == 2, items
            if all(item["media"]["expires_at"] - time.time() >= FRESH for item in items):
                return sorted(items, key=lambda item: item["id"])  # the feed's own order is shuffled
            time.sleep(max(0.2, items[0]["media"]["expires_at"] - time.time() + 0.2))

    def hits(self, route: str) -> int:
        """Requests the API has answered on `route` (all statuses), from its /metrics."""
        status, _, body = request(self.server.base + "/metrics", headers={"api-key": self.owner_key})
        assert status == 200
        pattern = re.compile(r'^reelhouse_http_requests_total\{method="GET",route="' + re.escape(route) + r'",status="\w+"\} (\d+)$')
        return sum(int(match.group(1)) for line in body.decode().splitlines() if (match := pattern.match(line)))

    def close(self):
        if self.server is not None:
            self.server.stop()
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="module")
def library():
    if not os.access(NGINX, os.X_OK):
        pytest.fail("nginx is not installed: run scripts/ensure-deps.sh test")
    made = Library()
    try:
        yield made
    finally:
        made.close()


@pytest.fixture(scope="module", params=["media-root", "proxied"])
def edge(request, library):
    """The edge serving from the media folder, then (as with S3 storage) proxying and caching."""
    media_root = library.data / "media" if request.param == "media-root" else None
    running = Edge(library.root / f"edge-{request.param}", library.server.port, media_root)
    running.mode = request.param
    try:
        yield running
    finally:
        running.stop()
    assert "[emerg]" not in running.error_log() and "[alert]" not in running.error_log(), running.error_log()


def test_playlists_segments_and_images_are_served_with_ranges_validators_and_immutable_caching(library, edge):
    item = library.feed()[0]
    url, playlist = variant(edge, item)
    status, headers, body = edge.get(item["media"]["master"])
    assert status == 200 and headers["content-type"] == "application/vnd.apple.mpegurl" and body.startswith(b"#EXTM3U")
    assert headers["cache-control"] == IMMUTABLE

    segment = urljoin(url, playlist.segments[0].uri)
    status, headers, whole = edge.get(segment)
    assert status == 200 and headers["content-type"] == "video/iso.segment"
    assert headers["cache-control"] == IMMUTABLE and headers["accept-ranges"] == "bytes"
    etag = headers["etag"]
    assert etag.startswith('"') and etag.endswith('"')
    # The bytes are the published file's.
    post = item["id"]
    name = segment.split(f"/{post}/", 1)[1]
    assert whole == (library.data / "media" / str(post) / name).read_bytes()

    status, headers, part = edge.get(segment, {"Range": "bytes=100-199"})
    assert status == 206 and part == whole[100:200]
    assert headers["content-range"] == f"bytes 100-199/{len(whole)}" and headers["cache-control"] == IMMUTABLE
    status, headers, _ = edge.get(segment, {"Range": "bytes=-50"})
    assert status == 206 and headers["content-range"] == f"bytes {len(whole) - 50}-{len(whole) - 1}/{len(whole)}"
    status, headers, body = edge.get(segment, {"If-None-Match": etag})
    assert status == 304 and body == b"" and headers["etag"] == etag and headers["cache-control"] == IMMUTABLE
    status, headers, body = edge.get(segment, method="HEAD")
    assert status == 200 and body == b"" and int(headers["content-length"]) == len(whole)

    init = urljoin(url, playlist.segment_map[0].uri)
    status, headers, _ = edge.get(init)
    assert status == 200 and headers["content-type"] == "video/mp4" and headers["cache-control"] == IMMUTABLE

    for image in [item["media"]["poster"], item["media"]["thumbnail"]]:
        status, headers, body = edge.get(image["url"])
        assert status == 200 and headers["content-type"] == "image/jpeg" and body[:3] == b"\xff\xd8\xff"
        assert headers["cache-control"] == IMMUTABLE
        assert "content-disposition" not in headers

    # The download is saved under the post's name, as the API itself names it, not download.mp4.
    download = item["media"]["download"]
    assert download and download.endswith("/download.mp4"), item["media"]
    _, direct, _ = request(library.server.base + download)
    status, headers, body = edge.get(download)
    assert status == 200 and body[4:8] == b"ftyp"
    named = headers["content-disposition"]
    assert named == {name.lower(): value for name, value in direct.items()}["content-disposition"], (named, direct)
    assert named.startswith(f'attachment; filename="{item["folder_name"]}') and "download.mp4" not in named, named


def test_each_file_is_checked_once_per_token_however_often_it_is_fetched(library, edge):
    item = library.feed()[1]
    url, playlist = variant(edge, item)
    files = [urljoin(url, playlist.segment_map[0].uri)] + [urljoin(url, s.uri) for s in playlist.segments]
    assert len(files) >= 3
    checks, served_by_api = library.hits(CHECK_ROUTE), library.hits(MEDIA_ROUTE)
    for _viewer in range(3):
        for file in files:
            assert edge.get(file)[0] == 200
            assert edge.get(file, {"Range": "bytes=0-9"})[0] == 206
            assert edge.get(file, method="HEAD")[0] == 200
    asked = library.hits(CHECK_ROUTE) - checks
    assert asked == len(files), f"{asked} checks for {len(files)} files fetched {9 * len(files)} times"
    fetched = library.hits(MEDIA_ROUTE) - served_by_api
    if edge.mode == "media-root":
        assert fetched == 0, "nginx sent the bytes itself"
    else:
        assert fetched == len(files), "proxied: each file fetched from the API once, then from nginx's cache"
        assert edge.get(files[-1])[1]["x-reelhouse-edge-cache"] == "HIT"


def test_a_new_token_is_checked_again_but_the_bytes_are_not_fetched_again(library, edge):
    """The answer is kept per token; with proxied media the file itself is kept once for every token."""
    item = library.feed()[0]
    url, playlist = variant(edge, item)
    segment = urljoin(url, playlist.segments[-1].uri)
    assert edge.get(segment)[0] == 200
    before = library.hits(CHECK_ROUTE), library.hits(MEDIA_ROUTE)
    # The next window's token names the same file under another URL.
    time.sleep(max(0, item["media"]["expires_at"] - time.time() + 0.5))
    fresh = next(i for i in library.feed() if i["id"] == item["id"])
    assert fresh["media"]["master"] != item["media"]["master"]
    new_segment = segment.replace(item["media"]["master"].rsplit("/", 1)[0], fresh["media"]["master"].rsplit("/", 1)[0])
    for _ in range(3):
        assert edge.get(new_segment)[0] == 200
    assert library.hits(CHECK_ROUTE) - before[0] == 1, "one check for the new token"
    assert library.hits(MEDIA_ROUTE) - before[1] == 0, "the bytes came from nginx (its media folder or its cache)"


def test_forged_tokens_and_signatures_are_403_and_an_expired_token_410(library, edge):
    item = library.feed()[0]
    master = item["media"]["master"]
    token = master.split("/")[2]
    forged = token[:-2] + ("AA" if token[-2:] != "AA" else "BB")
    other = library.feed()[1]
    cases = [
        master.replace(token, forged),
        master.replace(f"/{item['id']}/", f"/{other['id']}/"),  # a real token for another post
        "/img/AAAAAAAAAAAAAAAA/" + item["media"]["poster"]["url"].split("/", 3)[3],  # a made-up image signature
    ]
    for url in cases:
        for _ in range(2):  # the second answer comes from nginx's memory of the first
            status, headers, body = edge.get(url)
            assert status == 403, (url, status, body)
            assert json.loads(body)["error"]["code"] == "forbidden" and headers["content-type"] == "application/json"

    url, playlist = variant(edge, item)
    segment = urljoin(url, playlist.segments[0].uri)
    assert edge.get(segment)[0] == 200  # checked and kept while the token lives...
    time.sleep(max(0, item["media"]["expires_at"] - time.time() + 1.5))
    for _ in range(2):  # ...and no longer: the kept answer ends with the token
        status, headers, body = edge.get(segment)
        assert status == 410, (status, body)
        assert json.loads(body)["error"]["code"] == "expired" and headers["cache-control"] == "no-store"
    status, _, _ = edge.get(item["media"]["poster"]["url"])
    assert status == 200, "an image signature does not expire"


def test_traversal_and_encoded_paths_are_refused_without_leaking_anything(library, edge):
    item = library.feed()[0]
    base = item["media"]["master"].rsplit("/", 1)[0]
    token = base.split("/")[2]
    image = item["media"]["poster"]["url"]
    secrets = [(library.data / "secret.key").read_bytes(), b"SQLite format 3", b"root:x:0:0"]
    paths = [
        f"{base}/240p/../master.m3u8", f"{base}/..%2fmaster.m3u8", f"{base}/..%2f..%2f..%2fsecret.key", f"{base}/%2e%2e/%2e%2e/secret.key",
        f"{base}/%2e%2e%2f%2e%2e%2fsecret.key", f"{base}/%252e%252e/%252e%252e/secret.key", f"{base}/240p%2fseg_00000.m4s",
        f"{base}/240p%252fseg_00000.m4s", f"{base}/240p//seg_00000.m4s", f"{base}/./master.m3u8", f"{base}/master.m3u8%00",
        f"{base}/../../secret.key", f"{base}/../../reelhouse.sqlite", f"/media/{token}/../../../etc/passwd", f"{base}/..\\..\\secret.key",
        f"{base}/%5c..%5c..%5csecret.key", f"{base}/%c0%ae%c0%ae/%c0%ae%c0%ae/secret.key", f"{base}/.published", f"{base}/..",
        f"/img/../media/{token}/{item['id']}/master.m3u8", image.rsplit("/", 1)[0] + "/..%2f..%2fsecret.key",
        image.rsplit("/", 1)[0] + "/%2e%2e", f"/%6dedia/{token}/{item['id']}/master.m3u8", f"//media/{token}/{item['id']}/master.m3u8",
        "/../../../etc/passwd", "/internal/media-auth", f"/media/{token}/{item['id']}/key/../master.m3u8",
    ]
    for path in paths:
        status, _, body = edge.get(path)
        assert 400 <= status < 500, (path, status)
        assert not any(secret in body for secret in secrets), path
    # The API's internal check is not reachable through the edge, whatever the client sends.
    status, headers, _ = edge.get("/internal/media-auth", {"X-Original-URI": item["media"]["master"]})
    assert status == 404 and "x-reelhouse-path" not in headers


def test_keys_are_answered_by_the_api_on_every_request(library, edge):
    item = library.feed()[0]
    key_url = item["media"]["prefetch"]["key"]
    assert key_url.endswith("/key") and item["media"]["encrypted"]
    checks, answered = library.hits(CHECK_ROUTE), library.hits(MEDIA_ROUTE)
    keys = []
    for viewer in [library.owner_key, library.viewer_key, library.owner_key]:
        status, headers, body = edge.get(key_url, {"api-key": viewer})
        assert status == 200 and len(body) == 16
        assert headers["cache-control"] == "private, no-store" and "x-reelhouse-edge-cache" not in headers
        keys.append(body)
    assert len(set(keys)) == 1
    assert library.hits(MEDIA_ROUTE) - answered == 3, "each key request reached the API"
    assert library.hits(CHECK_ROUTE) - checks == 0, "keys are never checked (or kept) by the edge"
    status, _, _ = edge.get(key_url.replace(key_url.split("/")[2], "A" * 32))
    assert status == 403


def test_a_video_plays_through_the_edge(library, edge, tmp_path):
    """master → variant → init → segments → key, all through nginx; every segment decrypted
    independently and the whole decoded by ffprobe."""
    stream = play_through(edge, library.feed()[1], tmp_path / "played.mp4")
    assert stream["codec_name"] == "h264" and int(stream["nb_read_frames"]) >= 100, stream


def test_the_command_refuses_values_that_would_change_the_config():
    for args in [["--listen", "80; include /etc/passwd"], ["--upstream", "127.0.0.1"], ["--upstream", "127.0.0.1:8080 backup"],
                 ["--media-root", "relative/media"], ["--cache-dir", "/tmp/x;y"]]:
        result = subprocess.run([BIN, "edge", "nginx", *args], capture_output=True, text=True)
        assert result.returncode != 0 and result.stdout == "", args
        assert "--" + args[0].lstrip("-") in result.stderr, result.stderr


def test_upload_chunks_larger_than_nginx_buffers_stream_through_to_the_api(library, edge):
    """tus through the edge: a 3 MB chunk (nginx's default limit is 1 MB) is streamed to the API."""
    tus = {"api-key": library.owner_key, "Tus-Resumable": "1.0.0"}
    size = 5 * 1024 * 1024
    status, headers, body = edge.get("/api/v1/uploads", {**tus, "Upload-Length": str(size),
                                     "Upload-Metadata": "filename " + base64.b64encode(b"big.mp4").decode()}, method="POST")
    assert status == 201, body
    location = headers["location"]
    chunk = os.urandom(3 * 1024 * 1024)
    status, headers, body = edge.get(location, {**tus, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"},
                                     method="PATCH", body=chunk)
    assert status == 204 and headers["upload-offset"] == str(len(chunk)), (status, body)
    status, headers, _ = edge.get(location, tus, method="HEAD")
    assert status == 200 and headers["upload-offset"] == str(len(chunk))
    assert edge.get(location, tus, method="DELETE")[0] == 204


def test_a_dead_upstream_is_passed_over(library):
    """Several --upstream: with the first node down every request still reaches the live one."""
    # In the library's folder: nginx's workers (nobody, when run as root) must reach the cache.
    running = Edge(library.root / "edge-failover", library.server.port, library.data / "media", upstreams=[free_port(), library.server.port])
    try:
        item = library.feed()[0]
        for _ in range(6):
            status, _, body = running.get("/api/v1/feed?limit=2", {"api-key": library.owner_key})
            assert status == 200, body
            assert running.get(item["media"]["master"])[0] == 200
            assert running.get(item["media"]["prefetch"]["key"])[0] == 200
    finally:
        running.stop()


def test_a_disabled_member_and_a_rotated_secret_are_refused_at_the_edge():
    """Revocation through nginx with production lifetimes (issue 28.2): the default token window,
    a node remembering a viewer's access 20 s and the edge an allowed answer 30 s. A member is
    disabled: a URL the edge had just allowed them is refused within 60 s. Then the secret is
    rotated (the API restarted with a new one, the edge's config printed again and reloaded): a
    URL whose allowed answer the edge still holds is refused at once, and a fresh one plays."""
    made = Library(env={})
    edge = None
    try:
        edge = Edge(made.root / "edge-revocation", made.server.port, made.data / "media", data=made.data)

        def master_path(key: str) -> str:
            status, _, body = request(made.server.base + "/api/v1/feed?limit=1", headers={"api-key": key})
            assert status == 200, body
            return json.loads(body)["items"][0]["media"]["master"].split("?")[0]

        members = master_path(made.viewer_key)
        for _ in range(2):  # checked once, then answered from the edge's kept answer
            assert edge.get(members)[0] == 200
        reelhouse(made.data, "user", "disable", "viewer")
        disabled = time.monotonic()
        while (status := edge.get(members)[0]) == 200 and time.monotonic() - disabled < 70:
            time.sleep(0.5)
        refused_after = time.monotonic() - disabled
        assert status == 403 and refused_after <= 60, (status, refused_after)
        record_measurement(f"edge: a disabled member's URL refused {refused_after:.1f} s after `user disable` (at most 20 + 30 s)")

        owners = master_path(made.owner_key)
        assert edge.get(owners)[0] == 200
        allowed = time.monotonic()
        port = made.server.port
        made.server.stop()
        (made.data / "secret.key").write_bytes(os.urandom(32))
        made.server = RunningServer(made.data, port=port)
        edge.reload()
        status, headers, body = edge.get(owners)
        since = time.monotonic() - allowed
        assert since < 30, f"the rotation took {since:.1f} s: the edge's kept answer (30 s) had ended by itself, so this proves nothing"
        assert status == 403, (status, body, f"{since:.1f} s after the edge allowed it under the old secret")
        assert edge.get(master_path(made.owner_key))[0] == 200, "a URL signed with the new secret plays"
        record_measurement(f"edge: a URL allowed {since:.1f} s before a secret rotation is refused once the edge reloads")
    finally:
        if edge is not None:
            edge.stop()
        made.close()
