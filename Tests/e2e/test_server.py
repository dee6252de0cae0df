"""`make run`-equivalent startup on a temp folder, then real HTTP: login, feed, and ffmpeg
(as a plain HTTP client) playing the signed master playlist."""
import json
import os
import subprocess
import time

import m3u8
import pytest

from conftest import BIN, ON_POSTGRES, RunningServer, http, library_environment, reelhouse
from pykit.api import sign_in


def request(url: str, method: str = "GET", headers: dict | None = None, body: dict | None = None):
    return http(url, method, headers, body, timeout=30)


DEMO_READY = "Demo library ready in "


def wait_for_text(running: RunningServer, text: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while text not in running.output():
        assert running.process.poll() is None and time.monotonic() < deadline, running.output()
        time.sleep(0.2)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`make run` on an empty folder, stopped (SIGTERM) once the demo's first posts are
    published, then started again, which finishes the demo; the tests read it whole. Yields the
    second server's address, the data folder, the owner's password and the first start's output
    (the address is the same), and every start's output by name."""
    data = tmp_path_factory.mktemp("served") / "data"
    first = RunningServer(data, args=("--demo",))
    outputs = {"answered": first.output()}
    try:
        wait_for_text(first, "published post", 300)
    finally:
        first.stop()
    outputs["first"] = first.output()
    # --compat-routes: seed 000's routes are off by default; one test here calls them.
    running = RunningServer(data, args=("--demo", "--compat-routes"), port=first.port)
    try:
        wait_for_text(running, DEMO_READY, 600)
        outputs["second"] = running.output()
        yield running.base, running.data, first.password, outputs["first"], outputs
    finally:
        running.stop()


def login(base: str, password: str) -> str:
    cookie, set_cookie = sign_in(base, "owner", password)
    assert "HttpOnly" in set_cookie and "SameSite=Lax" in set_cookie
    return cookie


def test_startup_prints_url_and_one_time_credentials(server):
    base, data, password, output, _ = server
    assert f"listening on {base}/" in output
    assert "username: owner" in output and len(password) >= 12
    # The library is where the settings say: the data folder's SQLite file, or PostgreSQL.
    assert (data / "reelhouse.sqlite").exists() != ON_POSTGRES


def test_the_demo_library_is_made_while_the_server_answers_and_survives_a_stop(server):
    """A first `make run` answers at once (the web client says the library is being prepared)
    instead of refusing connections for the minute ffmpeg needs. Stopped part-way, it stops at
    once, and the next start finishes the demo (test_demo_library_is_varied_and_ready then finds
    every post exactly once)."""
    _, data, _, _, outputs = server
    assert DEMO_READY not in outputs["answered"], outputs["answered"]
    assert "generating a demo library" in outputs["first"] and DEMO_READY not in outputs["first"], outputs["first"]
    assert "stopped before it was ready; the next serve --demo finishes it." in outputs["first"], outputs["first"]
    second = outputs["second"]
    assert "Finishing the demo library begun in" in second and "username: owner" not in second, second
    assert second.index("listening on") < second.index(DEMO_READY), second
    demo = data / "demo-source"
    assert not (demo / ".rendering").exists(), "the work folder goes when the demo is complete"
    assert sorted(p.name for p in demo.iterdir()) == ["archive", "clips", "stills"]


def test_demo_library_is_varied_and_ready(server):
    base, data, password, _, _ = server
    cookie = login(base, password)
    items = {}
    cursor = None
    for _ in range(10):
        status, _, body = request(base + "/api/v1/feed?limit=50" + (f"&cursor={cursor}" if cursor else ""), headers={"Cookie": cookie})
        assert status == 200
        page = json.loads(body)
        for item in page["items"]:
            items[item["id"]] = item
        cursor = page["next_cursor"]
        if len(items) >= 15:
            break
    kinds = [item["kind"] for item in items.values()]
    assert kinds.count("video") == 12 and kinds.count("image") == 2 and kinds.count("carousel") == 1, kinds
    carousel = next(i for i in items.values() if i["kind"] == "carousel")
    assert len(carousel["media"]["images"]) == 3
    assert any(i["width"] > i["height"] for i in items.values() if i["kind"] == "video")
    assert any(i["height"] > i["width"] for i in items.values() if i["kind"] == "video")
    assert all(i["description"] for i in items.values())
    assert any(i.get("uploader") for i in items.values())  # absent when unknown (the carousel has none)
    # Each post keeps its own tags; none is on every post (it would explain every For You pick).
    counts = {}
    for item in items.values():
        for tag in item["tags"]:
            counts[tag["name"]] = counts.get(tag["name"], 0) + 1
    assert {"retro", "fractal", "math"} <= set(counts) and max(counts.values()) < len(items), counts
    # One clip has subtitles in two languages to try CC on.
    captioned = [i for i in items.values() if i.get("captions")]
    assert [sorted(c["language"] for c in i["captions"]) for i in captioned] == [["en", "fr"]], captioned


def test_demo_library_has_a_tray_of_saved_stories(server):
    """The demo's instaloader-style story archive comes in as stories (never feed posts)."""
    base, _, password, _, _ = server
    cookie = login(base, password)
    status, _, body = request(base + "/api/v1/stories", headers={"Cookie": cookie})
    assert status == 200
    tray = json.loads(body)["tray"]
    assert sorted(entry["user"] for entry in tray) == ["colour.lab", "fractal.friends", "test.card.club"]
    assert all(entry["items_count"] == 2 and not entry["all_seen"] and entry["avatar"] for entry in tray), tray
    assert [entry["user"] for entry in tray][0] == "test.card.club", "newest first among unseen"
    status, _, body = request(base + "/api/v1/stories/fractal.friends", headers={"Cookie": cookie})
    page = json.loads(body)
    assert [item["kind"] for item in page["items"]] == ["video", "photo"]
    assert page["items"][0]["media"]["master"] and page["items"][1]["media"]["images"]
    assert all(item.get("expires_at") is None for item in page["items"]), "archived stories stay (no expiry sent)"


def test_ffmpeg_plays_the_signed_master_playlist_over_http(server, tmp_path):
    base, _, password, _, _ = server
    cookie = login(base, password)
    status, _, body = request(base + "/api/v1/feed?kind=video&limit=1", headers={"Cookie": cookie})
    item = json.loads(body)["items"][0]
    master_url = base + item["media"]["master"]
    master = m3u8.load(master_url)
    assert master.is_variant and len(master.playlists) >= 2
    # Plain HTTP, no headers: the token in the path is the credential.
    out = subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", master_url,
                          "-map", "0:v:0", "-f", "framemd5", "-"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    frames = [line for line in out.stdout.splitlines() if line and not line.startswith("#")]
    assert len(frames) >= int(item["duration"] * 30) - 2
    # The key is private; segments are public and immutable.
    key_url = base + item["media"]["prefetch"]["key"]
    status, headers, key = request(key_url)
    assert status == 200 and len(key) == 16 and headers["Cache-Control"] == "private, no-store"
    status, headers, _ = request(base + item["media"]["prefetch"]["first_segment"], headers={"Range": "bytes=0-99"})
    assert status == 206 and headers["Content-Range"].startswith("bytes 0-99/")
    assert "immutable" in headers["Cache-Control"]


def test_cli_accounts_and_keys_against_the_running_server(server):
    base, data, _, _, _ = server
    add = subprocess.run([BIN, "user", "add", "viewer", "--data", str(data), "--bcrypt-cost", "4"],
                         input="viewer-password\n", capture_output=True, text=True, env={**os.environ, **library_environment(data)})
    assert add.returncode == 0, add.stderr
    key = reelhouse(data, "key", "create", "--user", "viewer").stdout
    assert key.count("\n") == 1 and key.startswith("rh_")
    key = key.strip()
    status, _, body = request(base + "/api/v1/me", headers={"api-key": key})
    assert status == 200 and json.loads(body)["name"] == "viewer"
    # Seed 000's feed route with its header.
    status, _, body = request(base + "/api/feed/random", headers={"api-key": key})
    videos = json.loads(body)
    assert status == 200 and isinstance(videos, list) and {"id", "folder_name", "is_favorited", "rating"} <= set(videos[0])
    duplicate = subprocess.run([BIN, "user", "add", "viewer", "--data", str(data)], input="another-password\n",
                               capture_output=True, text=True, env={**os.environ, **library_environment(data)})
    assert duplicate.returncode != 0 and "already exists" in duplicate.stderr


def test_unauthenticated_api_is_401_with_the_error_shape(server):
    base, _, _, _, _ = server
    status, _, body = request(base + "/api/v1/feed")
    assert status == 401
    assert json.loads(body)["error"]["code"] == "unauthorized"


def test_metrics_are_owner_only_and_count_requests_and_jobs(server):
    base, _, password, _, _ = server
    assert request(base + "/metrics")[0] == 401
    cookie = login(base, password)
    status, headers, body = request(base + "/metrics", headers={"Cookie": cookie})
    text = body.decode()
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    assert 'reelhouse_jobs{state="succeeded"} 21' in text  # 15 demo posts + 6 demo stories
    assert "reelhouse_transcode_seconds_total" in text
    assert 'reelhouse_http_requests_total{method="GET",route="/api/v1/feed",status="2xx"}' in text
