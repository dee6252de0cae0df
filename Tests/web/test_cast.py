"""Cast visibility and hand-over in the full player. The browser's device discovery is the
boundary: `HTMLMediaElement.prototype.remote` is stubbed in the page (a Remote Playback object
that reports a device, or none). A real Chromecast/AirPlay device cannot be tested here."""
from urllib.parse import urljoin

import pytest

from detail_helpers import SHEET, context_for, open_detail, post_with, shot

STUB = """(available) => {
    window.__prompts = [];
    const callbacks = [];
    Object.defineProperty(HTMLMediaElement.prototype, 'remote', { configurable: true, get() {
        const video = this;
        return {
            state: 'disconnected',
            watchAvailability(callback) { callbacks.push(callback); setTimeout(() => callback(available), 50); return Promise.resolve(callbacks.length); },
            cancelWatchAvailability() { return Promise.resolve(); },
            prompt() { window.__prompts.push({ src: video.getAttribute('src'), time: video.currentTime }); return Promise.resolve(); },
        };
    } });
}"""


@pytest.fixture(params=["phone", "desktop"])
def size(request):
    return request.param


@pytest.fixture
def ctx(browser, watch_library, size):
    context = context_for(browser, watch_library["url"], size)
    yield context
    context.close()


def play(page, post_id):
    open_detail(page, post_id)
    page.locator(f"{SHEET} .detail-actions [data-action=play]").click()
    page.wait_for_function(f"() => {{ const v = document.querySelector('{SHEET} .watch video'); return v && !v.paused && v.readyState >= 2; }}", timeout=20_000)


def test_no_device_no_cast_button(ctx, size):
    post = post_with(ctx, "Short clip 41")
    page = ctx.new_page()
    page.add_init_script(f"({STUB})(false)")
    play(page, post["id"])
    page.wait_for_timeout(300)   # well past the stub's availability answer
    assert page.locator(f"{SHEET} .watch-cast").is_hidden()


def test_this_browser_without_a_device_shows_no_button(ctx, size):
    """Headless Chromium's own Remote Playback API: no device on this machine, no button."""
    post = post_with(ctx, "Short clip 41")
    page = ctx.new_page()
    play(page, post["id"])
    page.wait_for_timeout(500)
    assert page.locator(f"{SHEET} .watch-cast").is_hidden()


def test_device_shows_the_button_and_hands_over_the_master(ctx, size, artifacts):
    post = post_with(ctx, "A long clip for resume")
    page = ctx.new_page()
    page.add_init_script(f"({STUB})(true)")
    play(page, post["id"])
    button = page.locator(f"{SHEET} .watch-cast")
    button.wait_for(state="visible")
    shot(page, artifacts, f"cast-button-{size}")
    before = page.eval_on_selector(f"{SHEET} .watch video", "v => v.getAttribute('src')")
    assert before.startswith("blob:"), before   # MSE playback
    button.click()
    page.wait_for_function("() => window.__prompts.length === 1")
    prompt = page.evaluate("window.__prompts[0]")
    master = ctx.request.get(f"/api/v1/videos/{post['id']}").json()["media"]["master"]
    origin = page.evaluate("location.origin")
    # The element plays the absolute signed master (not its MediaSource) when the picker opens:
    # the same URL the server signs for this post (its token part may be from a newer window).
    expected = urljoin(origin + "/", master)
    assert prompt["src"].startswith(f"{origin}/media/"), prompt
    assert prompt["src"].rsplit("/", 2)[-2:] == expected.rsplit("/", 2)[-2:], (prompt, expected)
    token = prompt["src"][len(f"{origin}/media/"):].split("/")[0]
    assert len(token) > 16, "the master URL carries its signature"
    assert button.get_attribute("data-cast-url") == prompt["src"]
    assert prompt["time"] > 0, "the switched element goes on from where it was"
