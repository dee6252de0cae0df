"""Fixtures for the create page's browser tests: a real `reelhouse serve` (with its transcode
worker and generation service) on an empty temporary library, and Debian's Chromium with a
fake camera and microphone, already signed in. Imported by test_create.py."""
from pathlib import Path

import pytest
from conftest import CHROMIUM, PASSWORD, USER, Server, ffmpeg, reelhouse
from same_origin import name_the_origin

PHONE = {"width": 360, "height": 740}


class CreateServer(Server):
    """`reelhouse serve` with the worker on (uploads and publishing need transcodes)."""

    def __init__(self, root: Path, env: dict[str, str] | None = None):
        data = root / "data"
        reelhouse(data, "user", "add", USER, "--role", "owner", stdin=PASSWORD + "\n")
        self.log_path = root / "serve.log"
        super().__init__(data, self.log_path, worker=True, env=env)


@pytest.fixture(scope="module")
def create_server(tmp_path_factory):
    server = CreateServer(tmp_path_factory.mktemp("create"))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def media_browser(playwright, tmp_path_factory):
    """Chromium with a fake camera and microphone, granted without a prompt. The camera plays
    a colourful looping test pattern (Chromium's own fake is nearly grey, which would make a
    "the mono look is grey" check prove nothing); the microphone is Chromium's beep."""
    camera = tmp_path_factory.mktemp("camera") / "testsrc2.y4m"
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=360x640:rate=15", "-t", "2", "-pix_fmt", "yuv420p", str(camera))
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True,
        args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required",
              "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
              f"--use-file-for-fake-video-capture={camera}"],
    )
    yield name_the_origin(browser)
    browser.close()


def signed_in_context(browser, base_url: str, viewport: dict = PHONE, bypass_csp: bool = False):
    """bypass_csp only where a test itself must read a blob: URL (the shell's CSP allows
    connect-src 'self' only, rightly; the app never fetches blobs)."""
    context = browser.new_context(base_url=base_url, viewport=viewport, service_workers="block",
                                  permissions=["camera", "microphone"], bypass_csp=bypass_csp)
    response = context.request.post("/api/v1/session", data={"username": USER, "password": PASSWORD})
    assert response.ok, response.text()
    return context


@pytest.fixture
def create_context(media_browser, create_server):
    context = signed_in_context(media_browser, create_server.url)
    yield context
    context.close()


def feed_ids(context) -> set[int]:
    """Every post id the feed serves (a few pages; the test libraries are small)."""
    ids, cursor = set(), None
    for _ in range(10):
        response = context.request.get("/api/v1/feed", params={"limit": 50, **({"cursor": cursor} if cursor else {})})
        assert response.ok, response.text()
        page = response.json()
        ids |= {item["id"] for item in page["items"]}
        cursor = page.get("next_cursor")
        if not cursor or not page["items"]:
            break
    return ids
