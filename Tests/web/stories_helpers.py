"""Helpers for the stories tests (Tests/web/test_stories_*.py): a context signed in as a viewer
of the test's own at the phone (390×844, touch) or desktop (1440×900) size, what the player
shows (person, item, progress), and real input: taps and clicks, CDP touch swipes, holds."""
import itertools

import pytest

from helpers import until  # noqa: F401  (the stories tests import it from here)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
SIZES = [pytest.param(("phone", PHONE, True), id="phone"), pytest.param(("desktop", DESKTOP, False), id="desktop")]
PLAYER = "dialog.stories-player[open]"
STAGE = f"{PLAYER} .stories-stage"
TRAY = ".stories-tray"
_names = itertools.count(1)


def fresh_viewer(stories, label: str) -> str:
    return f"{label}-{next(_names)}"


def stories_context(browser, stories, size, viewer: str, reduced_motion: bool = False):
    _, viewport, touch = size
    extra = {"has_touch": True, "is_mobile": True} if touch else {}
    return browser.new_context(base_url=stories["url"], viewport=viewport, service_workers="block", bypass_csp=True,
                               storage_state=stories["viewer"](viewer), reduced_motion="reduce" if reduced_motion else "no-preference",
                               **extra)


def api(context, path: str) -> dict:
    response = context.request.get(path)
    assert response.ok, f"{path}: {response.status} {response.text()}"
    return response.json()


def tray_users(context) -> list[str]:
    return [entry["user"] for entry in api(context, "/api/v1/stories")["tray"]]


def open_player(page, user: str) -> None:
    page.goto(f"/stories/{user}")
    page.wait_for_selector(f"{PLAYER}[data-user='{user}'] .story-segment", timeout=20_000)


def shown(page) -> dict:
    """Who and which item the player shows, with each segment's fill (0–100)."""
    return page.evaluate("""() => {
        const dialog = document.querySelector('dialog.stories-player[open]');
        if (!dialog) return null;
        return {
            user: dialog.dataset.user, item: Number(dialog.dataset.item),
            kind: dialog.querySelector('.stories-stage').dataset.kind,
            progress: [...dialog.querySelectorAll('.story-segment')].map((s) => Number(s.getAttribute('aria-valuenow'))),
            buffering: !dialog.querySelector('.stories-spinner').hidden,
            holding: dialog.classList.contains('holding'),
            paused: dialog.classList.contains('paused'),
            liked: dialog.querySelector('.stories-like').getAttribute('aria-pressed') === 'true',
        };
    }""")


def wait_item(page, user: str, item: int, timeout: int = 20_000) -> None:
    page.wait_for_selector(f"{PLAYER}[data-user='{user}'][data-item='{item}']", timeout=timeout)


def current_video_playing(page, timeout: int = 20_000) -> None:
    page.wait_for_function(
        """() => { const v = document.querySelector('dialog.stories-player[open] .stories-media video');
                   return v && !v.paused && v.currentTime > 0; }""", timeout=timeout, polling=50)


def video_count(page) -> int:
    return page.evaluate("() => document.querySelectorAll('video').length")


def stage_point(page, fraction_x: float, fraction_y: float = 0.5) -> tuple[float, float]:
    box = page.locator(STAGE).bounding_box()
    return box["x"] + box["width"] * fraction_x, box["y"] + box["height"] * fraction_y


def tap_at(page, size, fraction_x: float, fraction_y: float = 0.5) -> None:
    """A tap (phone) or a click (desktop) on the stage at a fraction of its width."""
    x, y = stage_point(page, fraction_x, fraction_y)
    if size[2]:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def press(page, size, fraction_x: float, fraction_y: float = 0.5):
    """Puts a finger (or the mouse button) down on the stage; returns the release."""
    x, y = stage_point(page, fraction_x, fraction_y)
    if size[2]:
        cdp = page.context.new_cdp_session(page)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})

        def release():
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            cdp.detach()
        return release
    page.mouse.move(x, y)
    page.mouse.down()
    return page.mouse.up


def swipe(page, size, dx: float, dy: float, steps: int = 8) -> None:
    """A finger (phone) or a mouse drag (desktop) across the stage from its middle."""
    x, y = stage_point(page, 0.5, 0.45)
    if size[2]:
        cdp = page.context.new_cdp_session(page)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for step in range(1, steps + 1):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x + dx * step / steps, "y": y + dy * step / steps}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
    else:
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + dx, y + dy, steps=steps)
        page.mouse.up()


def touch_pull(page, selector: str, dy: float, steps: int = 8) -> None:
    """A finger pulled down from the middle of `selector`."""
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, steps + 1):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y + dy * step / steps}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def ring_states(page, root: str = "") -> dict[str, str]:
    """user → 'unseen' | 'seen' for the tray under `root`."""
    return page.evaluate("""(root) => Object.fromEntries([...document.querySelectorAll(`${root} .stories-tray a.story-ring`)]
        .filter((a) => a.offsetParent !== null || root)
        .map((a) => [a.dataset.user, a.classList.contains('seen') ? 'seen' : 'unseen']))""", root)


def turned(page) -> None:
    """Waits for the turn between people to end (a person waits for it before the next swipe)."""
    page.wait_for_function("() => document.querySelector('dialog.stories-player[open] .stories-frame')?.getAnimations().length === 0")
