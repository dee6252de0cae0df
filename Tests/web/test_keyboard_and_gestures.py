"""Keyboard shortcuts, tap to pause, long-press, expanding the description, the info panel."""
from helpers import CURRENT, current_id, current_kind, swipe_next, wait_current_changes, wait_playing


def to_video(page):
    while current_kind(page) != "video":
        swipe_next(page)
    wait_playing(page)


def current_video(page, expression: str):
    return page.evaluate(f"(() => {{ const v = document.querySelector('[aria-current=\"true\"] video'); return {expression}; }})()")


def test_keyboard_shortcuts(page):
    to_video(page)
    first = current_id(page)
    page.keyboard.press("j")
    second = wait_current_changes(page, first)
    page.keyboard.press("k")
    assert wait_current_changes(page, second) == first
    wait_playing(page)

    page.keyboard.press(" ")
    page.wait_for_function("document.querySelector('[aria-current=\"true\"] video').paused")
    assert page.locator("body.paused").count() == 1
    page.keyboard.press(" ")
    page.wait_for_function("!document.querySelector('[aria-current=\"true\"] video').paused")

    muted = current_video(page, "v.muted")
    page.keyboard.press("m")
    page.wait_for_function(f"document.querySelector('[aria-current=\"true\"] video').muted === {str(not muted).lower()}")
    # the choice is remembered for the next visit
    assert page.evaluate("localStorage.getItem('reelhouse.muted')") == str(not muted).lower()

    liked = page.get_attribute(f"{CURRENT} .like", "aria-pressed")
    page.keyboard.press("l")
    assert page.get_attribute(f"{CURRENT} .like", "aria-pressed") != liked

    page.keyboard.press("?")
    page.wait_for_selector("#help[open]")
    page.keyboard.press("Escape")
    page.wait_for_selector("#help:not([open])", state="attached")

    page.keyboard.press("f")
    page.wait_for_function("document.fullscreenElement !== null")
    page.keyboard.press("f")
    page.wait_for_function("document.fullscreenElement === null")


def test_tap_pauses_and_long_press_pauses_while_held(page):
    to_video(page)
    box = page.locator(f"{CURRENT} .stage").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 3
    page.mouse.click(x, y)
    page.wait_for_function("document.querySelector('[aria-current=\"true\"] video').paused")
    page.wait_for_selector(f'{CURRENT} .play-indicator[data-state="paused"]', state="attached")
    page.mouse.click(x, y)
    page.wait_for_function("!document.querySelector('[aria-current=\"true\"] video').paused")

    page.mouse.move(x, y)
    page.mouse.down()
    page.wait_for_function("document.querySelector('[aria-current=\"true\"] video').paused", timeout=3000)
    page.mouse.up()
    page.wait_for_function("!document.querySelector('[aria-current=\"true\"] video').paused")


def test_description_expands_and_info_panel_opens(page):
    description = page.locator(f"{CURRENT} .description")
    if description.count():
        collapsed = description.bounding_box()["height"]
        description.click()
        assert description.get_attribute("aria-expanded") == "true"
        assert description.bounding_box()["height"] >= collapsed
    page.click(f'{CURRENT} [data-action="info"]')
    info = page.locator(f"{CURRENT} .info")
    assert info.is_visible()
    text = info.inner_text()
    for label in ("Folder", "Shortcode", "Posted", "Uploader", "Username", "Added"):
        assert label in text


def test_hidden_tab_pauses(page):
    to_video(page)
    page.evaluate("""() => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    page.wait_for_function("document.querySelector('[aria-current=\"true\"] video').paused")
    page.evaluate("""() => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    page.wait_for_function("!document.querySelector('[aria-current=\"true\"] video').paused")


def test_reduced_motion_moves_without_animation(page):
    page.emulate_media(reduced_motion="reduce")
    before = current_id(page)
    page.keyboard.press("ArrowDown")
    wait_current_changes(page, before)
    # no smooth scroll: the pager is already at the new item on the next frame
    page.wait_for_function("""() => new Promise(resolve => requestAnimationFrame(() => {
        const el = document.querySelector('[data-item-id][aria-current="true"]');
        resolve(Math.abs(document.getElementById('feed').scrollTop - el.offsetTop) < 2);
    }))""", timeout=2000)


def test_media_session_describes_the_current_item(page):
    artist = page.evaluate("navigator.mediaSession.metadata && navigator.mediaSession.metadata.artist")
    username = page.inner_text(f"{CURRENT} .username")
    assert artist == username


def test_picture_in_picture_button_takes_the_playing_video_out_and_back(page):
    # Debian's headless Chromium supports picture-in-picture, so the real path runs here.
    assert page.evaluate("document.pictureInPictureEnabled")
    to_video(page)
    button = page.locator(f"{CURRENT} [data-action='pip']")
    button.click()
    page.wait_for_function("document.pictureInPictureElement !== null", timeout=5000)
    assert current_video(page, "v === document.pictureInPictureElement")
    button.click()
    page.wait_for_function("document.pictureInPictureElement === null", timeout=5000)
    assert page.locator(".toast:has-text('Picture-in-picture')").count() == 0


def test_next_on_the_last_loaded_item_moves_once_the_next_page_lands(context):
    """↓ pressed on the last item of the pages loaded so far, while the next page is still on
    its way (held here), is not lost: the feed moves on as soon as that page arrives."""
    held = []
    context.route("**/api/v1/feed?*cursor=*", lambda route: held.append(route))
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector(CURRENT, timeout=15_000)
    loaded = page.locator("[data-item-id]").count()
    for _ in range(loaded - 1):
        swipe_next(page)
    page.wait_for_function("n => document.querySelectorAll('[data-item-id]')[n - 1].getAttribute('aria-current') === 'true'", arg=loaded)
    assert held, "the next page was asked for before the last loaded item"
    last = current_id(page)
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(300)
    assert current_id(page) == last, "nothing after the last loaded item yet"
    for route in held:
        route.continue_()
    context.unroute("**/api/v1/feed?*cursor=*")
    assert wait_current_changes(page, last) != last
    assert page.locator("[data-item-id]").count() > loaded
