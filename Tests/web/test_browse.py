"""Browse (All, A–Z): the whole catalog in a grid of same-shaped covers that pages itself in,
sorted by title without a leading article, filtered by tags (include, exclude) and kind, the
filter button tinted while a filter is on, and every choice in the URL (reload keeps it)."""
from urllib.parse import parse_qs, urlsplit

import pytest

from app_helpers import COVER, SIZES, assert_pool_bound, cover_titles, open_app, scroll_to_end, tap, wait_covers


def query_of(page) -> dict:
    return parse_qs(urlsplit(page.url).query)


@pytest.mark.parametrize("size", SIZES)
def test_the_grid_sorts_by_title_and_lazy_loads_past_the_first_page(browser, catalog, size, artifacts):
    context, page = open_app(browser, catalog["url"], size, "/browse")
    wait_covers(page, 10)
    titles = cover_titles(page)
    assert titles[0] == "An apple a day", "A–Z ignores a leading article"
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
