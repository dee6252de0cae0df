"""The detail sheet at 390×844 (touch) and 1440×900 (mouse + keyboard): its fields, favorite and
rating from it (checked against the server), links and #tags, Escape/back closing it, the owner's
edit and delete, and the page never holding more than the pool's three <video> elements."""
import pytest

from detail_helpers import SHEET, context_for, open_detail, post_with, push_detail, shot, video_count
from helpers import until


@pytest.fixture(params=["phone", "desktop"])
def size(request):
    return request.param


@pytest.fixture
def ctx(browser, watch_library, size):
    context = context_for(browser, watch_library["url"], size)
    yield context
    context.close()


def test_sheet_shows_the_post(ctx, size, artifacts):
    post = post_with(ctx, "A long clip for resume")
    page = ctx.new_page()
    open_detail(page, post["id"])
    sheet = page.locator(SHEET)
    assert sheet.locator(".detail-title").inner_text() == "A long clip for resume"
    assert page.url.endswith(f"/p/{post['id']}")
    assert "Uploader 0" in sheet.locator(".detail-uploader").inner_text()
    assert sheet.locator("[data-fact=duration]").inner_text() == "1:04"
    assert sheet.locator("[data-fact=posted]").inner_text().strip() != ""
    assert sheet.locator("[data-fact=source]").inner_text() == "https://example.com/clips/web40"
    # The description's link opens outside, its #tag leads to the filtered grid.
    link = sheet.locator(".detail-description a[target=_blank]")
    assert link.get_attribute("href") == "https://example.org/long"
    assert sheet.locator(".detail-description a[data-internal]").get_attribute("href") == "/browse?tags=resume"
    chips = sheet.locator(".detail-tags a")
    assert sorted(chips.all_inner_texts()) == ["#long", "#resume"]
    assert sheet.locator("a[data-action=download]").get_attribute("href")
    box = sheet.bounding_box()
    viewport = page.viewport_size
    if size == "phone":   # a bottom sheet: full width, resting on the bottom edge
        assert box["width"] == viewport["width"] and abs(box["y"] + box["height"] - viewport["height"]) < 2
    else:                 # a centred dialog
        assert box["width"] < 800 and abs((box["x"] + box["width"] / 2) - viewport["width"] / 2) < 2
    assert video_count(page) <= 3
    shot(page, artifacts, f"detail-{size}")


def test_favorite_and_rating_from_the_sheet(ctx, size):
    post = post_with(ctx, "Short clip 41")
    page = ctx.new_page()
    open_detail(page, post["id"])
    sheet = page.locator(SHEET)
    favorite = sheet.locator("[data-action=favorite]")
    was = favorite.get_attribute("aria-pressed") == "true"
    favorite.click() if size == "desktop" else favorite.tap()
    page.wait_for_function(f"() => document.querySelector('{SHEET} [data-action=favorite]').getAttribute('aria-pressed') === '{str(not was).lower()}'")
    stars = 4 if size == "phone" else 2   # both sizes share the server: a different rating each
    sheet.locator(f"[data-action=rate][data-value='{stars}']").click()
    assert sheet.locator("[data-action=rate][aria-pressed=true]").count() == stars
    page.wait_for_timeout(300)
    saved = ctx.request.get(f"/api/v1/videos/{post['id']}").json()
    assert saved["is_favorited"] is (not was)
    assert saved["rating"] == stars
    # Reopened, the sheet shows what the server holds.
    page.reload()
    open_detail(page, post["id"])
    assert page.locator(f"{SHEET} [data-action=rate][aria-pressed=true]").count() == stars
    assert page.locator(f"{SHEET} [data-action=favorite]").get_attribute("aria-pressed") == str(not was).lower()


def test_escape_and_back_close_the_sheet(ctx, size):
    post = post_with(ctx, "Short clip 42")
    page = ctx.new_page()
    page.goto("/")
    page.evaluate("history.pushState(null, '', '/browse?sort=title')")
    open_detail_from_grid = """([id]) => import('/js/detail/index.js').then((m) => {
        window.__sheet = m.openDetail(id, { navigate: (p) => history.pushState(null, '', p), context: { kind: 'browse', query: new URLSearchParams('sort=title') } });
    })"""
    page.evaluate(open_detail_from_grid, [post["id"]])
    page.wait_for_selector(f"{SHEET} .detail-title")
    assert page.url.endswith(f"/p/{post['id']}")
    if size == "desktop":
        # Focus stays inside the modal sheet while tabbing.
        for _ in range(12):
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.closest('dialog.detail-sheet') !== null")
        page.keyboard.press("Escape")
    else:
        page.go_back()
    page.wait_for_selector(SHEET, state="detached")
    assert page.url.endswith("/browse?sort=title")


def test_tag_link_leads_to_the_filtered_grid(ctx, size):
    post = post_with(ctx, "Short clip 41")
    page = ctx.new_page()
    open_detail(page, post["id"])
    page.locator(f"{SHEET} .detail-tags a", has_text="#short").click()
    page.wait_for_selector(SHEET, state="detached")
    assert page.url.endswith("/browse?tags=short")


def test_play_in_feed_from_here_keeps_the_grid_query(ctx, size):
    post = post_with(ctx, "Short clip 42")
    page = ctx.new_page()
    open_detail(page, post["id"], kind="browse", query="tags=detail&sort=title")
    page.locator(f"{SHEET} [data-action=feed-from-here]").click()
    page.wait_for_selector(SHEET, state="detached")
    assert page.url.endswith(f"/?from=browse&tags=detail&sort=title&start={post['id']}")


def test_the_sheet_shows_nothing_bare_before_its_stylesheet_arrives(browser, watch_library):
    """On a cold cache the sheet opens before /css/detail.css has arrived: it is open and holds
    the focus at once, but stays transparent until its sheet has loaded, never bare markup."""
    context = context_for(browser, watch_library["url"], "phone")
    try:
        post = post_with(context, "Short clip 41")
        page = context.new_page()
        held = []
        page.route("**/css/detail.css", lambda route: held.append(route))
        push_detail(page, post["id"])
        until(page, lambda: held, 5_000, "the sheet asking for its stylesheet")
        opacity = f"getComputedStyle(document.querySelector('{SHEET}')).opacity"
        assert page.evaluate(opacity) == "0"
        assert page.evaluate("document.activeElement.className") == "detail-close"
        held[0].continue_()
        page.wait_for_function(f"() => {opacity} === '1'", timeout=5_000)
    finally:
        context.close()
