"""The page's three <video> elements across screens: the full player on a page with no feed
(the page's playback service, one element in the document), and autoplay next (Profile's
preference) moving the feed on when a video ends instead of looping it."""
from conftest import new_context
from detail_helpers import SHEET, post_with, video_count
from helpers import CURRENT, current_id, wait_current_changes


def test_full_player_without_a_feed_uses_one_page_element(browser, watch_library):
    context = new_context(browser, watch_library["url"], viewport={"width": 1440, "height": 900})
    try:
        post = post_with(context, "Short clip 41")
        page = context.new_page()
        # A page of the app's origin with no feed (and no pool) on it: a screen other than the feed.
        page.route("**/no-feed.html", lambda route: route.fulfill(
            content_type="text/html", body="<!doctype html><title>no feed</title><div id=toasts></div>"))
        page.goto("/no-feed.html")
        assert video_count(page) == 0
        # The page's playback service, as the app's boot makes it: its elements are out of the
        # document until a screen leases one.
        page.evaluate("""(id) => Promise.all([import('/js/detail/index.js'), import('/js/playback/index.js')]).then(([m, { createPlaybackService }]) => {
            window.__sheet = m.openDetail(id, { navigate: (p) => history.pushState(null, '', p), playback: createPlaybackService() });
        })""", post["id"])
        page.wait_for_selector(f"{SHEET} .detail-title")
        page.locator(f"{SHEET} .detail-actions [data-action=play]").click()
        page.wait_for_function(f"() => {{ const v = document.querySelector('{SHEET} .watch video'); return v && !v.paused && v.readyState >= 2; }}", timeout=20_000)
        assert video_count(page) == 1
        page.keyboard.press("Escape")
        page.wait_for_selector(SHEET, state="detached")
        assert video_count(page) == 0   # given back: nothing left playing in the page
    finally:
        context.close()


def test_autoplay_next_moves_the_feed_on(context):
    page = context.new_page()
    page.add_init_script("localStorage.setItem('reelhouse.autoplayNext', 'true')")
    page.goto("/?tag=ocean")
    page.wait_for_selector(f"{CURRENT} video.ready", timeout=20_000)
    first = current_id(page)
    assert page.eval_on_selector(f"{CURRENT} video", "v => v.loop") is False
    # No input at all: the clip (4–6 s) ends and the next post becomes current.
    assert wait_current_changes(page, first, timeout=20_000) != first
    assert video_count(page) <= 3
