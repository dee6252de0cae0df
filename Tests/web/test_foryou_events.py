"""Watch events from the feed (issue 16), at a 390×844 touch phone and a 1440×900 desktop:
an impression per item shown; leaving a video within 2 s is a skip, after ≥ 2 s a view with
the watched time (loops included), its duration and loop count; the queue is flushed by the
page's 10 s timer (run with Playwright's clock) and by a beacon when the page is left; it
survives a reload without network, waits out a 429's Retry-After, and drops what the server
refuses with 400 instead of sending it forever. Every batch goes to the real server, which must
accept it (200), unless a test answers it itself."""
import re
from datetime import datetime, timedelta, timezone

import pytest

from foryou_helpers import (DESKTOP, QUEUE_KEY, SIZES, EventLog, context_of, flush, history_row, next_item, queued, tap,
                            wait_watched)
from helpers import CURRENT, current_id, until

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def open_feed(context, clock: bool = True):
    page = context.new_page()
    if clock:
        page.clock.install()
    page.goto("/")
    page.wait_for_selector(CURRENT, timeout=15_000)
    return page


def seconds_of(foryou, page, post_id: int) -> float:
    """The clip's length as imported (the plan's), found through the post's title."""
    title = page.request.get(f"/api/v1/videos/{post_id}").json()["title"]
    return next(entry["seconds"] for entry in foryou["plan"] if entry["title"] == title)


def assert_well_formed(event: dict) -> None:
    assert UUID.match(event["event_id"]), event
    at = datetime.fromisoformat(event["at"].replace("Z", "+00:00"))
    assert event["at"].endswith("Z") and abs(datetime.now(timezone.utc) - at) < timedelta(minutes=5), event


@pytest.mark.parametrize("size", SIZES)
def test_a_quick_swipe_is_a_skip_and_watching_is_a_view(browser, foryou, size, artifacts):
    context = context_of(browser, foryou, size)
    log = EventLog(context)
    page = open_feed(context)
    watched = current_id(page)
    wait_watched(page, 2.3)
    skipped = next_item(page, size)
    # Shown, not watched: a quick flick. Its playhead is slowed tenfold so that a loaded
    # machine, where the next flick can take seconds to land, cannot turn it into a view.
    page.evaluate("""() => { const video = document.querySelector('[aria-current="true"] video');
                             if (video) { video.defaultPlaybackRate = 0.1; video.playbackRate = 0.1; } }""")
    page.wait_for_timeout(300)
    third = next_item(page, size)
    flush(page)
    log.wait_for(page, lambda e: e["type"] == "skip" and e["post_id"] == skipped, "skip")
    page.screenshot(path=str(artifacts / f"foryou-events-{size[0]}.png"))

    for post in (watched, skipped, third):
        assert len(log.of(post, "impression")) == 1, f"one impression for {post}: {log.of(post)}"
    [view] = log.of(watched, "view")
    length_ms = seconds_of(foryou, page, watched) * 1000
    assert view["watched_ms"] >= 2000
    assert view["duration_ms"] == pytest.approx(length_ms, abs=300)
    assert view["loops"] == view["watched_ms"] // view["duration_ms"] or view["loops"] == 0
    [skip] = log.of(skipped, "skip")
    assert 0 <= skip["watched_ms"] < 2000 and "duration_ms" not in skip
    assert not log.of(skipped, "view") and not log.of(watched, "skip")
    for event in log.events:
        assert_well_formed(event)
    assert len({event["event_id"] for event in log.events}) == len(log.events)
    assert not log.refused(), log.refused()
    context.close()


def test_watched_time_counts_every_loop(browser, foryou):
    context = context_of(browser, foryou, SIZES[1].values[0])
    log = EventLog(context)
    page = open_feed(context)
    post = current_id(page)
    length = seconds_of(foryou, page, post)
    wait_watched(page, length * 2 + 0.5)   # two loops and a bit
    next_item(page, SIZES[1].values[0])
    flush(page)
    [view] = log.wait_for(page, lambda e: e["type"] == "view" and e["post_id"] == post, "view")
    assert view["loops"] >= 2
    assert view["watched_ms"] >= (length * 2 + 0.5) * 1000 - 300
    assert view["watched_ms"] >= view["loops"] * view["duration_ms"]
    assert not log.refused(), log.refused()
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_leaving_the_page_sends_the_view_by_beacon(browser, foryou, size):
    """No timer runs out here: the view is recorded when the page is left and reaches the
    server by navigator.sendBeacon (which Playwright cannot see during an unload, so no fetch
    may have carried it); the person's history on the server shows it."""
    context = context_of(browser, foryou, size)
    log = EventLog(context)
    page = open_feed(context, clock=False)
    post = current_id(page)
    wait_watched(page, 2.3)
    page.goto("about:blank")
    row = history_row(context, page, post)
    assert row["views"] >= 1 and row["watched_ms"] >= 2000
    assert not log.of(post, "view"), "the view went by fetch, not by the beacon"
    assert not log.refused(), log.refused()
    context.close()


def test_events_wait_in_storage_while_offline_and_go_after_a_reload(browser, foryou):
    desktop = SIZES[1].values[0]
    context = context_of(browser, foryou, desktop)
    offline = {"on": True}

    def answer(route, events):
        if not offline["on"]:
            return None
        route.abort("internetdisconnected")
        return -1

    log = EventLog(context, answer=answer)
    page = open_feed(context)
    first = current_id(page)
    next_item(page, desktop)
    flush(page)
    log.wait_for(page, lambda e: log.batches[0]["status"] == -1, "the timer's try (the network failed)")
    waiting = queued(page)
    assert {event["type"] for event in waiting} >= {"impression", "skip"}
    assert any(event["post_id"] == first for event in waiting)

    offline["on"] = False
    page.reload()
    page.wait_for_selector(CURRENT, timeout=15_000)
    ids = {event["event_id"] for event in waiting}
    log.wait_for(page, lambda e: e["event_id"] in ids and log.batches[-1]["status"] == 200, "resent")
    sent = {event["event_id"] for batch in log.batches if batch["status"] == 200 for event in batch["events"]}
    assert ids <= sent, "every event queued while offline was sent after the reload"
    page.wait_for_function("ids => !JSON.parse(localStorage.getItem('reelhouse.events.queue') || '[]').some((e) => ids.includes(e.event_id))",
                           arg=sorted(ids))
    context.close()


def test_a_429_is_waited_out_and_a_400_is_not_retried(browser, foryou):
    desktop = SIZES[1].values[0]
    context = context_of(browser, foryou, desktop)
    armed = []   # the answer the next batch gets (at least `size` events long), then the real server's

    def answer(route, events):
        if not armed or len(events) < armed[0][0]:
            return None
        _, status, headers, body = armed.pop(0)
        route.fulfill(status=status, headers=headers, content_type="application/json", body=body)
        return status

    log = EventLog(context, answer=answer)
    armed.append((1, 429, {"retry-after": "30"}, '{"error":{"code":"rate_limited","message":"slow down"}}'))
    page = open_feed(context)
    flush(page)
    log.wait_for(page, lambda e: log.batches[0]["status"] == 429, "first batch, answered 429")
    page.wait_for_timeout(300)   # the page reads the answer
    flush(page)                       # 10 s later: still inside the 30 s
    page.wait_for_timeout(300)
    assert len(log.batches) == 1, "nothing is sent before Retry-After has passed"
    page.clock.run_for(21_000)       # 31 s after the 429: the next tick sends again
    log.wait_for(page, lambda e: len(log.batches) >= 2, "retry after 429")
    assert log.batches[1]["events"][0]["event_id"] == log.batches[0]["events"][0]["event_id"]

    # A 400 naming one event drops that one (logged) and sends the rest again at once.
    before = len(log.batches)
    armed.append((2, 400, {}, '{"error":{"code":"invalid_event","message":"events[1] (skip, event_id x): post 999 does not exist"}}'))
    next_item(page, desktop)
    next_item(page, desktop)
    flush(page)
    log.wait_for(page, lambda e: any(b["status"] == 400 for b in log.batches) and log.batches[-1]["status"] not in (None, 400), "the rest after a 400")
    index = next((i for i, batch in enumerate(log.batches) if batch["status"] == 400), None)
    assert index is not None, [(b["status"], len(b["events"])) for b in log.batches]
    refused, rest = log.batches[index]["events"], log.batches[index + 1]["events"]
    assert [event["event_id"] for event in rest][:len(refused) - 1] == [event["event_id"] for i, event in enumerate(refused) if i != 1]
    assert refused[1]["event_id"] not in {event["event_id"] for batch in log.batches[index + 1:] for event in batch["events"]}

    # A 400 naming none drops the whole batch: it is not sent again.
    armed.append((1, 400, {}, '{"error":{"code":"bad_request","message":"the body is not a batch"}}'))
    next_item(page, desktop)
    flush(page)
    log.wait_for(page, lambda e: sum(b["status"] == 400 for b in log.batches) == 2, "the batch refused whole")
    dropped_at = max(i for i, batch in enumerate(log.batches) if batch["status"] == 400)
    dropped = {event["event_id"] for event in log.batches[dropped_at]["events"]}
    page.wait_for_function("ids => !JSON.parse(localStorage.getItem('reelhouse.events.queue') || '[]').some((e) => ids.includes(e.event_id))",
                           arg=sorted(dropped))
    next_item(page, desktop)
    flush(page)
    page.wait_for_timeout(500)
    later = {event["event_id"] for batch in log.batches[dropped_at + 1:] for event in batch["events"]}
    assert not dropped & later, "a batch refused with 400 is never sent again"
    assert not log.refused(), log.refused()
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_like_rating_and_copy_link_are_events_too(browser, foryou, size):
    context = context_of(browser, foryou, size)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    log = EventLog(context)
    page = open_feed(context)
    post = current_id(page)
    tap(page, page.locator(f"{CURRENT} .like"), size)
    page.wait_for_function("() => document.querySelector('[aria-current=\"true\"] .like').getAttribute('aria-pressed') === 'true'")
    tap(page, page.locator(f'{CURRENT} .star[data-value="4"]'), size)
    tap(page, page.locator(f"{CURRENT} .like"), size)
    tap(page, page.locator(f'{CURRENT} [data-action="more"]'), size)
    tap(page, page.locator(f'{CURRENT} [data-action="copy-link"]'), size)
    page.locator(".toast", has_text="Link copied.").wait_for()
    page.wait_for_timeout(300)
    flush(page)
    log.wait_for(page, lambda e: e["type"] == "share" and e["post_id"] == post, "share")
    kinds = [event["type"] for event in log.of(post) if event["type"] != "impression"]
    assert kinds == ["favorite", "rating", "unfavorite", "share"], kinds
    assert log.of(post, "rating")[0]["value"] == 4
    assert context.request.get(f"/api/v1/videos/{post}").json()["rating"] == 4   # the state still goes through its route
    assert not log.refused(), log.refused()
    context.close()


def test_answers_that_cross_leave_the_events_in_the_order_of_the_taps(browser, foryou):
    """A like, a rating and an unlike in a quick row are in flight together. When the server
    answers the rating last (here: held until the unlike was answered), the log still reads
    favorite, rating, unfavorite: For You reads it as the order of what the person did."""
    size = ("desktop", DESKTOP, False)   # clicks: the point is the order, not the size
    context = context_of(browser, foryou, size)
    log = EventLog(context)
    page = open_feed(context)
    post = current_id(page)
    held = []
    page.route("**/api/v1/videos/*/rating", lambda route: held.append(route))
    tap(page, page.locator(f"{CURRENT} .like"), size)
    page.wait_for_function("() => document.querySelector('[aria-current=\"true\"] .like').getAttribute('aria-pressed') === 'true'")
    tap(page, page.locator(f'{CURRENT} .star[data-value="3"]'), size)
    until(page, lambda: held, 5_000, "the rating being sent")
    with page.expect_response(lambda response: response.url.endswith(f"/videos/{post}/favorite") and response.request.method == "DELETE"):
        tap(page, page.locator(f"{CURRENT} .like"), size)
    page.wait_for_timeout(300)   # the unlike's answer has been handled
    held[0].continue_()
    flush(page)
    log.wait_for(page, lambda e: e["type"] == "unfavorite" and e["post_id"] == post, "unfavorite")
    kinds = [event["type"] for event in log.of(post) if event["type"] != "impression"]
    assert kinds == ["favorite", "rating", "unfavorite"], kinds
    assert not log.refused(), log.refused()
    context.close()
