"""One owner of playback (Web/js/playback/, issue 27): the story player, the full player
(/p/{id} → Play) and the feed are opened in every order while the player engine module is held
back (a slow phone), then the engine arrives and the history is walked back through all three.
Each screen, when it is the one shown, plays its own item: the one video playing on the page
sits in that screen, its element is held by that screen's lease, and the engine player of that
element holds that screen's item. The page never has more than the pool's three <video>
elements, each with exactly one engine player (two players on one element was the bug of git
log 701349c), and nothing fails to load."""
import itertools
import re

import pytest

from stories_helpers import PLAYER, SIZES, api, fresh_viewer, stories_context, video_count

SHEET = "dialog.detail-sheet[open]"
SCREENS = ("stories", "watch", "feed")
ENGINE = re.compile(r"/js/player/index\.js(\?|$)")

# Where each screen's video sits, and which item it should hold, read from the page.
WHERE = {
    "stories": f"{PLAYER} .stories-media",
    "watch": f"{SHEET} .watch",
    "feed": '#feed [aria-current="true"] .stage',
}
ITEM = {
    "stories": f"() => Number(document.querySelector('{PLAYER} .stories-stage')?.dataset.itemId)",
    "watch": "() => {post_id}",
    "feed": """() => Number(document.querySelector('#feed [aria-current="true"]')?.dataset.itemId)""",
}


def navigate(page, path: str, state: dict) -> None:
    """What a link of the app does: push the entry, let the router show it."""
    page.evaluate("""([path, state]) => {
        history.pushState(state, '', path);
        dispatchEvent(new PopStateEvent('popstate', { state }));
    }""", [path, state])


def open_screen(page, screen: str, post_id: int, first: bool) -> None:
    """Opens `screen` (the first one by loading its URL, the others as the app's links do) and
    waits until it holds an element of the pool: with the engine held back, nothing plays yet."""
    here = page.evaluate("location.pathname") if not first else None
    if screen == "stories":
        if first:
            page.goto("/stories/alice")
        else:
            navigate(page, "/stories/alice", {"background": "/" if here == "/" else "/discover"})
        page.wait_for_selector(f"{PLAYER}[data-user='alice'] .stories-stage[data-kind='video']", timeout=20_000)
    elif screen == "watch":
        if first:
            page.goto(f"/p/{post_id}")
        else:
            navigate(page, f"/p/{post_id}", {"background": "/discover"})
        play(page)
    else:
        if first:
            page.goto("/")
        else:
            navigate(page, "/", {})
        page.wait_for_selector('#feed [aria-current="true"].kind-video', timeout=20_000)
    page.wait_for_selector(f"{WHERE[screen]} video", state="attached", timeout=20_000)


def play(page) -> None:
    page.wait_for_selector(f"{SHEET} .detail-actions [data-action=play]", timeout=20_000)
    page.locator(f"{SHEET} .detail-actions [data-action=play]").tap()
    page.wait_for_selector(f"{SHEET} .watch", timeout=20_000)


def plays_its_own_item(page, screen: str, post_id: int, what: str) -> None:
    """Waits until `screen`'s own item plays in `screen`'s element (and nothing else plays),
    then checks the elements and players of the whole page."""
    expected_item = ITEM[screen].replace("{post_id}", str(post_id))
    check = f"""() => {{
        const box = document.querySelector('{WHERE[screen]}');
        const video = box?.querySelector('video');
        const expected = ({expected_item})();
        if (!video || !expected) return null;
        const playing = [...document.querySelectorAll('video')].filter((v) => !v.paused);
        // A full player's clip (4 s, no loop) may have played to its end by the time we look.
        const played = video.currentTime > 0.3 && (!video.paused || video.ended);
        const seat = reelhouse.playback().find((entry) => entry.element === Number(video.dataset.element));
        const ok = played && playing.every((v) => v === video) && seat?.holder === '{screen}'
            && seat.itemId === expected;
        return ok ? {{ expected, seat }} : null;
    }}"""
    try:
        page.wait_for_function(check, timeout=25_000, polling=100)
    except Exception as error:
        state = page.evaluate("""() => ({
            seats: reelhouse.playback(), url: location.pathname,
            videos: [...document.querySelectorAll('video')].map((v) => ({ element: v.dataset.element, paused: v.paused, ended: v.ended,
                time: v.currentTime, ready: v.readyState, where: v.parentElement?.className ?? null })),
        })""")
        raise AssertionError(f"{what}: {screen} does not play its own item: {state}") from error
    assert video_count(page) <= 3, f"{what}: more <video> elements than the pool's three"
    seats = page.evaluate("reelhouse.playback()")
    assert sorted(seat["element"] for seat in seats) == [0, 1, 2]
    assert sum(seat["playing"] for seat in seats) == 1, f"{what}: one video plays: {seats}"
    stats = page.evaluate("reelhouse.stats()")
    assert stats["players"] == 3, f"{what}: one engine player per element, none driven by two: {stats}"
    assert stats["failedLoads"] == 0, f"{what}: {stats}"


@pytest.mark.parametrize("order", list(itertools.permutations(SCREENS)), ids=lambda order: "-".join(order))
def test_each_screen_plays_its_own_item_in_every_order_while_the_engine_loads(browser, stories, order):
    size = SIZES[0].values[0]
    context = stories_context(browser, stories, size, fresh_viewer(stories, "owner"))
    try:
        post = next(item for item in api(context, "/api/v1/feed?limit=10")["items"] if item["kind"] == "video")
        page = context.new_page()
        held = []
        page.route(ENGINE, lambda route: held.append(route) if not held else route.continue_())
        for index, screen in enumerate(order):
            open_screen(page, screen, post["id"], first=index == 0)
            assert video_count(page) <= 3
        assert held, "the engine module was asked for and is still held"
        assert page.evaluate("() => reelhouse.playback().every((seat) => !seat.engineReady && !seat.playing)")
        held[0].continue_()
        plays_its_own_item(page, order[2], post["id"], "the last screen opened, once the engine arrived")
        # Back through the history: each screen shown again plays its own item.
        for step, screen in ((1, order[1]), (2, order[0])):
            page.go_back()
            if screen == "watch":
                play(page)
            plays_its_own_item(page, screen, post["id"], f"{step} step(s) back")
    finally:
        context.close()
