"""Seen state in the story player (issue 15), at 390×844 touch and 1440×900: what was shown is
marked seen (batched, also on close), it survives a reload (grey ring, the player starts at the
first unseen item), and a new item from that person lights the ring again once the tray is
refreshed (the desktop button, a pull on the phone)."""
from datetime import datetime, timedelta

import pytest

from stories_helpers import (
    PLAYER, SIZES, api, fresh_viewer, open_player, ring_states, shown, stories_context, touch_pull, until, wait_item,
)


def watch_everything(page, user: str, count: int) -> None:
    """Shows each of `user`'s items until its timer starts, then moves on (→)."""
    for index in range(count):
        wait_item(page, user, index)
        page.wait_for_selector(f"{PLAYER}[data-started=true]", timeout=20_000)
        if index + 1 < count:
            page.keyboard.press("ArrowRight")


@pytest.mark.parametrize("size", SIZES)
def test_seen_survives_a_reload(browser, stories, size, artifacts):
    context = stories_context(browser, stories, size, fresh_viewer(stories, f"seen-{size[0]}"))
    try:
        bob = api(context, "/api/v1/stories/bob")["items"]
        page = context.new_page()
        open_player(page, "bob")
        watch_everything(page, "bob", len(bob))
        page.keyboard.press("Escape")   # closing sends what is still batched
        page.wait_for_selector("dialog.stories-player", state="detached")
        until(page, lambda: next(e for e in api(context, "/api/v1/stories")["tray"] if e["user"] == "bob")["all_seen"], what="bob all seen")
        # Only the first of alice's items.
        open_player(page, "alice")
        page.wait_for_selector(f"{PLAYER}[data-started=true]", timeout=20_000)
        page.keyboard.press("Escape")
        page.wait_for_selector("dialog.stories-player", state="detached")
        page.goto("/")
        page.reload()
        page.wait_for_selector(".feed-stories a.story-ring", timeout=20_000)
        page.wait_for_function("() => document.querySelector(\".feed-stories a.story-ring[data-user='bob']\")?.classList.contains('seen')", timeout=10_000)
        rings = ring_states(page, ".feed-stories")
        assert rings["bob"] == "seen" and rings["alice"] == "unseen" and rings["carol"] == "unseen"
        users = page.eval_on_selector_all(".feed-stories a.story-ring", "links => links.map((a) => a.dataset.user)")
        assert users[-1] == "bob", "seen people go to the end"
        page.wait_for_function("""() => [...document.querySelectorAll('.feed-stories .story-avatar img')].every((img) => img.complete && img.naturalWidth > 0)""")
        page.locator(".feed-stories .stories-tray").screenshot(path=str(artifacts / f"stories-tray-seen-{size[0]}.png"))
        page.click(".feed-stories a.story-ring[data-user='alice']")
        wait_item(page, "alice", 1)   # starts at the first unseen item
    finally:
        context.close()


def own_item_ids(context) -> set[int]:
    return {item["id"] for item in api(context, "/api/v1/stories/archive")["items"]}


@pytest.mark.parametrize("size", SIZES)
def test_a_new_item_lights_the_ring_again(browser, stories, size):
    context = stories_context(browser, stories, size, fresh_viewer(stories, f"relight-{size[0]}"))
    as_carol = browser.new_context(base_url=stories["url"], storage_state=stories["viewer"]("carol"))
    carols_own = own_item_ids(as_carol)
    try:
        carol = api(context, "/api/v1/stories/carol")["items"]
        page = context.new_page()
        page.goto("/discover")
        page.wait_for_selector(".discover-stories a.story-ring[data-user='carol']", timeout=20_000)
        page.click(".discover-stories a.story-ring[data-user='carol']")
        watch_everything(page, "carol", len(carol))
        page.keyboard.press("Escape")
        page.wait_for_selector("dialog.stories-player", state="detached")
        # Closing refreshes the tray: carol is grey now.
        page.wait_for_function("() => document.querySelector(\".discover-stories a.story-ring[data-user='carol']\")?.classList.contains('seen')", timeout=10_000)
        stories["post_story"]("carol", f"late-{size[0]}")
        assert ring_states(page, ".discover-stories")["carol"] == "seen", "nothing changes until the tray is refreshed"
        if size[2]:
            touch_pull(page, ".discover-stories .stories-tray", 140)
        else:
            page.click(".discover-stories .stories-tray-refresh")
        page.wait_for_function("() => document.querySelector(\".discover-stories a.story-ring[data-user='carol']\")?.classList.contains('unseen')", timeout=10_000)
        users = page.eval_on_selector_all(".discover-stories a.story-ring", "links => links.map((a) => a.dataset.user)")
        assert users[0] == "carol", "the newest unseen person comes first"
        page.click(".discover-stories a.story-ring[data-user='carol']")
        wait_item(page, "carol", len(carol))   # straight to the new item
        assert shown(page)["progress"][:len(carol)] == [100] * len(carol)
    finally:
        # carol's late item goes again: it made her the newest person, and the tests that share
        # the fixture (whichever run after this one) count on the tray's order alice, bob, carol.
        for item_id in own_item_ids(as_carol) - carols_own:
            assert as_carol.request.delete(f"/api/v1/stories/items/{item_id}").ok
        as_carol.close()
        context.close()


def test_seen_is_sent_when_the_page_is_left(browser, stories):
    """No close, no batch delay: a reload right after an item started still records it (pagehide)."""
    size = SIZES[1].values[0]
    context = stories_context(browser, stories, size, fresh_viewer(stories, "leave"))
    try:
        first = api(context, "/api/v1/stories/carol")["items"][0]
        assert first["seen"] is False
        page = context.new_page()
        sent = []
        page.on("request", lambda request: sent.append(request.method) if request.url.endswith("/api/v1/stories/seen") else None)
        page.clock.install()
        page.clock.pause_at(datetime.now() + timedelta(seconds=1))   # the batch timer never fires
        open_player(page, "carol")
        page.wait_for_selector(f"{PLAYER}[data-started=true]", timeout=20_000)
        assert sent == [], "nothing sent yet: the batch waits"
        page.goto("/discover")
        until(page, lambda: api(context, "/api/v1/stories/carol")["items"][0]["seen"], what="seen sent on leaving")
    finally:
        context.close()


def test_seen_marks_made_offline_are_sent_when_back_online(browser, stories):
    size = SIZES[1].values[0]
    context = stories_context(browser, stories, size, fresh_viewer(stories, "offline"))
    try:
        page = context.new_page()
        statuses = []
        page.on("requestfailed", lambda request: statuses.append("failed") if request.url.endswith("/api/v1/stories/seen") else None)
        page.clock.install()
        page.clock.pause_at(datetime.now() + timedelta(seconds=1))   # only closing and coming online send
        open_player(page, "carol")
        current = page.get_attribute(f"{PLAYER} .stories-stage", "data-item-id")
        page.wait_for_selector(f"{PLAYER}[data-started=true]", timeout=20_000)
        context.set_offline(True)
        page.keyboard.press("Escape")   # the close sends the batch: no network
        page.wait_for_selector("dialog.stories-player", state="detached")
        page.wait_for_function("() => !navigator.onLine")
        until(page, lambda: statuses, what="the send while offline failed")
        context.set_offline(False)
        until(page, lambda: any(item["seen"] for item in api(context, "/api/v1/stories/carol")["items"] if str(item["id"]) == current),
              what="the offline mark replayed")
    finally:
        context.close()
