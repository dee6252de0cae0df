"""The app around the feed: tabs (a bottom bar on a phone, a side rail on a desktop), real URLs
with back/forward and reload, deep links through the sign-in form, the feed kept where it was
(same position, same three players) after a visit to Discover, and never more than the pool's
three <video> elements on any screen. A screenshot of each screen at both sizes."""
import pytest

from app_helpers import SIZES, assert_pool_bound, cover_titles, open_app, tap, wait_covers, wait_pictures
from conftest import PASSWORD, USER
from helpers import CURRENT, current_id, swipe_next, wait_settled


def current_tab(page) -> str:
    return page.get_attribute('.app-nav [aria-current="page"]', "data-tab")


@pytest.mark.parametrize("size", SIZES)
def test_tabs_and_back_forward(browser, catalog, size, artifacts):
    context, page = open_app(browser, catalog["url"], size, "/")
    page.wait_for_selector(CURRENT, timeout=15_000)
    name, viewport, _ = size
    nav = page.locator(".app-nav").bounding_box()
    if name == "phone":
        assert nav["y"] + nav["height"] == viewport["height"] and nav["width"] == viewport["width"], f"a bottom tab bar: {nav}"
    else:
        assert nav["x"] == 0 and nav["height"] == viewport["height"] and nav["width"] < 120, f"a side rail: {nav}"
    labels = page.locator(".app-nav li:visible .nav-tab").evaluate_all("els => els.map(e => e.dataset.tab)")
    assert labels[:4] == ["feed", "discover", "search", "create"] and labels[-1] == "profile"
    assert current_tab(page) == "feed"
    page.screenshot(path=str(artifacts / f"app-feed-{name}.png"))

    for tab, path in (("discover", "/discover"), ("search", "/search"), ("profile", "/profile")):
        tap(page, f".nav-{tab}", size)
        page.wait_for_url(f"**{path}")
        assert current_tab(page) == tab
        assert page.is_hidden("#feed-view"), "the feed is hidden behind the other screens"
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifacts / f"app-{tab}-{name}.png"))
        assert_pool_bound(page)

    page.go_back()
    page.wait_for_url("**/search")
    assert current_tab(page) == "search"
    page.go_back()
    page.wait_for_url("**/discover")
    page.go_forward()
    page.wait_for_url("**/search")
    page.go_back()
    page.go_back()
    page.wait_for_function("() => location.pathname === '/'")
    page.wait_for_selector(f"#feed-view:not([hidden]) {CURRENT}")
    assert current_tab(page) == "feed"
    assert_pool_bound(page)
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_feed_keeps_its_place_and_players_after_discover(browser, catalog, size):
    context, page = open_app(browser, catalog["url"], size, "/")
    page.wait_for_selector(CURRENT, timeout=15_000)
    for _ in range(3):
        swipe_next(page)
    wait_settled(page)
    where = current_id(page)
    scroll_top = page.evaluate("document.getElementById('feed').scrollTop")
    page.evaluate("document.querySelectorAll('video').forEach((v, i) => { v.__kept = i; })")
    tap(page, ".nav-discover", size)
    page.wait_for_url("**/discover")
    page.wait_for_selector(".shelf, .screen-message")
    assert page.evaluate("[...document.querySelectorAll('video')].every(v => v.paused)"), "nothing plays behind Discover"
    page.keyboard.press("ArrowDown")   # the feed's keys are off while it is hidden
    tap(page, ".nav-feed", size)
    page.wait_for_url(lambda url: url.endswith("/"))
    page.wait_for_selector(f"#feed-view:not([hidden]) {CURRENT}")
    assert current_id(page) == where
    assert page.evaluate("document.getElementById('feed').scrollTop") == pytest.approx(scroll_top, abs=2)
    kept = page.evaluate("[...document.querySelectorAll('video')].map(v => v.__kept)")
    assert len(kept) <= 3 and all(mark is not None for mark in kept), f"the same three players: {kept}"
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_deep_link_survives_the_sign_in_form_and_a_reload(browser, catalog, size):
    context, page = open_app(browser, catalog["url"], size, "/search?q=robot", signed_in=False)
    page.wait_for_selector("input[name=username]")
    page.fill("input[name=username]", USER)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_function("() => [...document.querySelectorAll('.lazy-grid .cover-title')].some(e => e.textContent === 'Mr. Robot')")
    assert page.url.endswith("/search?q=robot")
    assert page.input_value("#search-input") == "robot"
    page.reload()
    page.wait_for_function("() => [...document.querySelectorAll('.lazy-grid .cover-title')].some(e => e.textContent === 'Mr. Robot')")
    assert current_tab(page) == "search"
    context.close()


def test_direct_urls_and_a_post_over_its_screen(browser, catalog, artifacts):
    size = SIZES[1].values[0]
    context, page = open_app(browser, catalog["url"], size, "/discover")
    page.wait_for_selector(".shelf .cover[data-item-id]", timeout=15_000)
    shelf = page.get_attribute(".shelf", "data-shelf-id")
    page.click(f'.shelf[data-shelf-id="{shelf}"] .shelf-title a')
    page.wait_for_function("path => location.pathname === path", arg=f"/shelf/{shelf}")
    wait_covers(page)
    page.screenshot(path=str(artifacts / "app-shelf-desktop.png"))
    first = page.locator(".lazy-grid .cover[data-item-id]").first
    post = first.get_attribute("data-item-id")
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("path => location.pathname === path", arg=f"/p/{post}")
    assert page.is_visible(".lazy-grid"), "the sheet opens over the grid it came from"
    page.reload()
    page.wait_for_selector("dialog[open]")
    assert page.url.endswith(f"/p/{post}")
    page.keyboard.press("Escape")
    page.wait_for_function("path => location.pathname === path", arg=f"/shelf/{shelf}")
    # A post opened by its link alone lands over Discover.
    page.goto(f"/p/{post}")
    page.wait_for_selector("dialog[open]")
    page.wait_for_selector(".discover")
    context.close()


def test_keyboard_reaches_every_tab(browser, catalog):
    context, page = open_app(browser, catalog["url"], SIZES[1].values[0], "/discover")
    page.wait_for_selector(".discover")
    page.locator(".nav-feed").focus()
    order = []
    for _ in range(5):
        order.append(page.evaluate("document.activeElement.dataset.tab"))
        page.keyboard.press("Tab")
    assert order[:4] == ["feed", "discover", "search", "create"]
    page.locator(".nav-search").focus()
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "a visible focus ring"
    page.keyboard.press("Enter")
    page.wait_for_url("**/search")
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_play_in_feed_from_here_plays_the_list_from_that_post(browser, catalog, size):
    context, page = open_app(browser, catalog["url"], size, "/search?q=catalog+post")
    wait_covers(page, 6)
    ids = [int(i) for i in page.eval_on_selector_all(".lazy-grid .cover[data-item-id]", "els => els.map(e => e.dataset.itemId)")]
    tap(page, f'.lazy-grid .cover[data-item-id="{ids[2]}"]', size)
    page.wait_for_url(f"**/p/{ids[2]}")
    page.locator("dialog[open]").get_by_text("Play in feed from here").click()
    page.wait_for_function("() => location.pathname === '/' && new URLSearchParams(location.search).get('from') === 'search'")
    query = page.evaluate("Object.fromEntries(new URLSearchParams(location.search))")
    assert query == {"from": "search", "q": "catalog post", "start": str(ids[2])}
    page.wait_for_selector(f"#feed-view:not([hidden]) {CURRENT}", timeout=15_000)
    assert current_id(page) == ids[2], "the feed starts at the opened post"
    assert swipe_next(page) == ids[3], "and goes on down the same list"
    assert "Search: catalog post" in page.inner_text("#filter-chip")
    assert_pool_bound(page)
    context.close()


def test_the_favorites_tab_is_always_there_and_the_bar_never_reflows(browser, catalog, artifacts):
    context, page = open_app(browser, catalog["url"], SIZES[0].values[0], "/")
    for item in page.request.get("/api/v1/favorites").json()["items"]:
        page.request.delete(f"/api/v1/videos/{item['id']}/favorite")
    page.reload()
    page.wait_for_selector(CURRENT, timeout=15_000)
    tabs = "() => [...document.querySelectorAll('#app-nav .nav-tab')].map((a) => { const r = a.getBoundingClientRect(); return [a.dataset.tab, Math.round(r.left), Math.round(r.width)]; })"
    before = page.evaluate(tabs)
    assert [tab for tab, _, _ in before] == ["feed", "discover", "search", "create", "favorites", "profile"]
    assert page.is_visible(".nav-favorites"), "there even before the first favorite"
    assert all(right <= page.viewport_size["width"] for right in [left + width for _, left, width in before]), before
    liked = current_id(page)
    page.click(f'{CURRENT} [data-action="like"]')
    page.wait_for_timeout(500)
    assert page.evaluate(tabs) == before, "a like moves no tab"
    tap(page, ".nav-favorites", SIZES[0].values[0])
    page.wait_for_url("**/favorites")
    wait_covers(page)
    assert page.eval_on_selector_all(".lazy-grid .cover[data-item-id]", "els => els.map(e => Number(e.dataset.itemId))") == [liked]
    page.screenshot(path=str(artifacts / "app-favorites-phone.png"))
    page.request.delete(f"/api/v1/videos/{liked}/favorite")
    context.close()


def test_every_listing_follows_the_chosen_library(browser, catalog):
    """state/library.js: once a library is chosen, listing calls carry `library=` and the
    screen on show reloads on the app store's `library` (state/store.js)."""
    context, page = open_app(browser, catalog["url"], SIZES[1].values[0], "/search?q=catalog+post")
    wait_covers(page)
    page.wait_for_selector('.lazy-grid[data-done="true"]:not([aria-busy])')   # nothing in flight
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/api/v1/search?" in request.url else None)
    page.evaluate("import('/js/state/library.js').then(m => m.setLibrary(reelhouse.store, 1))")
    page.wait_for_function("() => document.querySelectorAll('.lazy-grid .cover[data-item-id]').length > 0")
    page.wait_for_timeout(500)
    assert asked and all("library=1" in url for url in asked), asked
    assert page.evaluate("import('/js/state/library.js').then(m => m.currentLibrary())") == 1
    page.evaluate("import('/js/state/library.js').then(m => m.setLibrary(reelhouse.store, null))")
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_create_tab_opens_the_create_page(browser, catalog, size):
    """Create (＋) hands over to the create page (its camera and previews stay off the shell's
    three players); /create, a link or a reload, lands there too, on the tab it names."""
    context, page = open_app(browser, catalog["url"], size, "/discover")
    page.wait_for_selector(".discover")
    tap(page, ".nav-create", size)
    page.wait_for_url("**/create.html#upload")
    page.wait_for_selector("#create-view:not([hidden]) h1")
    assert page.locator("#create-view h1").inner_text() == "Create"
    page.goto("/create#generate")
    page.wait_for_url("**/create.html#generate")
    page.wait_for_selector("#panel-generate:not([hidden])")
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_shelf_and_favorites_grids_at_both_sizes(browser, catalog, size, artifacts):
    """A shelf opened from Discover and the Favorites grid, as a person sees them on a phone
    and on a desktop (each with its screenshot)."""
    name = size[0]
    context, page = open_app(browser, catalog["url"], size, "/discover")
    page.wait_for_selector('.shelf[data-shelf-id="new"] .cover[data-item-id]', timeout=15_000)
    tap(page, '.shelf[data-shelf-id="new"] .shelf-title a', size)
    page.wait_for_url("**/shelf/new")
    wait_covers(page, 6)
    assert page.inner_text(".screen-header h1") == "New"
    expected = [item["id"] for item in page.request.get("/api/v1/shelves/new?limit=6").json()["items"]]
    shown = page.locator(".lazy-grid .cover[data-item-id]").evaluate_all("els => els.slice(0, 6).map(e => Number(e.dataset.itemId))")
    assert shown == expected
    wait_pictures(page)
    page.screenshot(path=str(artifacts / f"app-shelf-{name}.png"))

    liked = expected[:2]
    try:
        for post in liked:
            assert page.request.post(f"/api/v1/videos/{post}/favorite").ok
        page.goto("/favorites")
        page.wait_for_function("n => document.querySelectorAll('.lazy-grid .cover[data-item-id]').length >= n", arg=len(liked))
        favorites = page.locator(".lazy-grid .cover[data-item-id]").evaluate_all("els => els.map(e => Number(e.dataset.itemId))")
        assert set(liked) <= set(favorites)
        assert page.inner_text(".screen-header h1") == "Favorites"
        assert all(cover_titles(page))
        wait_pictures(page)
        page.screenshot(path=str(artifacts / f"app-favorites-{name}.png"))
        assert_pool_bound(page)
    finally:
        for post in liked:
            page.request.delete(f"/api/v1/videos/{post}/favorite")
        context.close()
