"""Browse (All, A–Z): the whole catalog in a grid of same-shaped covers that pages itself in,
sorted by title without a leading article, filtered by tags (include, exclude) and kind, the
filter button tinted while a filter is on, and every choice in the URL (reload keeps it)."""
from urllib.parse import parse_qs, urlsplit

import pytest

from app_helpers import COVER, SIZES, assert_pool_bound, cover_titles, open_app, scroll_to_end, tap, wait_covers, wait_pictures


def query_of(page) -> dict:
    return parse_qs(urlsplit(page.url).query)


@pytest.mark.parametrize("size", SIZES)
def test_the_grid_sorts_by_title_and_lazy_loads_past_the_first_page(browser, catalog, size, artifacts):
    context, page = open_app(browser, catalog["url"], size, "/browse")
    wait_covers(page, 10)
    titles = cover_titles(page)
    assert titles[0] == "An apple a day", "A–Z ignores a leading article"
    wait_pictures(page)
    page.screenshot(path=str(artifacts / f"app-browse-{size[0]}.png"))
    boxes = page.locator(COVER).evaluate_all("els => els.slice(0, 8).map(e => e.getBoundingClientRect()).map(r => [r.width, r.height])")
    assert all(abs(h / w - 16 / 9) < 0.02 for w, h in boxes), f"every cover 9:16: {boxes}"
    for _ in range(20):
        if page.get_attribute(".lazy-grid", "data-done") == "true":
            break
        scroll_to_end(page)
        page.wait_for_timeout(300)
    assert page.locator(COVER).count() == len(catalog["plan"])
    assert_pool_bound(page)
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_filters_combine_tint_the_button_and_live_in_the_url(browser, catalog, size, artifacts):
    context, page = open_app(browser, catalog["url"], size, "/browse")
    wait_covers(page)
    button = page.locator(".filter-button")
    assert button.get_attribute("data-active") == "false"
    plain = button.evaluate("el => getComputedStyle(el).backgroundColor")
    tap(page, ".filter-button", size)
    page.wait_for_selector('.tag-toggle[data-tag="cats"]')
    page.screenshot(path=str(artifacts / f"app-browse-filters-{size[0]}.png"))
    tap(page, '.tag-toggle[data-tag="cats"]', size)
    page.wait_for_function("() => new URLSearchParams(location.search).get('tags') === 'cats'")
    page.wait_for_function("() => document.querySelectorAll('.lazy-grid .cover[data-item-id]').length === 2")
    assert sorted(cover_titles(page)) == ["Cats on a roof", "Whiskers at noon"]
    # Again: the tag is excluded instead.
    tap(page, '.tag-toggle[data-tag="cats"]', size)
    page.wait_for_function("() => new URLSearchParams(location.search).get('exclude_tags') === 'cats'")
    tap(page, 'input[name=kind][value=video]', size)
    page.wait_for_function("() => new URLSearchParams(location.search).get('kind') === 'video'")
    page.keyboard.press("Escape")
    page.wait_for_selector(".filter-panel", state="hidden")
    page.wait_for_function("() => document.querySelectorAll('.lazy-grid .cover[data-item-id]').length === 4")
    assert button.get_attribute("data-active") == "true"
    assert button.evaluate("el => getComputedStyle(el).backgroundColor") != plain, "the button is tinted"
    assert "2" in button.inner_text()
    query = query_of(page)
    assert query["exclude_tags"] == ["cats"] and query["kind"] == ["video"]
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('.lazy-grid .cover[data-item-id]').length === 4")
    assert page.locator(".filter-button").get_attribute("data-active") == "true"
    page.screenshot(path=str(artifacts / f"app-browse-filtered-{size[0]}.png"))
    context.close()


def test_sort_is_in_the_url(browser, catalog):
    context, page = open_app(browser, catalog["url"], SIZES[1].values[0], "/browse")
    wait_covers(page)
    page.select_option("select[name=sort]", "duration")
    page.wait_for_function("() => new URLSearchParams(location.search).get('sort') === 'duration'")
    wait_covers(page)
    page.reload()
    wait_covers(page)
    assert page.input_value("select[name=sort]") == "duration"
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_order_button_reverses_the_sort_and_lives_in_the_url(browser, catalog, size, artifacts):
    context, page = open_app(browser, catalog["url"], size, "/browse")
    wait_covers(page, 10)
    button = page.locator(".order-button")
    assert button.inner_text() == "↑ A–Z"
    ascending = cover_titles(page)
    assert ascending[0] == "An apple a day"
    first_desc = [item["id"] for item in context.request.get("/api/v1/browse?sort=title&order=desc&limit=10").json()["items"]]

    tap(page, ".order-button", size)
    page.wait_for_function("() => new URLSearchParams(location.search).get('order') === 'desc'")
    page.wait_for_function("id => document.querySelector('.lazy-grid .cover[data-item-id]')?.dataset.itemId === String(id)", arg=first_desc[0])
    wait_covers(page, 10)
    assert button.inner_text() == "↓ Z–A"
    shown = [int(i) for i in page.locator(COVER).evaluate_all("els => els.slice(0, 10).map(e => e.dataset.itemId)")]
    assert shown == first_desc, "the grid is the server's descending order"
    assert cover_titles(page)[0] == "The Zebra crossing", "Z–A ignores the leading article too"
    wait_pictures(page)
    page.screenshot(path=str(artifacts / f"app-browse-desc-{size[0]}.png"))

    # The choice survives a reload; another sort starts from its own direction (duration: ↑).
    page.reload()
    wait_covers(page, 10)
    assert page.locator(".order-button").inner_text() == "↓ Z–A"
    page.select_option("select[name=sort]", "duration")
    page.wait_for_function("() => { const q = new URLSearchParams(location.search); return q.get('sort') === 'duration' && !q.has('order'); }")
    assert page.locator(".order-button").inner_text() == "↑ Ascending"
    # From the keyboard (desktop) or a tap (phone): reversed to longest first.
    if size[2]:
        tap(page, ".order-button", size)
    else:
        page.focus(".order-button")
        page.keyboard.press("Enter")
    page.wait_for_function("() => new URLSearchParams(location.search).get('order') === 'desc'")
    assert page.locator(".order-button").inner_text() == "↓ Descending"
    longest = context.request.get("/api/v1/browse?sort=duration&order=desc&limit=1").json()["items"][0]["id"]
    page.wait_for_function("id => document.querySelector('.lazy-grid .cover[data-item-id]')?.dataset.itemId === String(id)", arg=longest)
    assert_pool_bound(page)
    context.close()
