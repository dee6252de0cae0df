"""A library whose first videos are still being transcoded (a first `serve --demo`, a folder
imported with --no-wait): the feed says it is being prepared and how many videos are in
progress, instead of "Your library is empty", and plays the first post by itself as soon as a
worker has published it, with no click."""
import os
import subprocess

from conftest import BIN, PASSWORD, USER, Server, make_clip, make_image, new_context, owner_only_server, reelhouse
from pykit import TEST_ENVIRONMENT


def test_the_feed_waits_for_the_first_transcodes_and_then_plays_them(browser, tmp_path):
    data = tmp_path / "data"
    reelhouse(data, "user", "add", USER, "--role", "owner", stdin=PASSWORD + "\n")
    for number in range(2):
        make_clip(tmp_path / "sources" / f"prep{number}.mp4", size="180x320", seconds=2, rate=15, audio=False, label=f"prep {number}")
    reelhouse(data, "import", str(tmp_path / "sources"), "--no-wait", "--json")
    server = Server(data, tmp_path / "serve.log")   # without its worker: the jobs stay queued
    context = new_context(browser, server.url)
    try:
        page = context.new_page()
        page.goto("/")
        page.wait_for_selector('#feed-state[data-state="preparing"]')
        text = page.inner_text("#feed-state")
        assert "Preparing your library" in text and "2 posts are being processed" in text, text
        assert page.locator("[data-item-id]").count() == 0
        # It looks again by itself: still two after another look, and no "empty" in between.
        page.wait_for_timeout(3500)
        assert page.locator('#feed-state[data-state="preparing"]').count() == 1
        # A worker node takes the jobs; the first published post comes on screen untouched.
        worker = subprocess.Popen([BIN, "worker", "--data", str(data)], env={**os.environ, **TEST_ENVIRONMENT},
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            page.wait_for_selector('[data-item-id][aria-current="true"] video.ready', timeout=60_000)
        finally:
            worker.terminate()
            worker.wait(timeout=30)
        assert page.locator("#feed-state").is_hidden()
    finally:
        context.close()
        server.stop()


def test_an_empty_library_says_how_to_import_and_check_again_finds_the_import(browser, tmp_path):
    """Nothing in progress: the plain empty state, which does not poll; "Check again" after an
    import shows the new post."""
    server = owner_only_server(tmp_path)
    context = new_context(browser, server.url)
    jobs = []
    context.on("request", lambda request: jobs.append(request.url) if "/api/v1/jobs" in request.url else None)
    try:
        page = context.new_page()
        page.goto("/")
        page.wait_for_selector('#feed-state[data-state="empty"]')
        page.wait_for_timeout(3500)
        assert len(jobs) == 1, jobs
        make_image(tmp_path / "sources" / "still.jpg", size="360x640", label="still")
        reelhouse(tmp_path / "data", "import", str(tmp_path / "sources"), "--json")   # waits for its job
        page.click('#feed-state button:has-text("Check again")')
        page.wait_for_selector('[data-item-id][aria-current="true"]')
        assert page.locator("#feed-state").is_hidden()
    finally:
        context.close()
        server.stop()
