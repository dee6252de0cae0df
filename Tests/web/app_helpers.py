"""Helpers for the app-shell tests (navigation, Discover, Browse, Search) at the two sizes the
issue names: a 390×844 touch phone and a 1440×900 mouse-and-keyboard desktop."""
import pytest

from conftest import new_context

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
SIZES = [pytest.param(("phone", PHONE, True), id="phone"), pytest.param(("desktop", DESKTOP, False), id="desktop")]
COVER = ".lazy-grid .cover[data-item-id]"


def open_app(browser, url: str, size, path: str = "/", signed_in: bool = True):
    name, viewport, touch = size
    context = new_context(browser, url, viewport=viewport, signed_in=signed_in, touch=touch)
    page = context.new_page()
    page.goto(path)
    return context, page


def tap(page, selector: str, size) -> None:
    """A tap on the phone, a click on the desktop."""
    if size[2]:
        page.tap(selector)
    else:
        page.click(selector)


def cover_titles(page) -> list[str]:
    return page.locator(f"{COVER} .cover-title").all_inner_texts()


def video_count(page) -> int:
    return page.locator("video").count()


def assert_pool_bound(page) -> None:
    count = video_count(page)
    assert count <= 3, f"{count} <video> elements on {page.url}"


def wait_covers(page, at_least: int = 1) -> None:
    page.wait_for_function("n => document.querySelectorAll('.lazy-grid .cover[data-item-id]').length >= n", arg=at_least, timeout=15_000)


def scroll_to_end(page) -> None:
    page.evaluate("() => { const s = document.getElementById('screens'); s.scrollTop = s.scrollHeight; }")


def wait_pictures(page, selector: str = ".cover img") -> None:
    """Waits until the cover pictures in view have loaded and faded in (for screenshots)."""
    page.wait_for_function(
        """sel => [...document.querySelectorAll(sel)].filter((img) => {
                const r = img.getBoundingClientRect();
                return r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
            }).every((img) => img.complete && img.naturalWidth > 0 && getComputedStyle(img).opacity === '1')""",
        arg=selector, timeout=15_000)
