"""The owner's side of stories (issue 15) at 390×844 touch and 1440×900 mouse + keyboard: alice
sees "Seen by N" and the like count on her own items, the viewers sheet lists who saw it (a
heart for a like) and holds the story while open, Keep as post turns an item into a library
post, Delete removes it (the player moves on, or closes), Profile's "Your stories" lists her
archive with the same actions, and a viewer (bob) never sees any of it. Each test posts its own
items for alice and deletes what is left of them, so the fixture's people stay as they were."""
import itertools

import pytest

from conftest import make_story_media
from pykit import cli
from stories_helpers import PLAYER, SIZES, api, open_player, shown, until, wait_item

OWNER_BAR = f"{PLAYER} .story-owner-bar"
SHEET = f"{PLAYER} .story-viewers"
_posts = itertools.count(1)


def member_context(browser, stories, size, name: str):
    """A context signed in as an existing member of the stories fixture (alice, bob)."""
    _, viewport, touch = size
    extra = {"has_touch": True, "is_mobile": True} if touch else {}
    return browser.new_context(base_url=stories["url"], viewport=viewport, service_workers="block", bypass_csp=True,
                               storage_state=stories["viewer"](name), **extra)


def post_for_alice(stories, context, label: str, env: dict | None = None) -> dict:
    """A new photo story of alice's; her item as the archive shows it (newest first)."""
    name = f"{label}-{next(_posts)}"
    if env:
        folder = stories["data"].parent / "owner" / name
        make_story_media(folder, name, "photo", 0, len(name))
        cli.run(stories["data"], "import", str(folder), "--story", "--as", "alice", "--no-encryption", "--json", env=env)
    else:
        stories["post_story"]("alice", name)
    newest = api(context, "/api/v1/stories/archive")["items"][0]
    return newest


def delete_quietly(context, ids) -> None:
    for item_id in ids:
        context.request.delete(f"/api/v1/stories/items/{item_id}")


def open_item(page, item_id: int) -> int:
    """alice's player on the item `item_id` (→ until it is on screen); its index."""
    open_player(page, "alice")
    for _ in range(20):
        if page.get_attribute(f"{PLAYER} .stories-stage", "data-item-id") == str(item_id):
            return shown(page)["item"]
        index = shown(page)["item"]
        page.keyboard.press("ArrowRight")
        wait_item(page, "alice", index + 1)
    raise AssertionError(f"item {item_id} never came on screen")


def press_button(page, size, selector: str) -> None:
    if size[2]:
        page.locator(selector).tap()
    else:
        page.locator(selector).click()


@pytest.mark.parametrize("size", SIZES)
def test_seen_by_and_the_viewers_sheet(browser, stories, size, artifacts):
    alice = member_context(browser, stories, size, "alice")
    bob = member_context(browser, stories, size, "bob")
    posted = []
    try:
        item = post_for_alice(stories, alice, f"seen-{size[0]}")
        posted.append(item["id"])
        # bob watches it in the player (marked seen when its time starts) and likes it: no owner bar for him.
        bob_page = bob.new_page()
        open_player(bob_page, "alice")
        assert api(bob, "/api/v1/stories/alice")["is_me"] is False
        for _ in range(10):
            bob_page.wait_for_selector(f"{PLAYER} .stories-like")
            assert bob_page.locator(OWNER_BAR).is_hidden(), "a viewer never sees the owner bar"
            if bob_page.get_attribute(f"{PLAYER} .stories-stage", "data-item-id") == str(item["id"]):
                break
            index = shown(bob_page)["item"]
            bob_page.keyboard.press("ArrowRight")
            wait_item(bob_page, "alice", index + 1)
        bob_page.wait_for_selector(f"{PLAYER}[data-started=true]", timeout=20_000)
        assert bob_page.locator(f"{PLAYER} .stories-like").is_visible()
        bob_page.locator(f"{PLAYER} .stories-like").click()
        until(bob_page, lambda: next(i for i in api(bob, "/api/v1/stories/alice")["items"] if i["id"] == item["id"])["liked"], what="bob's like")
        bob_page.keyboard.press("Escape")
        bob_page.wait_for_selector("dialog.stories-player", state="detached")
        until(bob_page, lambda: api(alice, "/api/v1/stories/archive")["items"][0].get("view_count") == 1, what="bob's view on the server")

        page = alice.new_page()
        page.clock.install()
        open_item(page, item["id"])
        bar = page.locator(OWNER_BAR)
        bar.wait_for(state="visible")
        assert page.locator(f"{PLAYER} .stories-like").is_hidden(), "no like button on your own story"
        assert page.locator(f"{OWNER_BAR} .story-seen-count").inner_text() == "Seen by 1"
        assert page.locator(f"{OWNER_BAR} .story-like-count").inner_text().strip() == "1"
        page.wait_for_selector(f"{PLAYER}[data-started=true]", timeout=20_000)
        page.locator(f"{PLAYER} .stories-stage").screenshot(path=str(artifacts / f"stories-owner-bar-{size[0]}.png"))

        # Tapping "Seen by" holds the story and lists bob, with a heart.
        at = shown(page)
        press_button(page, size, f"{OWNER_BAR} .story-seen-by")
        page.wait_for_selector(f"{SHEET} .story-viewer[data-user='bob']", timeout=10_000)
        row = page.locator(f"{SHEET} .story-viewer[data-user='bob']")
        assert row.locator(".story-viewer-liked").count() == 1, "bob liked it: a heart"
        assert row.locator(".story-viewer-when").inner_text() != ""
        assert page.locator(f"{SHEET} .story-viewer").count() == 1
        page.clock.run_for(item["duration"] * 1000 + 2000)   # longer than the photo's time
        now = shown(page)
        assert now["item"] == at["item"] and now["progress"][at["item"]] < 100, "the story holds while the sheet is open"
        page.wait_for_function(f"() => document.querySelector(\"{SHEET}\")?.getAnimations().length === 0")   # slid in
        page.locator(f"{PLAYER} .stories-frame").screenshot(path=str(artifacts / f"stories-viewers-sheet-{size[0]}.png"))

        # Closing: the × button; then (opened again) Escape on desktop, a swipe down on the phone.
        # (The × first: after a CDP touch drag, Chromium turns the next emulated tap into no click.)
        press_button(page, size, f"{SHEET} .story-viewers-close")
        page.wait_for_selector(SHEET, state="detached")
        assert page.locator(PLAYER).count() == 1, "closing the sheet leaves the player open"
        press_button(page, size, f"{OWNER_BAR} .story-seen-by")
        page.wait_for_selector(f"{SHEET} .story-viewer[data-user='bob']")
        if size[2]:
            head = page.locator(f"{SHEET} .story-viewers-head").bounding_box()
            x, y = head["x"] + head["width"] / 3, head["y"] + 20
            cdp = page.context.new_cdp_session(page)
            cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
            for step in range(1, 9):
                cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y + 15 * step}]})
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            cdp.detach()
        else:
            page.keyboard.press("Escape")
        page.wait_for_selector(SHEET, state="detached")
        assert page.locator(PLAYER).count() == 1, "Escape or a swipe closes the sheet, not the player"
        if not size[2]:
            # Keyboard: focus is back on "Seen by"; Enter opens the sheet with focus on its ×.
            assert page.evaluate("() => document.activeElement.classList.contains('story-seen-by')")
            page.keyboard.press("Enter")
            page.wait_for_selector(f"{SHEET} .story-viewer[data-user='bob']")
            assert page.evaluate("() => document.activeElement.classList.contains('story-viewers-close')")
            page.keyboard.press("ArrowRight")   # the sheet's: the story stays
            assert page.get_attribute(f"{PLAYER} .stories-stage", "data-item-id") == str(item["id"])
            page.keyboard.press("Escape")
            page.wait_for_selector(SHEET, state="detached")
            assert page.locator(PLAYER).count() == 1
        # The story resumes: its time runs out and the player moves on (it was alice's last item: it closes).
        page.clock.run_for(item["duration"] * 1000 + 500)
        page.wait_for_function(f"""() => {{ const s = document.querySelector('{PLAYER} .stories-stage');
            return !s || s.dataset.itemId !== '{item["id"]}'; }}""", timeout=10_000)
    finally:
        delete_quietly(alice, posted)
        alice.close()
        bob.close()


@pytest.mark.parametrize("size", SIZES)
def test_keep_and_delete_from_the_player(browser, stories, size, artifacts):
    alice = member_context(browser, stories, size, "alice")
    posted = []
    try:
        doomed = post_for_alice(stories, alice, f"doomed-{size[0]}")
        posted.append(doomed["id"])
        keeper = post_for_alice(stories, alice, f"keeper-{size[0]}")
        posted.append(keeper["id"])
        assert alice.request.get(f"/api/v1/videos/{keeper['id']}").status == 404, "a story is not a post before it is kept"
        page = alice.new_page()
        page.clock.install()
        index = open_item(page, doomed["id"])
        page.locator(OWNER_BAR).wait_for(state="visible")

        # Delete asks first; Cancel leaves it be.
        press_button(page, size, f"{OWNER_BAR} .story-owner-more")
        menu = page.locator(f"{OWNER_BAR} .story-owner-menu")
        menu.wait_for(state="visible")
        press_button(page, size, f"{OWNER_BAR} [data-action=delete]")
        assert menu.locator(".story-owner-confirm").is_visible()
        page.locator(f"{PLAYER} .stories-frame").screenshot(path=str(artifacts / f"stories-owner-delete-confirm-{size[0]}.png"))
        press_button(page, size, f"{OWNER_BAR} [data-action=cancel]")
        assert menu.locator("[data-action=keep]").is_visible()
        press_button(page, size, f"{OWNER_BAR} [data-action=delete]")
        press_button(page, size, f"{OWNER_BAR} [data-action=confirm-delete]")
        # The player moves on to the next item (now at the same place), which is the keeper.
        page.wait_for_selector(f"{PLAYER} .stories-stage[data-item-id='{keeper['id']}']", timeout=10_000)
        assert shown(page)["item"] == index
        assert len(shown(page)["progress"]) == len(api(alice, "/api/v1/stories/alice")["items"])
        assert alice.request.get(f"/api/v1/videos/{doomed['id']}").status == 404
        assert doomed["id"] not in [i["id"] for i in api(alice, "/api/v1/stories/alice")["items"]]
        assert alice.request.delete(f"/api/v1/stories/items/{doomed['id']}").status == 404

        # Keep as post: it joins the library, and the menu says so.
        press_button(page, size, f"{OWNER_BAR} .story-owner-more")
        press_button(page, size, f"{OWNER_BAR} [data-action=keep]")
        keep = page.locator(f"{OWNER_BAR} [data-action=keep]")
        until(page, lambda: keep.inner_text() == "Kept", what="the menu shows Kept")
        assert keep.is_disabled()
        video = alice.request.get(f"/api/v1/videos/{keeper['id']}")
        assert video.ok, f"a kept story is a post: {video.status}"
        assert api(alice, "/api/v1/stories/archive")["items"][0]["kept"] is True
        page.keyboard.press("Escape")   # closes the menu, not the player
        assert menu.is_hidden() and page.locator(PLAYER).count() == 1

        # Deleting alice's last item closes the player.
        press_button(page, size, f"{OWNER_BAR} .story-owner-more")
        press_button(page, size, f"{OWNER_BAR} [data-action=delete]")
        press_button(page, size, f"{OWNER_BAR} [data-action=confirm-delete]")
        page.wait_for_selector("dialog.stories-player", state="detached", timeout=10_000)
        assert alice.request.get(f"/api/v1/videos/{keeper['id']}").status == 404
    finally:
        delete_quietly(alice, posted)
        alice.close()


@pytest.mark.parametrize("size", SIZES)
def test_your_stories_on_profile(browser, stories, size, artifacts):
    alice = member_context(browser, stories, size, "alice")
    bob = member_context(browser, stories, size, "bob")
    posted = []
    try:
        expired = post_for_alice(stories, alice, f"old-{size[0]}", env={"REELHOUSE_STORY_LIFETIME_HOURS": "0.0003"})
        posted.append(expired["id"])
        live = post_for_alice(stories, alice, f"live-{size[0]}")
        posted.append(live["id"])
        page = alice.new_page()
        page.goto("/profile")
        section = page.locator(".profile-stories")
        card = section.locator(f".profile-story[data-item-id='{live['id']}']")
        card.wait_for(timeout=15_000)
        assert card.locator(".profile-story-label").inner_text() == "live"
        old = section.locator(f".profile-story[data-item-id='{expired['id']}']")
        assert old.locator(".profile-story-label").inner_text() == "expired"
        assert old.locator(".profile-story-date").inner_text() != ""
        ids = section.locator(".profile-story").evaluate_all("cards => cards.map((c) => Number(c.dataset.itemId))")
        assert ids.index(live["id"]) < ids.index(expired["id"]), "newest first"
        page.wait_for_function("() => [...document.querySelectorAll('.profile-story img')].slice(0, 2).every((i) => i.complete && i.naturalWidth > 0)")
        section.screenshot(path=str(artifacts / f"stories-profile-{size[0]}.png"))

        press_button(page, size, f".profile-story[data-item-id='{expired['id']}'] [data-action=keep]")
        until(page, lambda: old.locator(".profile-story-label").inner_text() == "kept", what="kept label")
        assert old.locator("[data-action=keep]").is_disabled()
        assert alice.request.get(f"/api/v1/videos/{expired['id']}").ok

        press_button(page, size, f".profile-story[data-item-id='{live['id']}'] [data-action=delete]")
        press_button(page, size, f".profile-story[data-item-id='{live['id']}'] [data-action=confirm-delete]")
        card.wait_for(state="detached")
        assert alice.request.get(f"/api/v1/videos/{live['id']}").status == 404
        assert live["id"] not in [i["id"] for i in api(alice, "/api/v1/stories/archive")["items"]]
        # bob's profile has none of alice's.
        bob_page = bob.new_page()
        bob_page.goto("/profile")
        bob_page.wait_for_function("() => { const s = document.querySelector('.profile-stories .profile-status'); return s && !/Loading/.test(s.textContent); }")
        bobs = bob_page.locator(".profile-stories .profile-story").evaluate_all("cards => cards.map((c) => Number(c.dataset.itemId))")
        assert expired["id"] not in bobs and not set(bobs) & {i["id"] for i in api(alice, "/api/v1/stories/archive")["items"]}
    finally:
        delete_quietly(alice, posted)
        alice.close()
        bob.close()
