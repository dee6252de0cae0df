"""Encrypted and clear posts both play; a tampered key fails that one item, not the feed.
The `mixed` tag holds one encrypted and three clear clips."""
import os

from conftest import open_feed
from helpers import CURRENT, current_id, swipe_next, wait_playing


def encrypted_by_id(context) -> dict[int, bool]:
    items = context.request.get("/api/v1/feed?tags=mixed&limit=50").json()["items"]
    return {item["id"]: item["media"]["encrypted"] for item in items}


def test_encrypted_and_clear_posts_both_play(context):
    flags = encrypted_by_id(context)
    assert sorted(flags.values()) == [False, False, False, True]
    page = open_feed(context, "/?tag=mixed")
    played = {}
    for _ in range(6):
        wait_playing(page)
        played[current_id(page)] = True
        if len({flags[i] for i in played}) == 2:
            break
        swipe_next(page)
    assert {flags[i] for i in played} == {True, False}


def test_tampered_key_shows_an_error_and_the_feed_continues(context):
    flags = encrypted_by_id(context)
    page = context.new_page()
    page.route("**/media/*/*/key", lambda route: route.fulfill(status=200, content_type="application/octet-stream", body=os.urandom(16)))
    page.goto("/?tag=mixed")
    page.wait_for_selector(CURRENT)
    saw_error = False
    for _ in range(8):
        item = current_id(page)
        if flags[item]:
            error = page.locator(f"{CURRENT} .item-error")
            error.wait_for(state="visible", timeout=15_000)
            # A wrong key is always a key error, never a decode error (decrypt.js checks the result).
            assert "key" in error.inner_text().lower(), error.inner_text()
            assert page.get_attribute(CURRENT, "data-error-code") == "key"
            saw_error = True
        elif saw_error:
            wait_playing(page)  # the next item still plays
            break
        swipe_next(page)
    assert saw_error
    assert page.locator("video").count() <= 3
    assert page.evaluate("reelhouse.stats()")["failedLoads"] >= 1
