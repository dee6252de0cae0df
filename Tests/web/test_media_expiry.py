"""A page keeps a person watching when its media URLs die: across a real token expiry (a
server with a 4 s token window), a rotated secret (every URL 403, the feed cursor refused) and
a server restart (requests fail without an answer for a while). Each test runs its own server
on a copy of the session's library, so the shared server is never restarted.

The measured recovery times (first 403/410 → playing again; server back → playing again) are
printed and appended to artifacts/media-recovery.txt; they are reported, never asserted."""
import base64
import os
import shutil
import sqlite3
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import ARTIFACTS, BIN, ROOT, new_context
from pykit.server import free_port
from helpers import CURRENT, current_id, current_kind, swipe_next, wait_playing

TOKEN_WINDOW = 4  # seconds; with margin 0 a media URL lives until the end of its 4 s window

# In the page: when each post's first media request was refused (403/410) and when each <video>
# last started playing, on one clock (performance.now()), so recovery is measured in the browser.
RECOVERY_PROBE = """
(() => {
  window.__refusedAt = {};   // post id → performance.now() of its first refused request
  const refused = (url) => {
    const match = /\\/(?:media|img)\\/[^/]+\\/(\\d+)\\//.exec(new URL(url, location.href).pathname);
    if (match) window.__refusedAt[match[1]] ??= performance.now();
  };
  // Resource Timing has no entry for a refused fetch whose body is never read: watch fetch itself.
  const realFetch = window.fetch;
  window.fetch = async function (...args) {
    const response = await realFetch.apply(this, args);
    if (response.status === 403 || response.status === 410) refused(response.url);
    return response;
  };
  document.addEventListener('error', (event) => { if (event.target instanceof HTMLImageElement) refused(event.target.src); }, true);
  document.addEventListener('playing', (event) => { event.target.__playingAt = performance.now(); }, true);
})();
"""

NO_ERROR_VISIBLE = """() => ({
  failedItems: [...document.querySelectorAll('.reel.failed')].map((el) => el.dataset.itemId + ':' + el.dataset.errorCode),
  feedState: document.getElementById('feed-state').hidden ? null : document.getElementById('feed-state').dataset.state,
  loginShown: !document.getElementById('feed-view') || document.getElementById('feed-view').hidden,
})"""


def report(line: str) -> None:
    """Prints a measured figure and keeps it in artifacts/ (pytest -s is not used in CI)."""
    print(line)
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / "media-recovery.txt", "a") as out:
        out.write(f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} {line}\n")


def clone_library(source: Path, target: Path) -> Path:
    """A copy of a data folder a server may be restarted on: the database through SQLite's
    backup (consistent while the shared server runs), media hard-linked, the secret copied."""
    target.mkdir(parents=True)
    with sqlite3.connect(source / "reelhouse.sqlite") as origin, sqlite3.connect(target / "reelhouse.sqlite") as copy:
        origin.backup(copy)
    shutil.copytree(source / "media", target / "media", copy_function=os.link)
    shutil.copy2(source / "secret.key", target / "secret.key")
    return target


class RestartableServer:
    """`reelhouse serve --no-worker` on a fixed port, which stop() and start() keep."""

    def __init__(self, data: Path, log: Path, env: dict[str, str] | None = None):
        self.data, self.log_path, self.env = data, log, env or {}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.log = open(log, "a")

    def start(self) -> None:
        environment = {**os.environ, **self.env,
                       "REELHOUSE_WEB_ROOT": os.environ.get("REELHOUSE_WEB_ROOT") or str(ROOT / "Web")}
        arguments = [BIN, "serve", "--data", str(self.data), "--port", str(self.port), "--no-worker"]
        self.process = subprocess.Popen(arguments, stdout=self.log, stderr=subprocess.STDOUT, env=environment)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/health", timeout=1):
                    return
            except OSError:
                if self.process.poll() is not None:
                    raise AssertionError(f"reelhouse serve exited: {self.log_path.read_text()}")
                time.sleep(0.1)
        raise AssertionError("reelhouse serve did not answer /health within 30 s")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()  # as abrupt as a crash: nothing is finished politely
            self.process.wait(timeout=10)

    def close(self) -> None:
        self.stop()
        self.log.close()


@pytest.fixture
def own_server(library, tmp_path):
    """Starts a server on a fresh copy of the library: `own_server(env)`."""
    servers = []

    def start(env: dict[str, str] | None = None) -> RestartableServer:
        data = clone_library(library["data"], tmp_path / f"data{len(servers)}")
        server = RestartableServer(data, tmp_path / f"serve{len(servers)}.log", env)
        servers.append(server)
        server.start()
        return server

    yield start
    for server in servers:
        server.close()


def token_expiry(url: str) -> int:
    """The expiry (Unix seconds) inside a signed media URL's token: its first 8 bytes."""
    token = url.split("/media/")[1].split("/")[0]
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    return int.from_bytes(raw[:8], "big")


def wait_for_fresh_window(after: float) -> None:
    """Sleeps until `after` has passed (a real expiry: the server compares whole seconds, so a
    token is good through its expiry second) and the clock is early in a token window,
    so URLs signed now live about 3 s: enough for one item's few requests. Waiting for the wall
    clock is the event itself here, not a stand-in for one."""
    while True:
        now = time.time()
        if now > after and 0.2 <= now % TOKEN_WINDOW <= 1.0:
            return
        time.sleep(0.05)


def media_log(page) -> dict:
    """Records refused media responses and post refetches as they happen."""
    log = {"refused": [], "refetched": [], "feed": []}

    def seen(response):
        url = response.url
        if "/media/" in url or "/img/" in url:
            if response.status in (403, 410):
                log["refused"].append((response.status, url))
        elif "/api/v1/videos/" in url and response.request.method == "GET":
            log["refetched"].append((response.status, int(url.rstrip("/").split("/")[-1])))
        elif "/api/v1/feed" in url:
            log["feed"].append((response.status, "cursor=" in url))
            log.setdefault("first_feed_at", time.time())

    page.on("response", seen)
    return log


def open_recording_feed(context, path: str, before_load=None):
    """A signed-in page with the recovery probe and a media log; `before_load(page)` may add routes."""
    page = context.new_page()
    page.add_init_script(RECOVERY_PROBE)
    log = media_log(page)
    if before_load:
        before_load(page)
    page.goto(path)
    page.wait_for_selector(CURRENT, timeout=15_000)
    return page, log


def post_of(url: str) -> int:
    """The post id in a /media/{token}/{id}/… or /img/{signature}/{id}/… URL."""
    return int(url.split("/media/" if "/media/" in url else "/img/")[1].split("/")[1])


def page_now(page) -> float:
    return page.evaluate("performance.now()")


def recovery_ms(page, post: int, since: float = 0.0) -> float | None:
    """ms from the first refused request of `post` to its video last starting to play, when the
    refusal came after `since` (page clock): i.e. it happened on screen, not in the background."""
    return page.evaluate("""([post, since]) => {
        const video = document.querySelector(`[data-item-id="${post}"][aria-current="true"] video`);
        const refused = window.__refusedAt[post];
        if (!video || refused === undefined || refused < since || !video.__playingAt || video.__playingAt < refused) return null;
        return video.__playingAt - refused;
    }""", [post, since])


def wait_shown(page, timeout: int = 20_000) -> None:
    """The item on screen is showing: a video plays; an image post needs no wait."""
    if current_kind(page) == "video":
        wait_playing(page, timeout=timeout)


def assert_no_error_visible(page) -> None:
    state = page.evaluate(NO_ERROR_VISIBLE)
    assert state == {"failedItems": [], "feedState": None, "loginShown": False}, state


# The engine-level units for this (media keys, refresh, recovery) run with the others in
# test_engine_unit.py (engine_unit/expiry.html).


# --- a real expiry --------------------------------------------------------------------------

SHORT_WINDOW = {"REELHOUSE_MEDIA_TOKEN_WINDOW": str(TOKEN_WINDOW), "REELHOUSE_MEDIA_TOKEN_MARGIN": "0"}


@pytest.mark.parametrize("path", ["/", "/?prefetch=0"], ids=["look-ahead", "no-look-ahead"])
def test_swiping_on_after_a_real_expiry_refetches_posts_and_keeps_playing(browser, own_server, path):
    """With look-ahead the neighbours meet the expiry in the background; without it (?prefetch=0)
    every item reached loads on screen with dead URLs."""
    server = own_server(SHORT_WINDOW)
    context = new_context(browser, server.url)
    page, log = open_recording_feed(context, path)
    wait_shown(page)
    # Every URL of the feed page was signed when it loaded, so it dies at the latest at the end
    # of that token window.
    expiry = (int(log["first_feed_at"]) // TOKEN_WINDOW + 1) * TOKEN_WINDOW
    recoveries = []
    visited = []
    for _ in range(4):
        # Each swipe early in a token window: refreshed URLs then outlive the item's requests.
        wait_for_fresh_window(after=expiry + 1.2)
        swiped_at = page_now(page)
        visited.append(swipe_next(page))
        wait_shown(page)
        recovered = recovery_ms(page, visited[-1], since=swiped_at)
        if recovered is not None:
            recoveries.append(recovered)
        assert_no_error_visible(page)

    refused_ids = {post_of(url) for _, url in log["refused"]}
    refetched_ok = {post for status, post in log["refetched"] if status == 200}
    assert log["refused"], "no media request met an expired URL: the test did not cross an expiry"
    assert {status for status, _ in log["refused"]} == {410}, log["refused"]
    assert refused_ids <= refetched_ok, f"refused {refused_ids}, refetched {refetched_ok}"
    stats = page.evaluate("reelhouse.stats()")
    assert stats["failedLoads"] == 0, stats
    assert stats["mediaRefetches"] >= len(refused_ids), stats
    if path.endswith("prefetch=0"):
        assert set(visited) & refused_ids, "no item met its expiry on screen"
        assert recoveries, "no on-screen recovery was measured"
    figures = ", ".join(f"{ms:.0f} ms" for ms in recoveries) or "none"
    report(f"expiry, swiping ({path}): first 410 on screen → playing: {figures} "
           f"({len(visited) - len(recoveries)} of {len(visited)} items reached had recovered in the background or were images); "
           f"{len(log['refused'])} refused requests, {len(refetched_ok)} posts refetched")
    context.close()


def test_a_segment_requested_after_expiry_continues_at_the_same_position(browser, own_server):
    """The segment from 4 s of the video on screen is held back until its URL has expired; the
    player must refetch the post and go on from 4 s in the same buffer, without a reload."""
    server = own_server(SHORT_WINDOW)
    context = new_context(browser, server.url)
    held, released = [], threading.Event()

    def hold_from_four_seconds(route):
        if released.is_set():
            route.continue_()
        else:
            held.append(route)

    # Videos open with short segments (0.5, 0.5, 1 s, then 2 s): the fifth starts at 4 s.
    page, log = open_recording_feed(context, "/", before_load=lambda p: p.route("**/media/*/*/*/seg_00004.m4s", hold_from_four_seconds))
    # A video of more than 4 s (5 or 6 s) on screen.
    for _ in range(12):
        item = context.request.get(f"/api/v1/videos/{current_id(page)}").json()
        if item["kind"] == "video" and item["duration"] > 4.5:
            break
        swipe_next(page)
    else:
        pytest.fail("no video of more than 4.5 s in the first 12 items")
    post = current_id(page)
    wait_playing(page)
    # It plays its first 4 s and waits there for the held segment.
    page.wait_for_function("""() => {
        const video = document.querySelector('[aria-current="true"] video');
        const b = video.buffered;
        return b.length > 0 && video.currentTime > 3.6 && b.end(b.length - 1) < 4.2;
    }""", timeout=20_000)
    mine = [route for route in held if post_of(route.request.url) == post]
    assert mine, "the segment from 4 s was never requested"
    sources_before = page.evaluate("reelhouse.stats()")["mediaSourcesCreated"]
    wait_for_fresh_window(after=token_expiry(mine[-1].request.url) + 1.2)
    released.set()
    for route in held:
        try:
            route.continue_()
        except Exception:  # the page gave that request up (an item it moved away from)
            pass
    page.wait_for_function("""() => {
        const video = document.querySelector('[aria-current="true"] video');
        return video.currentTime > 4.4 && !video.paused;
    }""", timeout=20_000)
    assert_no_error_visible(page)
    # The held segment's own 410 or, when the stall remedy gave up on the held download
    # meanwhile and stepped down a rung, the lower rung's first request under the expired token
    # (its playlist or init section): either way an expired URL of this post, answered by a refetch.
    assert any(status == 410 and post_of(url) == post for status, url in log["refused"]), log["refused"]
    assert (200, post) in log["refetched"], log["refetched"]
    stats = page.evaluate("reelhouse.stats()")
    assert stats["mediaSourcesCreated"] == sources_before, "the item was reloaded instead of continued"
    assert stats["failedLoads"] == 0, stats
    recovered = recovery_ms(page, post)
    assert recovered is not None, "the refusal or the restart of playback was not seen by the probe"
    report(f"expiry, mid-video: first 410 → playing again {recovered:.0f} ms")
    context.close()


# --- a rotated secret and a restart ----------------------------------------------------------

def mark_page(page) -> None:
    """A marker a reload would wipe."""
    page.evaluate("window.__sameDocument = 'yes'")


def assert_same_document(page) -> None:
    assert page.evaluate("window.__sameDocument") == "yes", "the page was reloaded"


@pytest.mark.parametrize("path", ["/", "/?prefetch=0"], ids=["look-ahead", "no-look-ahead"])
def test_a_rotated_secret_refreshes_every_url_and_restarts_the_feed_without_a_reload(browser, own_server, library, path):
    server = own_server()
    context = new_context(browser, server.url)
    page, log = open_recording_feed(context, path)
    wait_shown(page)
    mark_page(page)
    server.stop()
    (server.data / "secret.key").write_bytes(os.urandom(32))
    server.start()
    # Every URL the page holds is now 403, and the feed's cursor is refused: swipe far enough
    # to need the next page (it is asked for when three items are left of the first ten).
    visited, recoveries = [], []
    for _ in range(9):
        swiped_at = page_now(page)
        visited.append(swipe_next(page))
        wait_shown(page)
        recovered = recovery_ms(page, visited[-1], since=swiped_at)
        if recovered is not None:
            recoveries.append(recovered)
        # The image (a video's thumbnail, a photo, the first slide) of the item on screen loads.
        page.wait_for_function("""() => [...document.querySelectorAll('[aria-current="true"] img[src]')]
            .filter((image) => image.loading !== 'lazy')
            .every((image) => image.complete && image.naturalWidth > 0)""", timeout=15_000)
        assert_no_error_visible(page)
    assert_same_document(page)

    assert {status for status, _ in log["refused"]} == {403}, log["refused"]
    refused_ids = {post_of(url) for _, url in log["refused"]}
    refetched_ok = {post for status, post in log["refetched"] if status == 200}
    assert refused_ids <= refetched_ok, f"refused {refused_ids}, refetched {refetched_ok}"
    # The old cursor was refused (4xx) and paging started again from a fresh first page.
    refused_cursor = next(i for i, (status, with_cursor) in enumerate(log["feed"]) if with_cursor and 400 <= status < 500)
    assert (200, False) in log["feed"][refused_cursor + 1:], log["feed"]
    ids = page.eval_on_selector_all("[data-item-id]", "els => els.map((el) => Number(el.dataset.itemId))")
    first_cycle = ids[:library["post_count"]]
    assert len(set(first_cycle)) == len(first_cycle), f"a post repeated before the library was through: {ids}"
    assert len(ids) > 10, "no page came after the refused cursor"
    stats = page.evaluate("reelhouse.stats()")
    assert stats["failedLoads"] == 0, stats
    figures = ", ".join(f"{ms:.0f} ms" for ms in recoveries) or "none"
    report(f"rotated secret ({path}): {len(refused_ids)} posts refetched after 403s, the feed restarted from a fresh page; "
           f"first 403 on screen → playing: {figures} ({len(visited) - len(recoveries)} of {len(visited)} items reached "
           f"had recovered in the background or were images)")
    context.close()


def test_a_server_restart_mid_session_recovers_without_a_reload_or_sign_in(browser, own_server):
    server = own_server()
    context = new_context(browser, server.url)
    page, log = open_recording_feed(context, "/?prefetch=0")  # every item loads when reached
    wait_shown(page)
    mark_page(page)
    server.stop()
    # While the server is away, move on at least twice, until a video is on screen: those items
    # cannot load yet, and the one on screen shows how soon playback comes back.
    stranded = [swipe_next(page), swipe_next(page)]
    while current_kind(page) != "video" and len(stranded) < 6:
        stranded.append(swipe_next(page))
    page.wait_for_function("() => !document.getElementById('offline-banner').hidden", timeout=15_000)
    time.sleep(2)  # the outage itself: the page must hold out for it, with nothing to await
    assert_no_error_visible(page)
    server.start()
    back = page.evaluate("performance.now()")  # the page's clock, as __playingAt
    wait_shown(page, timeout=30_000)
    playing_at = page.evaluate("() => document.querySelector('[aria-current=\"true\"] video')?.__playingAt ?? null")
    recovered = f"{playing_at - back:.0f} ms" if playing_at is not None and playing_at >= back else "not measured (an image post on screen)"
    page.wait_for_function("() => document.getElementById('offline-banner').hidden", timeout=15_000)
    assert_no_error_visible(page)
    assert_same_document(page)
    # The session survived (no sign-in screen) and the feed goes on.
    play_on = [swipe_next(page) for _ in range(3)]
    wait_shown(page)
    assert_no_error_visible(page)
    stats = page.evaluate("reelhouse.stats()")
    details = page.eval_on_selector_all("[data-error-detail]", "els => els.map((el) => el.dataset.itemId + ': ' + el.dataset.errorDetail)")
    assert stats["failedLoads"] == 0, (stats, details)
    report(f"restart: server back (/health answers) → item on screen playing {recovered} "
           f"(items reached while it was down: {stranded}, then {play_on})")
    context.close()


def test_urls_still_refused_after_a_refetch_fail_visibly_and_retry_refetches_the_post(browser, library):
    """Twice a minute at most (URLs renewed at the end of their window may be refused once more
    by a restart with a new secret): when the fresh URLs are refused after a second refetch too,
    the item shows its error ('expired') instead of refetching again, and its retry button
    refetches the post rather than reloading the URLs it already has."""
    context = new_context(browser, library["url"])
    refusing = set()

    def refuse_chosen(route):
        if post_of(route.request.url) in refusing:
            route.fulfill(status=410, content_type="application/json", body='{"error":{"code":"gone","message":"expired"}}')
        else:
            route.continue_()

    page, log = open_recording_feed(context, "/?prefetch=0", before_load=lambda p: p.route("**/media/**", refuse_chosen))
    kinds = page.eval_on_selector_all("[data-item-id]", "els => els.map((el) => [Number(el.dataset.itemId), el.classList.contains('kind-video')])")
    here = current_id(page)
    position = [post for post, _ in kinds].index(here)
    target = next(post for post, video in kinds[position + 1:] if video)
    refusing.add(target)
    while current_id(page) != target:
        swipe_next(page)
    error = page.locator(f"{CURRENT} .item-error")
    error.wait_for(state="visible", timeout=15_000)
    assert page.get_attribute(CURRENT, "data-error-code") == "expired"
    assert "expired" in error.inner_text().lower()
    assert log["refetched"].count((200, target)) == 2, log["refetched"]
    refusing.clear()  # the server would now accept fresh URLs
    page.click(f"{CURRENT} [data-action='retry']")
    wait_playing(page)
    assert_no_error_visible(page)
    assert log["refetched"].count((200, target)) == 3, "the retry button did not refetch the post"
    context.close()
