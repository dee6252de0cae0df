"""Screenshots at a phone and a desktop viewport (saved to artifacts/ for a person to look at),
layout facts that must hold at both, and the installable shell (manifest, icons, service worker)."""
import pytest

from conftest import new_context, open_feed
from helpers import CURRENT, current_id, current_kind, swipe_next, wait_playing, wait_settled

PHONES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}]
LONG_TAG = "an_exceedingly_long_tag_name_without_a_single_place_to_break"   # 60 characters, no break


def shape(page, item_id: int) -> str:
    """'landscape' or 'portrait', from the API's width and height of the post."""
    item = page.request.get(f"/api/v1/videos/{item_id}").json()
    return "landscape" if item["width"] > item["height"] else "portrait"


def settle_on_video(page, wanted: str = "portrait"):
    """Swipes to the next video of the wanted shape (the library has both) and lets it play."""
    for _ in range(40):
        if current_kind(page) == "video" and shape(page, current_id(page)) == wanted:
            break
        swipe_next(page)
    else:
        raise AssertionError(f"no {wanted} video in 40 swipes")
    wait_playing(page)
    wait_settled(page)
    page.wait_for_timeout(300)


def box(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def assert_inside(rect: dict, viewport: dict, what: str) -> None:
    assert rect["x"] >= 0 and rect["y"] >= 0, f"{what} starts off screen: {rect}"
    assert rect["x"] + rect["width"] <= viewport["width"], f"{what} is cut at the right edge: {rect}"
    assert rect["y"] + rect["height"] <= viewport["height"], f"{what} is cut at the bottom: {rect}"


def test_phone_screenshot(page, artifacts):
    settle_on_video(page)
    page.screenshot(path=str(artifacts / "feed-phone-390x844.png"))
    stage = page.locator(f"{CURRENT} .stage").bounding_box()
    assert stage["width"] == 390 and stage["height"] == 844
    # overlay text stays on screen
    meta = page.locator(f"{CURRENT} .meta").bounding_box()
    assert meta["x"] >= 0 and meta["x"] + meta["width"] <= 390
    page.click(f'{CURRENT} [data-action="info"]')
    page.screenshot(path=str(artifacts / "feed-phone-info.png"))


def test_small_phone_keeps_everything_on_screen(browser, library, artifacts):
    context = new_context(browser, library["url"], viewport={"width": 360, "height": 640})
    page = open_feed(context)
    actions = page.locator(f"{CURRENT} .actions").bounding_box()
    assert actions["x"] + actions["width"] <= 360 and actions["y"] >= 0
    page.screenshot(path=str(artifacts / "feed-phone-360x640.png"))
    context.close()


@pytest.mark.parametrize("viewport", [*PHONES, {"width": 844, "height": 390}], ids=lambda v: f"{v['width']}x{v['height']}")
def test_every_action_button_is_on_screen_on_a_phone(browser, library, artifacts, viewport):
    """With the info panel open, and with a 60-character tag and an unbroken 80-character word
    injected into every item (so the text column has every reason to push), each button of the
    action column lies inside the viewport, below the top bar, and the text column stays left
    of it; also on a phone on its side (844×390), where the nine buttons form a row."""
    context = new_context(browser, library["url"], viewport=viewport)
    page = context.new_page()

    def lengthen(route):
        response = route.fetch()
        body = response.json()
        for item in body["items"]:
            item["tags"] = [*item.get("tags", []), {"id": 999_999, "name": LONG_TAG}]
            item["description"] = "x" * 80 + " " + (item.get("description") or "")
        route.fulfill(response=response, json=body)

    page.route("**/api/v1/feed?*", lengthen)
    page.goto("/")
    page.wait_for_selector(CURRENT, timeout=15_000)
    kinds = set()
    for _ in range(library["post_count"]):
        kind = current_kind(page)
        if kind not in kinds:
            kinds.add(kind)
            wait_settled(page)
            assert page.locator(f'{CURRENT} .chip[data-tag="{LONG_TAG}"]').count() == 1
            for info_open in (False, True):
                if info_open:
                    page.click(f'{CURRENT} [data-action="info"]')
                buttons = page.locator(f"{CURRENT} .actions button")
                assert buttons.count() >= 7, "like, five stars and details at least"
                bar = box(page, ".topbar")
                for index in range(buttons.count()):
                    button, rect = buttons.nth(index), buttons.nth(index).bounding_box()
                    what = f"{kind} {button.get_attribute('aria-label')}"
                    assert_inside(rect, viewport, what)
                    assert rect["y"] >= bar["y"] + bar["height"], f"{what} lies under the top bar: {rect}"
                actions = box(page, f"{CURRENT} .actions")
                for part in ("meta", "chip", "description", "info:not([hidden])"):
                    for index in range(page.locator(f"{CURRENT} .{part}").count()):
                        rect = page.locator(f"{CURRENT} .{part}").nth(index).bounding_box()
                        assert rect["x"] + rect["width"] <= actions["x"], f"{kind}: a .{part} runs under the action column"
            page.screenshot(path=str(artifacts / f"feed-phone-{viewport['width']}-{kind}-long-text.png"))
        if kinds >= {"video", "carousel"}:
            break
        swipe_next(page)
    assert kinds >= {"video", "carousel"}
    context.close()


@pytest.mark.parametrize("viewport", [*PHONES, {"width": 1280, "height": 800}], ids=lambda v: f"{v['width']}x{v['height']}")
def test_a_long_tag_filter_leaves_the_top_bar_alone(browser, library, artifacts, viewport):
    """The filter chip gives way (its name ends in an ellipsis) but still shows its name (at 390
    it was a red × alone: Create and Sign out took the room); the buttons keep their size and the
    top bar its height."""
    context = new_context(browser, library["url"], viewport=viewport)
    page = open_feed(context)
    bar_before, help_before = box(page, ".topbar"), box(page, "#help-button")
    page.goto(f"/?tag={LONG_TAG}")
    page.wait_for_selector("#filter-chip:not([hidden])")
    page.wait_for_selector("#feed-state:not([hidden])")   # no post carries the tag
    bar, help_button, chip, actions = box(page, ".topbar"), box(page, "#help-button"), box(page, "#filter-chip"), box(page, ".topbar-actions")
    page.screenshot(path=str(artifacts / f"topbar-long-filter-{viewport['width']}.png"))
    assert help_button == help_before | {"x": help_button["x"], "y": help_button["y"]}
    assert bar["height"] == bar_before["height"]
    assert chip["x"] + chip["width"] <= actions["x"] and actions["x"] + actions["width"] <= viewport["width"]
    assert page.locator(".topbar #create-link, .topbar #logout").count() == 0, "Create and Sign out live once: the ＋ tab, Profile"
    assert page.locator("#filter-chip .filter-name").evaluate("el => el.clientWidth") >= 80, "the chip shows its name"
    name = page.locator("#filter-chip .filter-name")
    if viewport["width"] < 900:
        assert name.evaluate("el => el.scrollWidth > el.clientWidth"), "a tag too long for a phone is cut short"
    assert page.get_attribute("#filter-chip", "title") == f"#{LONG_TAG}"
    heading = box(page, "#feed-state h2")
    assert heading["x"] >= 0 and heading["x"] + heading["width"] <= viewport["width"], "'Nothing tagged #…' wraps on screen"
    context.close()


@pytest.mark.parametrize("viewport", PHONES + [{"width": 1280, "height": 800}], ids=lambda v: f"{v['width']}")
def test_create_is_one_tap_from_the_feed(browser, library, viewport):
    """A new user finds Create (the ＋ tab, the only Create) from the feed, and it opens the Create page."""
    context = new_context(browser, library["url"], viewport=viewport)
    page = open_feed(context)
    links = page.locator("a[href='/create.html']")
    assert links.count() == 1, "one Create, not two"
    rect = links.first.bounding_box()
    centre = {"x": rect["x"] + rect["width"] / 2, "y": rect["y"] + rect["height"] / 2}
    assert 0 < centre["x"] < viewport["width"] and 0 < centre["y"] < viewport["height"], rect
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.closest('a')?.getAttribute('href')", [centre["x"], centre["y"]])
    assert hit == "/create.html", "the Create tab is on top where it is drawn"
    links.first.click()
    page.wait_for_url("**/create.html")
    page.wait_for_selector("#create-view:not([hidden]) h1")
    assert page.locator("#create-view h1").inner_text() == "Create"
    context.close()


def test_desktop_screenshot(browser, library, artifacts):
    context = new_context(browser, library["url"], viewport={"width": 1440, "height": 900})
    page = open_feed(context)
    settle_on_video(page)
    page.screenshot(path=str(artifacts / "feed-desktop-1440x900.png"))
    stage = page.locator(f"{CURRENT} .stage").bounding_box()
    overlay = page.locator(f"{CURRENT} .overlay").bounding_box()
    assert abs(stage["width"] / stage["height"] - 9 / 16) < 0.01
    assert abs((stage["x"] + stage["width"] / 2) - 720) < 2, "the 9:16 column is centered"
    assert overlay["x"] >= stage["x"] + stage["width"], "the overlay stands beside the column"
    assert stage["height"] == 900 - 40, "a portrait video stands full height"
    context.close()


def test_a_landscape_video_gets_a_frame_of_its_shape_on_desktop(browser, library, artifacts):
    viewport = {"width": 1280, "height": 800}
    context = new_context(browser, library["url"], viewport=viewport)
    page = open_feed(context)
    settle_on_video(page, "landscape")
    item = page.request.get(f"/api/v1/videos/{current_id(page)}").json()
    page.screenshot(path=str(artifacts / "feed-desktop-landscape-1280x800.png"))
    video, stage = box(page, f"{CURRENT} video"), box(page, f"{CURRENT} .stage")
    overlay = box(page, f"{CURRENT} .overlay")
    assert video["width"] / video["height"] == pytest.approx(item["width"] / item["height"], rel=0.02)
    assert video == stage, "the video fills its frame: no letterbox bars inside it"
    assert video["width"] > video["height"] * 1.5, "wider than the 9:16 column would be"
    assert_inside(stage, viewport, "the landscape frame")
    assert overlay["x"] >= stage["x"] + stage["width"] and overlay["x"] + overlay["width"] <= viewport["width"]
    context.close()


@pytest.mark.parametrize("viewport", [PHONES[1], {"width": 1280, "height": 800}], ids=lambda v: f"{v['width']}x{v['height']}")
def test_the_generate_form_shows_its_provider_select_whole(browser, library, artifacts, viewport):
    """The provider's name is long ("Local text card (rendered on this server …)"): its select
    has a row of its own inside the form, and on a wide screen shows the name uncut."""
    context = new_context(browser, library["url"], viewport=viewport)
    page = context.new_page()
    page.goto("/create.html#generate")
    page.wait_for_selector("#panel-generate:not([hidden])")
    page.wait_for_selector("#provider-select option", state="attached")
    page.screenshot(path=str(artifacts / f"create-generate-{viewport['width']}.png"))
    form, select = box(page, "#generate-form"), box(page, "#provider-select")
    assert_inside(select, viewport, "the provider select")
    assert form["x"] <= select["x"] and select["x"] + select["width"] <= form["x"] + form["width"]
    for other in ("#style-select", "select[name=orientation]", "textarea[name=prompt]"):
        other_box = box(page, other)
        assert form["x"] <= other_box["x"] and other_box["x"] + other_box["width"] <= form["x"] + form["width"], other
    # The text of the chosen option against the room the select gives it (padding and arrow off).
    room, text = page.evaluate("""() => {
        const select = document.querySelector('#provider-select');
        const style = getComputedStyle(select);
        const canvas = document.createElement('canvas').getContext('2d');
        canvas.font = style.font;
        const arrow = 24;
        return [select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow,
                canvas.measureText(select.selectedOptions[0].text).width];
    }""")
    if viewport["width"] >= 900:
        assert text <= room, f"the provider name needs {text:.0f}px, the select gives {room:.0f}px"
    assert page.get_attribute("#provider-select", "title") == page.locator("#provider-select option:checked").inner_text()
    overflow = page.evaluate("document.querySelector('.create-view').scrollWidth - document.querySelector('.create-view').clientWidth")
    assert overflow <= 0
    context.close()


def test_login_screenshot(browser, library, artifacts):
    context = new_context(browser, library["url"], signed_in=False)
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector("input[name=password]")
    page.screenshot(path=str(artifacts / "login-phone.png"))
    context.close()


def test_manifest_icons_and_service_worker(browser, library):
    context = browser.new_context(base_url=library["url"])
    page = context.new_page()
    manifest = context.request.get("/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        response = context.request.get(icon["src"])
        assert response.ok and response.body()[:8] == b"\x89PNG\r\n\x1a\n"
        width = int.from_bytes(response.body()[16:20], "big")
        assert f"{width}x{width}" == icon["sizes"]
    page.goto("/")
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
    cached = page.evaluate("""async () => {
        const keys = await caches.keys();
        const cache = await caches.open(keys[0]);
        return (await cache.keys()).map(r => new URL(r.url).pathname);
    }""")
    assert "/index.html" in cached and "/js/app.js" in cached
    assert not any(path.startswith(("/api/", "/media/", "/img/")) for path in cached)
    context.close()


def test_hints_say_click_with_a_mouse_and_tap_on_a_touch_screen(browser, library):
    """A touch word ("Tap to unmute") on a desktop with a mouse reads wrong; the word follows the pointer."""
    def words(touch: bool, viewport: dict) -> tuple[str, str]:
        context = new_context(browser, library["url"], viewport=viewport, touch=touch)
        try:
            page = open_feed(context)
            hint = page.locator('.unmute-hint').first.text_content()
            page.goto("/browse")
            page.get_by_role("button", name="Filters").click()
            legend = page.locator("dialog legend", has_text="Tags").first.text_content()
            return hint, legend
        finally:
            context.close()

    assert words(False, {"width": 1440, "height": 900}) == ("Click to unmute", "Tags (click: include, again: exclude)")
    assert words(True, {"width": 390, "height": 844}) == ("Tap to unmute", "Tags (tap: include, again: exclude)")
