"""Where Media Source Extensions are missing but the browser plays HLS itself (older iOS
Safari), the engine hands the signed master playlist to the element. Chromium has both, so
MSE is hidden before the app loads. Chromium's own HLS plays clear fMP4 but cannot decrypt
AES-128 fMP4 (shared/platform-notes.md), which also shows how a post the platform cannot
play fails: an error on that item, and the feed goes on."""
from helpers import CURRENT, current_id, swipe_next, wait_playing
from test_encryption import encrypted_by_id

HIDE_MSE = "delete window.MediaSource; delete window.ManagedMediaSource; delete window.WebKitMediaSource;"


def test_without_mse_the_browsers_own_hls_plays_and_an_unplayable_post_fails_alone(context):
    flags = encrypted_by_id(context)
    page = context.new_page()
    page.add_init_script(HIDE_MSE)
    page.goto("/?tag=mixed")
    page.wait_for_selector(CURRENT)
    assert page.evaluate("() => typeof MediaSource") == "undefined"
    played_clear, failed_encrypted = set(), set()
    for _ in range(8):
        item = current_id(page)
        if flags[item]:
            error = page.locator(f"{CURRENT} .item-error")
            error.wait_for(state="visible", timeout=15_000)
            failed_encrypted.add(item)
        else:
            wait_playing(page)
            # The element plays the signed playlist itself: no blob: URL, no MediaSource.
            src = page.eval_on_selector(f"{CURRENT} video", "video => video.getAttribute('src')")
            assert src.endswith("/master.m3u8") and "/media/" in src, src
            played_clear.add(item)
        if len(played_clear) == 3 and failed_encrypted:
            break
        swipe_next(page)
    assert len(played_clear) == 3 and len(failed_encrypted) == 1, (played_clear, failed_encrypted)
    assert page.locator("video").count() <= 3
    page.close()
