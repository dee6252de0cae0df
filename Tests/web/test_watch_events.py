"""Watch events from the full player (Play in the detail sheet; issue 16), at a 390×844 touch
phone and a 1440×900 desktop: Play is an impression, closing after ≥ 2 s watched a view with
the watched time (a replay counts as a loop), the clip's length and the loop count, closing
within 2 s a skip; leaving or hiding the page sends the view by beacon; and one stretch of
watching is in one view only — across a hidden page and when the sheet is opened from the
feed (whose own view ends when it is hidden). Every batch goes to the real server, which must
accept it (200)."""
import pytest

from detail_helpers import SHEET
from foryou_helpers import SIZES, EventLog, context_of, flush, tap, wait_watched
from helpers import CURRENT, current_id

WATCH_VIDEO = f"{SHEET} .watch video"
LONG_CLIP = "For you clip 1"    # 5 s (foryou_plan: odd indexes are 5 s, even 3 s)
SHORT_CLIP = "For you clip 0"   # 3 s


def post_titled(context, title: str) -> int:
    """The post's id, read from the library as a grid would (no feed page: that marks posts seen)."""
    response = context.request.get("/api/v1/browse?sort=title&limit=50")
    assert response.ok, response.text()
    return next(item["id"] for item in response.json()["items"] if (item.get("description") or "").split("\n")[0] == title)


def open_sheet(context, post_id: int):
    """A fresh page on /p/{id} (a shared link): the sheet over Discover, no feed running."""
    page = context.new_page()
    page.clock.install()
    page.goto(f"/p/{post_id}")
    page.wait_for_selector(f"{SHEET} .detail-title", timeout=15_000)
    return page


def press_play(page, size) -> None:
    tap(page, page.locator(f"{SHEET} .detail-actions [data-action=play]"), size)
    page.wait_for_function(
        f"() => {{ const v = document.querySelector('{WATCH_VIDEO}'); return v && !v.paused && v.readyState >= 2; }}", timeout=20_000)


def player_watched(page, seconds: float) -> None:
    """Waits until the full player's video has played `seconds` more (its playhead's forward steps)."""
    page.evaluate("window.__played = null")
    page.wait_for_function(
        """([selector, wanted]) => {
            const video = document.querySelector(selector);
            if (!video) return false;
            const probe = window.__played;
            if (!probe || probe.video !== video) { window.__played = { video, last: video.currentTime, sum: 0 }; return false; }
            const step = video.currentTime - probe.last;
            if (step > 0 && step < 1) probe.sum += step;
            probe.last = video.currentTime;
            return probe.sum >= wanted;
        }""", arg=[WATCH_VIDEO, seconds], timeout=30_000, polling=100)


def close_sheet(page, size) -> None:
    if size[2]:
        page.locator(f"{SHEET} .detail-close").tap()
    else:
        page.keyboard.press("Escape")
    page.wait_for_selector(SHEET, state="detached")


def kinds(log: EventLog, post_id: int) -> list[str]:
    return [event["type"] for event in log.of(post_id)]


@pytest.mark.parametrize("size", SIZES)
def test_watching_in_the_full_player_is_one_impression_and_one_view(browser, foryou, size, artifacts):
    context = context_of(browser, foryou, size)
    log = EventLog(context)
    post = post_titled(context, LONG_CLIP)
    page = open_sheet(context, post)
    press_play(page, size)
    player_watched(page, 3.0)
    page.screenshot(path=str(artifacts / f"watch-events-playing-{size[0]}.png"))
    close_sheet(page, size)
    flush(page)
    log.wait_for(page, lambda e: e["type"] == "view" and e["post_id"] == post, "view")
    page.wait_for_timeout(300)   # anything else on its way
    assert kinds(log, post) == ["impression", "view"], log.of(post)
    [view] = log.of(post, "view")
    assert 2800 <= view["watched_ms"] <= 4500, view
    assert view["duration_ms"] == pytest.approx(5000, abs=300), view
    assert view["loops"] == 0, view
    assert not log.refused(), log.refused()
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_closing_within_two_seconds_is_a_skip(browser, foryou, size):
    context = context_of(browser, foryou, size)
    log = EventLog(context)
    post = post_titled(context, LONG_CLIP)
    page = open_sheet(context, post)
    press_play(page, size)
    close_sheet(page, size)
    flush(page)
    log.wait_for(page, lambda e: e["type"] == "skip" and e["post_id"] == post, "skip")
    assert kinds(log, post) == ["impression", "skip"], log.of(post)
    [skip] = log.of(post, "skip")
    assert 0 <= skip["watched_ms"] < 2000 and "duration_ms" not in skip, skip
    assert not log.refused(), log.refused()
    context.close()


def test_a_replay_after_the_end_counts_as_a_loop(browser, foryou):
    desktop = SIZES[1].values[0]
    context = context_of(browser, foryou, desktop)
    log = EventLog(context)
    post = post_titled(context, SHORT_CLIP)
    page = open_sheet(context, post)
    press_play(page, desktop)
    page.wait_for_function(f"() => document.querySelector('{WATCH_VIDEO}').ended", timeout=20_000)
    page.locator(f"{SHEET} .watch-toggle").click()   # ▶ again: the clip starts over
    player_watched(page, 1.0)
    close_sheet(page, desktop)
    flush(page)
    [view] = log.wait_for(page, lambda e: e["type"] == "view" and e["post_id"] == post, "view")
    assert view["loops"] == 1, view
    assert view["duration_ms"] == pytest.approx(3000, abs=300), view
    assert view["duration_ms"] + 800 <= view["watched_ms"] <= view["duration_ms"] + 2500, view
    assert kinds(log, post) == ["impression", "view"], log.of(post)
    assert not log.refused(), log.refused()
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_leaving_the_page_while_watching_sends_the_view_by_beacon(browser, foryou, size):
    """No timer runs out here: the view is recorded as the page is left and reaches the server
    by navigator.sendBeacon (which Playwright cannot see during an unload, so no fetch may have
    carried it); the person's history on the server shows it."""
    context = context_of(browser, foryou, size)
    log = EventLog(context)
    post = post_titled(context, LONG_CLIP)
    page = context.new_page()
    page.goto(f"/p/{post}")
    page.wait_for_selector(f"{SHEET} .detail-title", timeout=15_000)
    press_play(page, size)
    player_watched(page, 2.3)
    page.goto("about:blank")
    rows = {}
    for _ in range(40):
        history = context.request.get("/api/v1/me/history")
        assert history.ok, history.text()
        rows = {row["post_id"]: row for row in history.json()["items"]}
        if post in rows:
            break
        page.wait_for_timeout(250)
    assert post in rows, f"the view of {post} did not reach the server: {rows}"
    assert rows[post]["views"] == 1 and rows[post]["skips"] == 0 and rows[post]["watched_ms"] >= 2000, rows[post]
    assert not log.of(post, "view"), "the view went by fetch, not by the beacon"
    assert not log.refused(), log.refused()
    context.close()


HIDE = """(hidden) => {
    Object.defineProperty(document, 'hidden', { value: hidden, configurable: true });
    Object.defineProperty(document, 'visibilityState', { value: hidden ? 'hidden' : 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
}"""


def test_hiding_the_page_sends_the_view_and_coming_back_starts_a_new_one(browser, foryou):
    """The tab goes to the background while the clip plays (visibilitychange → hidden): the view
    so far goes at once by beacon; back in front, the rest of the clip is a new impression and
    view. One play-through of the 5 s clip, so the two views together hold at most its length:
    no second counts twice."""
    desktop = SIZES[1].values[0]
    context = context_of(browser, foryou, desktop)
    log = EventLog(context)
    post = post_titled(context, LONG_CLIP)
    page = open_sheet(context, post)
    press_play(page, desktop)
    player_watched(page, 2.1)
    page.evaluate(HIDE, True)
    [first] = log.wait_for(page, lambda e: e["type"] == "view" and e["post_id"] == post, "view by beacon")
    assert log.batches[-1]["kind"] == "ping", "sent by navigator.sendBeacon"
    page.evaluate(HIDE, False)
    page.wait_for_function(f"() => document.querySelector('{WATCH_VIDEO}').ended", timeout=20_000)
    close_sheet(page, desktop)
    flush(page)
    log.wait_for(page, lambda e: len(log.of(post, "view")) == 2, "the second view")
    page.wait_for_timeout(300)
    assert kinds(log, post) == ["impression", "view", "impression", "view"], log.of(post)
    second = log.of(post, "view")[1]
    assert first["watched_ms"] >= 2000 and second["watched_ms"] >= 1000, (first, second)
    assert first["watched_ms"] + second["watched_ms"] <= first["duration_ms"] + 300, (first, second)
    assert not log.refused(), log.refused()
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_sheet_opened_from_the_feed_counts_its_own_watch(browser, foryou, size):
    """Watching the feed's item, the person follows a link to its page (/p/{id}): the feed is
    hidden under the sheet and its view ends there, with the feed's time only; Play then starts
    the full player's own impression and view. The feed does not count on behind the sheet."""
    context = context_of(browser, foryou, size)
    log = EventLog(context)
    page = context.new_page()
    page.clock.install()
    page.goto("/")
    page.wait_for_selector(CURRENT, timeout=15_000)
    post = current_id(page)
    wait_watched(page, 2.3)
    page.evaluate("""(id) => {
        const link = Object.assign(document.createElement('a'), { href: `/p/${id}`, textContent: 'its page' });
        document.querySelector('[aria-current="true"]').append(link);
        link.click();
    }""", post)
    page.wait_for_selector(f"{SHEET} .detail-title", timeout=15_000)
    assert page.locator("#feed-view").is_hidden()
    press_play(page, size)
    player_watched(page, 2.5)
    close_sheet(page, size)
    flush(page)
    log.wait_for(page, lambda e: len(log.of(post, "view")) == 2, "the feed's view and the player's")
    page.wait_for_timeout(300)
    assert kinds(log, post) == ["impression", "view", "impression", "view"], log.of(post)
    in_feed, in_player = log.of(post, "view")
    assert 2000 <= in_feed["watched_ms"] < 4000, in_feed     # the feed's 2.3 s, not the player's too
    assert 2300 <= in_player["watched_ms"] < 4500, in_player
    assert not log.refused(), log.refused()
    context.close()
