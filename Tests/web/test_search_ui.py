"""The Search screen against a real server: search as you type (the URL follows), what a person
means is found ("leon" → "Léon" …), the matched words are marked, results page in past the
first page, and a search whose result was opened comes back under Recent."""
from urllib.parse import parse_qs, urlsplit

import pytest

from app_helpers import COVER, SIZES, assert_pool_bound, cover_titles, open_app, scroll_to_end, tap, wait_covers, wait_pictures

CASES = [
    ("leon", "Léon", True),
    ("spider man", "Spider-Man", True),
    ("mr robot", "Mr. Robot", True),
    ("creme brulee", "Crème brûlée", True),
    ("fragilistic", "Supercalifragilisticexpialidocious", True),   # a substring of a long word
    ("tag:cats", "Cats on a roof", False),                          # a tag
    ("quixotic", "Morning walk", False),                            # a word only in the description
]


def search(page, size, text: str) -> None:
    tap(page, ".nav-search", size)
    page.wait_for_selector("#search-input")
    page.fill("#search-input", text)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("query, title, marked", CASES, ids=[case[0] for case in CASES])
def test_search_finds_what_a_person_means(browser, catalog, size, query, title, marked):
    context, page = open_app(browser, catalog["url"], size, "/")
    page.wait_for_selector(".app-nav .nav-search")
    search(page, size, query)
    page.wait_for_function("t => [...document.querySelectorAll('.lazy-grid .cover-title')].some(e => e.textContent === t)", arg=title, timeout=10_000)
    url = urlsplit(page.url)
    assert url.path == "/search" and parse_qs(url.query)["q"] == [query], page.url
    titles = cover_titles(page)
    assert title in titles[:3], f"{title!r} should be among the first results for {query!r}: {titles}"
    if marked:
        cover = page.locator(f"{COVER}", has_text=title).first
        marks = cover.locator("mark").all_inner_texts()
        assert marks, f"nothing marked in {title!r} for {query!r}"
        assert all(mark.lower() in title.lower() for mark in marks)
    assert_pool_bound(page)
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_results_page_in_past_the_first_page(browser, catalog, size, artifacts):
    """38 filler posts match "catalog post": more than a page, so the grid asks for the next
    pages with the cursor as its end comes into view, and shows each post once."""
    context, page = open_app(browser, catalog["url"], size, "/")
    pages = []
    page.on("request", lambda request: pages.append(request.url) if "/api/v1/search?" in request.url else None)
    page.wait_for_selector(".app-nav .nav-search")
    search(page, size, "catalog post")
    wait_covers(page, 10)
    page.wait_for_selector(".lazy-grid:not([aria-busy])")
    wait_pictures(page)
    page.screenshot(path=str(artifacts / f"app-search-{size[0]}.png"))
    for _ in range(20):
        if page.get_attribute(".lazy-grid", "data-done") == "true":
            break
        scroll_to_end(page)
        page.wait_for_timeout(300)
    total = page.locator(COVER).count()
    assert total == 38, f"every filler post once, after lazy loading: {total}"
    ids = page.eval_on_selector_all(COVER, "els => els.map(e => e.dataset.itemId)")
    assert len(set(ids)) == len(ids), "no post twice"
    assert any("cursor=" in url for url in pages), f"no page after the first was asked for: {pages}"
    assert_pool_bound(page)
    context.close()


def test_typing_updates_the_results_and_the_url(browser, catalog):
    context, page = open_app(browser, catalog["url"], SIZES[1].values[0], "/search")
    page.wait_for_selector("#search-input:focus")
    page.locator("#search-input").press_sequentially("whisk", delay=60)
    page.wait_for_function("() => location.search === '?q=whisk'")
    page.wait_for_function("() => [...document.querySelectorAll('.lazy-grid .cover-title')].map(e => e.textContent).join('|') === 'Whiskers at noon'")
    page.fill("#search-input", "robot")
    page.wait_for_function("() => [...document.querySelectorAll('.lazy-grid .cover-title')].map(e => e.textContent).join('|') === 'Mr. Robot'")
    assert page.url.endswith("/search?q=robot")
    # Back to the empty field: the hints are shown instead of results.
    page.fill("#search-input", "")
    page.wait_for_selector(".search-hints:visible")
    assert "tag:cats" in page.inner_text(".search-hints")
    context.close()


def test_an_opened_result_is_kept_as_a_recent_search(browser, catalog):
    context, page = open_app(browser, catalog["url"], SIZES[1].values[0], "/search")
    page.request.delete("/api/v1/me/searches")
    page.fill("#search-input", "spider")
    page.wait_for_selector(f"{COVER}")
    page.keyboard.press("Tab")
    page.locator(COVER).first.focus()
    page.keyboard.press("Enter")   # a cover opens with the keyboard too
    page.wait_for_url("**/p/*")
    page.keyboard.press("Escape")
    page.wait_for_url("**/search?q=spider")
    page.fill("#search-input", "")
    page.wait_for_selector(".recent-search")
    assert page.locator(".recent-search").first.inner_text() == "spider"
    page.locator(".recent-search").first.click()
    page.wait_for_function("() => document.getElementById('search-input').value === 'spider'")
    wait_covers(page)
    context.close()


def test_back_to_the_results_shows_them_where_they_were(browser, catalog):
    """Results scrolled down, the feed visited, then back: the same covers at the same place,
    without asking the server again."""
    context, page = open_app(browser, catalog["url"], SIZES[0].values[0], "/search?q=catalog+post")
    wait_covers(page, 20)
    page.evaluate("document.getElementById('screens').scrollTop = 600")
    page.wait_for_timeout(300)
    where = page.evaluate("document.getElementById('screens').scrollTop")
    count = page.locator(COVER).count()
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/api/v1/search" in request.url else None)
    tap(page, ".nav-feed", SIZES[0].values[0])
    page.wait_for_selector("#feed-view:not([hidden]) [data-item-id][aria-current=true]", timeout=15_000)
    page.go_back()
    page.wait_for_url("**/search?q=catalog+post")
    page.wait_for_selector(f"{COVER}")
    assert page.evaluate("document.getElementById('screens').scrollTop") == pytest.approx(where, abs=2)
    assert page.locator(COVER).count() == count
    assert not asked, asked
    context.close()
