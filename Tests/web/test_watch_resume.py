"""The full player in the detail sheet: it plays on one of the feed pool's three <video>
elements (never a fourth), seeks with the keyboard, saves the position on pause, restores it on
Play after a reload, and clears it at the end."""
import json

import pytest

from detail_helpers import SHEET, context_for, open_detail, post_with, shot, video_count

WATCH_VIDEO = f"{SHEET} .watch video"


@pytest.fixture(params=["phone", "desktop"])
def size(request):
    return request.param


@pytest.fixture
def ctx(browser, watch_library, size):
    context = context_for(browser, watch_library["url"], size)
    yield context
    context.close()


def press_play(page, size):
    button = page.locator(f"{SHEET} .detail-actions [data-action=play]")
    button.tap() if size == "phone" else button.click()
    page.wait_for_function(
        f"() => {{ const v = document.querySelector('{WATCH_VIDEO}'); return v && !v.paused && v.readyState >= 2; }}", timeout=20_000)


def seek_to(page, size, seconds: float):
    if size == "desktop":   # → steps 5 s from wherever it is
        now = page.eval_on_selector(WATCH_VIDEO, "v => v.currentTime")
        page.focus(f"{SHEET} .watch-seek")
        for _ in range(round((seconds - now) / 5)):
            page.keyboard.press("ArrowRight")
    else:                   # drag the seek bar: its value is seconds
        page.eval_on_selector(f"{SHEET} .watch-seek", "(el, s) => { el.value = String(s); el.dispatchEvent(new Event('input', { bubbles: true })); }", seconds)


def position_writes(page):
    writes = []
    page.on("request", lambda request: writes.append(json.loads(request.post_data)["seconds"])
            if request.method == "PUT" and request.url.endswith("/position") else None)
    return writes


def test_play_seek_pause_reload_resumes(ctx, size, artifacts):
    post = post_with(ctx, "A long clip for resume")
    ctx.request.put(f"/api/v1/videos/{post['id']}/position", data={"seconds": None})
    page = ctx.new_page()
    writes = position_writes(page)
    open_detail(page, post["id"])
    assert video_count(page) <= 3
    press_play(page, size)
    assert video_count(page) <= 3, "the full player must borrow one of the pool's elements"
    # Nothing stored yet: it starts at the beginning.
    assert page.eval_on_selector(f"{SHEET} .watch", "el => el.dataset.resumedAt") == "0"
    seek_to(page, size, 30)
    page.wait_for_function(f"() => Math.abs(document.querySelector('{WATCH_VIDEO}').currentTime - 30) < 3")
    toggle = page.locator(f"{SHEET} [data-watch=toggle]")
    toggle.tap() if size == "phone" else page.keyboard.press(" ")
    page.wait_for_function(f"() => document.querySelector('{WATCH_VIDEO}').paused")
    shot(page, artifacts, f"watch-{size}")
    page.wait_for_function("() => true")
    page.wait_for_timeout(500)
    assert writes and abs(writes[-1] - 30) < 3, writes
    stored = ctx.request.get(f"/api/v1/videos/{post['id']}").json()["position"]
    assert abs(stored - 30) < 3

    page.reload()
    open_detail(page, post["id"])
    press_play(page, size)
    resumed = float(page.eval_on_selector(f"{SHEET} .watch", "el => el.dataset.resumedAt"))
    assert abs(resumed - stored) < 0.01
    now = page.eval_on_selector(WATCH_VIDEO, "v => v.currentTime")
    assert 27 <= now <= 36, now
    assert video_count(page) <= 3


def test_end_clears_the_position(ctx, size):
    post = post_with(ctx, "A long clip for resume")
    assert ctx.request.put(f"/api/v1/videos/{post['id']}/position", data={"seconds": 20}).ok
    page = ctx.new_page()
    writes = position_writes(page)
    open_detail(page, post["id"])
    press_play(page, size)
    assert page.eval_on_selector(f"{SHEET} .watch", "el => el.dataset.resumedAt") == "20"
    page.eval_on_selector(WATCH_VIDEO, "v => { v.currentTime = v.duration - 1.5; }")
    page.wait_for_function(f"() => document.querySelector('{WATCH_VIDEO}').ended", timeout=20_000)
    page.wait_for_timeout(500)
    assert writes and writes[-1] is None, writes
    assert ctx.request.get(f"/api/v1/videos/{post['id']}").json().get("position") is None


def test_closing_gives_the_element_back_to_the_feed(ctx, size):
    post = post_with(ctx, "Short clip 41")
    page = ctx.new_page()
    open_detail(page, post["id"])
    press_play(page, size)
    assert video_count(page) <= 3
    page.keyboard.press("Escape")
    page.wait_for_selector(SHEET, state="detached")
    # Back in the park or in a feed item, never a fourth element; a second sheet plays again.
    assert video_count(page) <= 3
    open_detail(page, post["id"])
    press_play(page, size)
    assert video_count(page) <= 3


def test_captions_menu_per_language(ctx, size, artifacts):
    from conftest import WATCH_CAPTIONS
    post = post_with(ctx, "A long clip for resume")
    detail = ctx.request.get(f"/api/v1/videos/{post['id']}").json()
    assert sorted(c["language"] for c in detail["captions"]) == ["en", "pt"]
    page = ctx.new_page()
    page.add_init_script("localStorage.removeItem('reelhouse.captions')")
    open_detail(page, post["id"])
    press_play(page, size)
    captions = page.locator(f"{SHEET} .watch-captions")
    assert captions.is_visible()
    labels = captions.locator("option").all_inner_texts()
    assert labels[0] == "Captions off" and len(labels) == 3
    line = page.locator(f"{SHEET} .watch-captions-line")
    assert line.is_hidden()
    english = next(c for c in detail["captions"] if c["language"] == "en")
    captions.select_option(f"en|{english['name']}")
    page.wait_for_function(f"() => document.querySelector('{SHEET} .watch-captions-line').textContent === {WATCH_CAPTIONS['en']!r}", timeout=15_000)
    assert line.is_visible()
    shot(page, artifacts, f"watch-captions-{size}")
    assert page.evaluate("JSON.parse(localStorage.getItem('reelhouse.captions')).language") == "en"
    captions.select_option("")
    page.wait_for_function(f"() => document.querySelector('{SHEET} .watch-captions-line').hidden")


def test_a_post_without_captions_has_no_menu(ctx, size):
    post = post_with(ctx, "Short clip 42")
    page = ctx.new_page()
    open_detail(page, post["id"])
    press_play(page, size)
    assert page.locator(f"{SHEET} .watch-captions").is_hidden()


def test_leaving_while_playing_saves_the_position(ctx, size):
    """No pause: the page is left (a reload) while the video plays; the keepalive write on
    pagehide stores where it was."""
    post = post_with(ctx, "A long clip for resume")
    assert ctx.request.put(f"/api/v1/videos/{post['id']}/position", data={"seconds": None}).ok
    page = ctx.new_page()
    open_detail(page, post["id"])
    press_play(page, size)
    seek_to(page, size, 40)
    page.wait_for_function(f"() => {{ const v = document.querySelector('{WATCH_VIDEO}'); return !v.paused && Math.abs(v.currentTime - 40) < 3; }}")
    page.reload()
    page.wait_for_timeout(500)
    stored = ctx.request.get(f"/api/v1/videos/{post['id']}").json().get("position")
    assert stored is not None and 37 <= stored <= 46, stored
