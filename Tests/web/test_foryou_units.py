"""The pure pieces of the web client's watch events, run in the browser on the served modules:
the watch tracker's arithmetic (forward steps count, a seek does not, a jump from the end to
the start is a loop; skip below 2 s, view from 2 s within the server's bounds), the queue
(oldest first, shared through storage, bounded) and the event id fallback without randomUUID."""
import re

import pytest

from foryou_helpers import SIZES, context_of


@pytest.fixture(scope="module")
def page(browser, foryou):
    context = context_of(browser, foryou, SIZES[1].values[0])
    page = context.new_page()
    page.goto("/profile")
    page.wait_for_selector(".profile")
    yield page
    context.close()


def track(page, item: dict, samples: list[tuple[float, float]]) -> list[list]:
    """Events the tracker records for `item` watched through `samples` of (currentTime, duration)."""
    return page.evaluate("""async ([item, samples]) => {
        const { createWatchTracker } = await import('/js/events/watch-tracker.js');
        const events = [];
        const tracker = createWatchTracker({ record: (type, id, fields = {}) => events.push([type, id, fields]) });
        const video = { currentTime: 0, duration: NaN };
        tracker.begin(item);
        for (const [time, duration] of samples) { video.currentTime = time; video.duration = duration; tracker.sample(video); }
        tracker.end(video);
        return events;
    }""", [item, samples])


def test_a_short_stay_is_a_skip(page):
    events = track(page, {"id": 7, "kind": "video"}, [(0, 5), (0.5, 5), (1.0, 5), (1.4, 5)])
    assert events == [["impression", 7, {}], ["skip", 7, {"watched_ms": 1400}]]


def test_a_seek_counts_nothing_and_loops_count_every_pass(page):
    steps = [(t / 2, 4) for t in range(0, 8)]            # 0 … 3.5 s
    steps += [(0.3, 4), (1.3, 4), (2.3, 4)]              # looped: 0.5 s to the end + 0.3 s, then on
    steps += [(3.9, 4)]                                  # a seek forward of 1.6 s: not watched
    events = track(page, {"id": 3, "kind": "video"}, steps)
    assert events[0] == ["impression", 3, {}]
    assert events[1][0] == "view"
    # 3.5 s, then 0.5 + 0.3 s across the loop, then 2 s; the 1.6 s jump adds nothing
    assert events[1][2] == {"watched_ms": 6300, "duration_ms": 4000, "loops": 1}


def test_a_view_stays_within_the_servers_bounds(page):
    # A 1 s clip looped for a long time: the watch ratio is capped at 50.
    steps = [(t / 4 % 1, 1) for t in range(0, 4 * 120)]
    [_, (kind, _, fields)] = track(page, {"id": 1, "kind": "video"}, steps)
    assert kind == "view" and fields["duration_ms"] == 1000
    assert fields["watched_ms"] == 50 * 1000 and fields["loops"] >= 100


@pytest.mark.parametrize("kind", ["image", "carousel"])
def test_photos_get_an_impression_only(page, kind):
    """A view needs the post's length and a photo has none (see watch-tracker.js): however long
    it stays on screen, a photo or carousel is an impression, never a view or a skip."""
    assert track(page, {"id": 9, "kind": kind}, []) == [["impression", 9, {}]]


def test_the_queue_is_shared_through_storage_and_bounded(page):
    result = page.evaluate("""async () => {
        const { createEventQueue } = await import('/js/events/queue.js');
        const store = new Map();
        const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v), removeItem: (k) => store.delete(k) };
        const at = new Date().toISOString();
        const one = createEventQueue({ storage, key: 'q' });
        const two = createEventQueue({ storage, key: 'q' });   // another tab
        one.add({ event_id: 'a', at }); two.add({ event_id: 'b', at }); one.add({ event_id: 'c', at });
        const both = two.peek().map((e) => e.event_id);
        one.remove(['a', 'c']);
        const left = two.peek().map((e) => e.event_id);
        one.add({ event_id: 'old', at: '2020-01-01T00:00:00.000Z' });
        const afterOld = two.peek().map((e) => e.event_id);
        for (let i = 0; i < 2100; i += 1) one.add({ event_id: `n${i}`, at });
        return { both, left, afterOld, size: two.size, first: two.peek(1)[0].event_id };
    }""")
    assert result["both"] == ["a", "b", "c"], "two tabs add to one queue, oldest first"
    assert result["left"] == ["b"]
    assert result["afterOld"] == ["b"], "an event older than a week is not kept"
    assert result["size"] == 2000 and result["first"] == "n100", "beyond 2000 the oldest go first"


def test_event_ids_are_v4_uuids_without_random_uuid_too(page):
    ids = page.evaluate("""async () => {
        const { newEventId } = await import('/js/events/event-id.js');
        const native = newEventId();
        const saved = crypto.randomUUID;
        crypto.randomUUID = undefined;   // a plain-http LAN address is no secure context
        try { return [native, newEventId(), newEventId()]; } finally { crypto.randomUUID = saved; }
    }""")
    for value in ids:
        assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", value), value
    assert len(set(ids)) == 3
