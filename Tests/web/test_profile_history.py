"""Profile's Watch history (issue 16) at a 390×844 touch phone and a 1440×900 desktop: the
posts a person watched, newest first, each opening its post; "Remove" forgets one and "Clear
history" (asked first) forgets them all, on the server too."""
import uuid
from datetime import datetime, timedelta, timezone

import pytest

from foryou_helpers import SIZES, context_of, tap


def watch(context, post_ids: list[int]) -> None:
    """Views of `post_ids`, the first watched longest ago, sent as the web client sends them."""
    now = datetime.now(timezone.utc)
    events = [{"event_id": str(uuid.uuid4()), "type": "view", "post_id": post_id,
               "at": (now - timedelta(minutes=len(post_ids) - index)).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
               "watched_ms": 4000, "duration_ms": 5000, "loops": 0}
              for index, post_id in enumerate(post_ids)]
    response = context.request.post("/api/v1/events", data={"events": events})
    assert response.ok, response.text()
    assert response.json() == {"accepted": len(events), "duplicates": 0}


def history_ids(context) -> list[int]:
    response = context.request.get("/api/v1/me/history")
    assert response.ok, response.text()
    return [row["post_id"] for row in response.json()["items"]]


@pytest.mark.parametrize("size", SIZES)
def test_watch_history_opens_removes_and_clears(browser, foryou, size, artifacts):
    context = context_of(browser, foryou, size)
    feed = context.request.get("/api/v1/feed?mode=latest&limit=3").json()["items"]
    watched = [item["id"] for item in feed]
    titles = {post: context.request.get(f"/api/v1/videos/{post}").json()["title"] for post in watched}
    watch(context, watched)
    assert history_ids(context) == watched[::-1]

    page = context.new_page()
    page.goto("/profile")
    rows = page.locator(".profile-history .post-row")
    page.wait_for_function("() => document.querySelectorAll('.profile-history .post-row').length === 3")
    assert [int(value) for value in rows.evaluate_all("els => els.map((el) => el.dataset.postId)")] == watched[::-1], "newest first"
    assert titles[watched[-1]] in rows.first.inner_text()
    page.locator(".profile-history").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"profile-history-{size[0]}.png"))

    tap(page, rows.first.locator(".post-row-link"), size)
    sheet = page.locator("dialog.detail-sheet[open]")
    sheet.wait_for()
    sheet.locator(".detail-title").wait_for()
    assert sheet.locator(".detail-title").inner_text() == titles[watched[-1]]
    assert page.url.endswith(f"/p/{watched[-1]}")
    page.keyboard.press("Escape")
    sheet.wait_for(state="detached")
    page.wait_for_url("**/profile")

    middle = page.locator(f'.profile-history .post-row[data-post-id="{watched[1]}"]')
    tap(page, middle.locator("button", has_text="Remove"), size)
    middle.wait_for(state="detached")
    assert history_ids(context) == [watched[2], watched[0]]

    clear = page.locator('.profile-history [data-action="clear-history"]')
    tap(page, clear, size)
    confirm = page.locator(".profile-history .profile-confirm")
    assert confirm.is_visible() and "Clear your whole watch history?" in confirm.inner_text()
    page.screenshot(path=str(artifacts / f"profile-history-confirm-{size[0]}.png"))
    tap(page, confirm.locator("button", has_text="Cancel"), size)
    assert confirm.is_hidden() and rows.count() == 2
    assert history_ids(context) == [watched[2], watched[0]]

    tap(page, clear, size)
    tap(page, confirm.locator('[data-action="confirm-clear"]'), size)
    page.locator(".profile-history .profile-status", has_text="History cleared.").wait_for()
    assert rows.count() == 0
    assert history_ids(context) == []
    context.close()
