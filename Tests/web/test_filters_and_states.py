"""Tag chips filter the feed, carousels swipe sideways, an empty library explains itself."""
from conftest import PHONE, new_context, open_feed
from helpers import CURRENT, current_id, current_kind, swipe_next


def feed_ids(page) -> list[int]:
    return page.eval_on_selector_all("[data-item-id]", "els => els.map(e => Number(e.dataset.itemId))")


def test_tag_chip_narrows_the_feed(page, library):
    while page.locator(f'{CURRENT} .chip[data-tag="ocean"]').count() == 0:
        swipe_next(page)
    page.click(f'{CURRENT} .chip[data-tag="ocean"]')
    page.wait_for_url("**/?tag=ocean")
    page.wait_for_selector("#filter-chip:not([hidden])")
    page.wait_for_selector(CURRENT)
    page.wait_for_load_state("networkidle")
    ids = feed_ids(page)
    ocean = [entry for entry in library["plan"] if "ocean" in entry["tags"]]
    assert len(set(ids)) == len(ocean) < library["post_count"]
    # every item on the page carries the tag (both counted at one moment: an endless feed may
    # append the next pass of the three posts between two separate counts)
    counts = page.evaluate("""() => [document.querySelectorAll('[data-item-id]').length,
        document.querySelectorAll('[data-item-id]:has(.chip[data-tag="ocean"])').length]""")
    assert counts[0] == counts[1], counts
    page.click("#clear-filter")
    page.wait_for_function("!location.search.includes('tag=')")
    page.wait_for_function("document.querySelectorAll('[data-item-id]').length >= 10")
    # Each filter change restarts the feed: its three players are detached, not kept forever.
    assert page.evaluate("reelhouse.stats()")["players"] == 3


def test_the_feed_takes_browses_spelling_of_a_tag_filter(context):
    page = open_feed(context, "/?tags=album")
    assert current_kind(page) == "carousel"
    assert page.inner_text("#filter-chip .filter-name") == "#album"


def test_carousel_swipes_sideways(context):
    page = open_feed(context, "/?tag=album")
    assert current_kind(page) == "carousel"
    assert page.locator(f"{CURRENT} .dot").count() == 3
    track = page.locator(f"{CURRENT} .carousel")
    assert track.evaluate("t => t.scrollLeft") == 0
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('[aria-current=\"true\"]').dataset.slide === '1'")
    assert page.get_attribute(f'{CURRENT} .dot[data-index="1"]', "data-active") == "true"
    # a touch-style swipe: scroll the track itself
    track.evaluate("t => t.scrollTo({ left: 2 * t.clientWidth })")
    page.wait_for_function("document.querySelector('[aria-current=\"true\"]').dataset.slide === '2'")
    page.click(f"{CURRENT} .carousel-step.prev")
    page.wait_for_function("document.querySelector('[aria-current=\"true\"]').dataset.slide === '1'")


def test_unknown_tag_says_nothing_matches(context):
    page = context.new_page()
    page.goto("/?tag=no-such-tag")
    page.wait_for_selector('#feed-state[data-state="no-match"]')
    assert "no-such-tag" in page.inner_text("#feed-state")
    page.click("#feed-state button")
    page.wait_for_selector(CURRENT)


def test_empty_library_shows_how_to_import(browser, empty_server):
    context = new_context(browser, empty_server)
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector('#feed-state[data-state="empty"]')
    text = page.inner_text("#feed-state")
    assert "empty" in text.lower() and "reelhouse import" in text
    assert page.locator("[data-item-id]").count() == 0
    assert page.locator("video:visible").count() == 0
    context.close()


def test_feed_error_offers_a_retry(context):
    failing = {"on": True}

    def feed_route(route):
        if failing["on"]:
            route.fulfill(status=503, content_type="application/json", body='{"error":{"code":"unavailable","message":"Down for a moment."}}')
        else:
            route.continue_()
    page = context.new_page()
    page.route("**/api/v1/feed*", feed_route)
    page.goto("/")
    page.wait_for_selector('#feed-state[data-state="error"]')
    assert "Down for a moment." in page.inner_text("#feed-state")
    failing["on"] = False
    page.click("#feed-state button")
    page.wait_for_selector(CURRENT)


def test_offline_banner_and_automatic_retry(context):
    page = open_feed(context)
    context.set_offline(True)
    page.wait_for_selector("#offline-banner:not([hidden])")
    context.set_offline(False)
    page.wait_for_selector("#offline-banner", state="hidden")
