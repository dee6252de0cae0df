"""The feed loads, plays, pages, and keeps its pool of three players honest."""
from helpers import current_id, current_kind, pool_report, swipe_next, wait_playing, wheel_next


def test_first_video_plays(page):
    assert page.locator("[data-item-id]").count() >= 1
    # The first item may be the carousel; move to the first video.
    for _ in range(3):
        if current_kind(page) == "video":
            break
        swipe_next(page)
    state = wait_playing(page)
    assert state["frames"] > 0 and state["currentTime"] > 0.2
    assert pool_report(page)["count"] == 3


def test_fifteen_swipes_play_each_item_once_with_three_players(page, library):
    seen = [current_id(page)]
    played = 0
    for step in range(15):
        if current_kind(page) == "video":
            wait_playing(page)
            played += 1
        report = pool_report(page)
        assert report["count"] <= 3, report
        assert report["offscreenPlaying"] == 0, report
        assert report["offscreenAudible"] == 0, report
        # Alternate the ways a desktop user moves: the wheel (scroll-snap) and the keyboard.
        if step % 2:
            seen.append(wheel_next(page))
        else:
            seen.append(swipe_next(page))
    assert len(seen) == 16
    assert len(set(seen)) == len(seen), f"an item repeated within one pass of the library: {seen}"
    assert played >= 12  # every video among them played; the carousel does not
    assert page.locator("video").count() <= 3


def test_next_page_is_requested_before_the_end_without_duplicates(page):
    first_page = page.locator("[data-item-id]").count()
    for _ in range(first_page - 3):
        swipe_next(page)
    page.wait_for_function(f"document.querySelectorAll('[data-item-id]').length > {first_page}")
    ids = page.eval_on_selector_all("[data-item-id]", "els => els.map(e => e.dataset.itemId)")
    assert len(ids) == len(set(ids)), ids


def test_offscreen_players_hold_the_neighbours_paused_and_muted(page):
    while current_kind(page) != "video":
        swipe_next(page)
    wait_playing(page)
    page.keyboard.press("m")  # sound on for the current item only
    page.wait_for_function("!document.querySelector('[aria-current=\"true\"] video').muted")
    swipe_next(page)
    report = pool_report(page)
    assert report == {"count": 3, "offscreenPlaying": 0, "offscreenAudible": 0}, report
    # Each pooled <video> lives inside the item it serves (or is parked, idle).
    homes = page.eval_on_selector_all("video", "vs => vs.map(v => v.closest('[data-item-id]')?.dataset.itemId ?? null)")
    placed = [home for home in homes if home]
    assert len(placed) == len(set(placed))


def test_pool_planner_rules(page):
    """The pure planner that decides which item each of the three players holds."""
    result = page.evaluate("""async () => {
        const { planPool, wantedIndices, prefetchTargets } = await import('/js/feed/pool-plan.js');
        const kinds = ['video', 'video', 'image', 'video', 'video', 'carousel', 'video'];
        const ids = [10, 11, 12, 13, 14, 15, 16];
        const start = planPool({ ids, kinds, current: 0, slots: [null, null, null] });
        const moved = planPool({ ids, kinds, current: 1, slots: start });
        const jump = planPool({ ids, kinds, current: 4, slots: moved });
        const single = planPool({ ids, kinds, current: 3, slots: [null, null, null], reach: 1 });
        return { start, moved, jump, single, wanted: wantedIndices(kinds, 4), prefetch: prefetchTargets(kinds, 3) };
    }""")
    assert result["start"] == [10, 11, 13]           # current, next, then the next video ahead
    assert result["moved"] == [10, 11, 13]           # nothing reloads when the wanted set is the same
    assert sorted(x for x in result["jump"] if x) == [13, 14, 16]
    assert result["jump"][2] == 13                   # a player keeps the item it already holds
    assert result["single"] == [13, None, None]
    assert result["wanted"] == [4, 3, 6]             # current, previous (5 is a carousel, no player), then the video ahead
    assert result["prefetch"] == [4, 6]
