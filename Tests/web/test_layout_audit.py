"""The layout audit (issue 29): every screen and state at 390×844 touch, 768×1024 touch and
1440×900 — no sideways scroll, no control outside the viewport, cut by its container, on top of
another or covered by something, no text clipped or wrapped in a button or pill, the tab bar
within the viewport, nothing from outside the playing item on its picture, and every control's
target at least 44×44 CSS px on the touch sizes (what is drawn may be smaller: the target is
asked at 21 px off its centre). The check itself, and its rules, are layout_audit.py's;
screenshots of each state under artifacts/layout/."""
from contextlib import contextmanager

import pytest

from app_helpers import wait_covers
from conftest import STORY_PASSWORD, new_context
from detail_helpers import SHEET, open_detail, post_with
from layout_audit import SIZES, audit
from stories_helpers import PLAYER, open_player

ROUTES = ["/", "/?tag=cats", "/discover", "/shelf/new", "/browse", "/browse?sort=newest&tags=cats", "/search", "/search?q=cat",
          "/search?q=nothing-is-called-this", "/favorites", "/profile"]
ALL_SIZES = list(SIZES)


def sized_context(browser, url: str, size: str, storage_state=None):
    """A context at `size`: signed in as the library's viewer, or with `storage_state`."""
    viewport, touch = SIZES[size]
    if storage_state is None:
        return new_context(browser, url, viewport=viewport, touch=touch)
    extra = {"has_touch": True, "is_mobile": True} if touch else {}
    return browser.new_context(base_url=url, viewport=viewport, service_workers="block", bypass_csp=True,
                               storage_state=storage_state, **extra)


@contextmanager
def auditing(browser, url: str, size: str, storage_state=None):
    """A context at `size` and the list its findings go into; closes the context, then fails
    with every finding, one a line."""
    context = sized_context(browser, url, size, storage_state)
    found: list[str] = []
    try:
        yield context, found
    finally:
        context.close()
    assert not found, "\n".join(found)


def state_name(route: str) -> str:
    return route.replace("/", "_").replace("?", "-").replace("&", "-").replace("=", "-") or "_"


@pytest.mark.parametrize("size", ALL_SIZES)
def test_every_screen_fits_its_size(browser, catalog, artifacts, size):
    with auditing(browser, catalog["url"], size) as (context, found):
        page = context.new_page()
        for route in ROUTES:
            page.goto(route)
            page.wait_for_selector(".screen, [data-item-id][aria-current='true']", timeout=15_000)
            page.wait_for_timeout(600)
            found += audit(page, size, artifacts, state_name(route))


@pytest.mark.parametrize("size", ALL_SIZES)
def test_the_filter_panel_and_the_more_menu_fit(browser, catalog, artifacts, size):
    """Browse's filter panel (a dialog) with two filters on, and the feed's ⋯ menu."""
    with auditing(browser, catalog["url"], size) as (context, found):
        page = context.new_page()
        page.goto("/browse?sort=newest&tags=cats&kind=image")
        wait_covers(page)
        page.locator(".filter-button").click()
        page.wait_for_selector("dialog.filter-panel[open]")
        page.wait_for_timeout(300)
        found += audit(page, size, artifacts, "browse-filters")
        page.keyboard.press("Escape")
        page.goto("/")
        page.wait_for_selector("[data-item-id][aria-current='true'] .more-button")
        page.locator("[data-item-id][aria-current='true'] .more-button").click()
        page.wait_for_selector("[data-item-id][aria-current='true'] .more-panel:not([hidden])")
        found += audit(page, size, artifacts, "feed-more")


@pytest.mark.parametrize("size", ALL_SIZES)
def test_the_detail_sheet_and_the_full_player_fit(browser, watch_library, artifacts, size):
    """The sheet of a captioned video (links, #tags, facts), scrolled to its end, then its full
    player playing with captions on."""
    with auditing(browser, watch_library["url"], size) as (context, found):
        post = post_with(context, "A long clip for resume")
        page = context.new_page()
        page.add_init_script("localStorage.removeItem('reelhouse.captions')")
        open_detail(page, post["id"])
        found += audit(page, size, artifacts, "detail")
        page.eval_on_selector(SHEET, "el => { el.scrollTop = el.scrollHeight; }")
        page.wait_for_timeout(200)
        found += audit(page, size, artifacts, "detail-end")
        page.locator(f"{SHEET} [data-action=collections]").click()
        page.wait_for_selector(f"{SHEET} .detail-panel", timeout=10_000)
        page.wait_for_timeout(300)
        page.locator(f"{SHEET} .detail-panel").scroll_into_view_if_needed()
        found += audit(page, size, artifacts, "detail-collections")
        page.locator(f"{SHEET} [data-action=collections]").click()
        page.eval_on_selector(SHEET, "el => { el.scrollTop = 0; }")
        page.locator(f"{SHEET} .detail-actions [data-action=play]").click()
        page.wait_for_function(
            f"() => {{ const v = document.querySelector('{SHEET} .watch video'); return v && !v.paused && v.readyState >= 2; }}", timeout=20_000)
        captions = page.locator(f"{SHEET} .watch-captions")
        captions.select_option(index=1)
        page.wait_for_selector(f"{SHEET} .watch-captions-line:not([hidden])", timeout=15_000)
        found += audit(page, size, artifacts, "full-player")
        found += page.evaluate("""(sheet) => {
            // The captions are on the picture, not over the controls (however many rows those take).
            const line = document.querySelector(`${sheet} .watch-captions-line`).getBoundingClientRect();
            const bar = document.querySelector(`${sheet} .watch-controls`).getBoundingClientRect();
            return line.bottom > bar.top + 0.5 && line.top < bar.bottom
                ? [`full-player: the captions (${Math.round(line.top)}…${Math.round(line.bottom)}) lie over the controls (${Math.round(bar.top)}…${Math.round(bar.bottom)})`] : [];
        }""", SHEET)


@pytest.mark.parametrize("size", ALL_SIZES)
def test_the_collection_editor_fits(browser, catalog, artifacts, size):
    """An owner's collection page in edit mode: rename, the rows with their handle, ↑/↓ and
    Remove, Delete. The collection is made for the test and deleted after it."""
    with auditing(browser, catalog["url"], size) as (context, found):
        items = context.request.get("/api/v1/browse?sort=title&limit=4").json()["items"]
        made = context.request.post("/api/v1/collections", data={
            "name": "A collection with a rather long name for the audit", "post_ids": [item["id"] for item in items]})
        assert made.status == 201, made.text()
        collection_id = made.json()["id"]
        try:
            page = context.new_page()
            page.goto(f"/collection/{collection_id}")
            wait_covers(page, len(items))
            found += audit(page, size, artifacts, "collection")
            page.get_by_role("button", name="Edit").click()
            page.wait_for_function("n => document.querySelectorAll('.collection-order .order-row').length === n", arg=len(items))
            found += audit(page, size, artifacts, "collection-editor")
            page.get_by_role("button", name="Delete collection…").click()
            found += audit(page, size, artifacts, "collection-delete")
        finally:
            context.request.delete(f"/api/v1/collections/{collection_id}")


@pytest.mark.parametrize("size", ALL_SIZES)
def test_every_create_screen_fits(browser, catalog, artifacts, size):
    """Create's Upload, Record (no camera here: its message), Generate, and Upload as a story."""
    with auditing(browser, catalog["url"], size) as (context, found):
        page = context.new_page()
        for query, screen in (("", "upload"), ("", "record"), ("", "generate"), ("?to=story", "upload")):
            page.goto(f"/create.html{query}#{screen}")
            page.wait_for_selector(f"#panel-{screen}:not([hidden])")
            page.wait_for_timeout(600)
            found += audit(page, size, artifacts, f"create-{screen}{'-story' if query else ''}")


@pytest.mark.parametrize("size", ALL_SIZES)
def test_the_stories_tray_and_player_fit(browser, stories, artifacts, size):
    """The feed with the stories tray under its top bar, the full-screen stories player."""
    with auditing(browser, stories["url"], size, stories["viewer"](f"audit-{size}")) as (context, found):
        page = context.new_page()
        page.goto("/")
        page.wait_for_selector(".feed-stories .story-ring", timeout=15_000)
        page.wait_for_timeout(600)
        found += audit(page, size, artifacts, "feed-stories")
        found += page.evaluate("""() => {
            // The tray lies under the top bar's controls, not across them.
            const tray = document.querySelector('.feed-stories .stories-tray').getBoundingClientRect();
            const found = [...document.querySelectorAll('.topbar button, .topbar .filter-chip')]
                .filter((el) => el.offsetParent)
                .filter((el) => { const r = el.getBoundingClientRect(); return r.bottom > tray.top + 1 && r.top < tray.bottom && r.right > tray.left && r.left < tray.right; })
                .map((el) => `feed-stories: the tray covers ${el.innerText || el.getAttribute('aria-label')}`);
            // …and on the playing item's picture, not hanging past its sides (with its refresh button).
            const stage = document.querySelector('[data-item-id][aria-current="true"] .stage').getBoundingClientRect();
            for (const el of document.querySelectorAll('.feed-stories .stories-tray, .feed-stories .stories-tray-refresh')) {
                const r = el.getBoundingClientRect();
                if (r.width && (r.left < stage.left - 1 || r.right > stage.right + 1)) {
                    found.push(`feed-stories: ${el.className} (${Math.round(r.left)}…${Math.round(r.right)}) hangs past the video (${Math.round(stage.left)}…${Math.round(stage.right)})`);
                }
            }
            return found;
        }""")
        open_player(page, "alice")
        page.wait_for_timeout(400)
        found += audit(page, size, artifacts, "stories-player")
        assert page.locator(PLAYER).count() == 1


@pytest.mark.parametrize("size", ALL_SIZES)
def test_your_own_stories_fit(browser, stories, artifacts, size):
    """Your own stories' player: the "Seen by" bar and its ⋯ menu instead of the like button."""
    owner = browser.new_context(base_url=stories["url"], bypass_csp=True)
    assert owner.request.post("/api/v1/session", data={"username": "alice", "password": STORY_PASSWORD}).ok
    state = owner.storage_state()
    owner.close()
    with auditing(browser, stories["url"], size, state) as (context, found):
        page = context.new_page()
        open_player(page, "alice")
        page.wait_for_selector(f"{PLAYER} .story-owner-bar:not([hidden])")
        page.wait_for_timeout(400)
        found += audit(page, size, artifacts, "stories-own")
        page.locator(f"{PLAYER} .story-owner-more").click()
        page.wait_for_selector(f"{PLAYER} .story-owner-menu:not([hidden])")
        found += audit(page, size, artifacts, "stories-own-menu")
