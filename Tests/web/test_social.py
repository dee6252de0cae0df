"""Likes and ratings: optimistic, persisted, and rolled back with a toast on failure."""
from helpers import CURRENT, current_id, open_feed_again


def like_state(page) -> str:
    return page.get_attribute(f"{CURRENT} .like", "aria-pressed")


def test_like_survives_a_reload(page, context):
    item = current_id(page)
    before = like_state(page)
    page.click(f"{CURRENT} .like")
    expected = "false" if before == "true" else "true"
    assert like_state(page) == expected
    page.wait_for_load_state("networkidle")
    response = context.request.get(f"/api/v1/videos/{item}")
    assert response.json()["is_favorited"] == (expected == "true")
    reloaded = open_feed_again(context, "/")
    element = reloaded.locator(f'[data-item-id="{item}"]')
    for _ in range(40):  # the feed is shuffled: page on until the item is loaded
        if element.count():
            break
        reloaded.keyboard.press("ArrowDown")
        reloaded.wait_for_timeout(100)
    assert element.locator(".like").get_attribute("aria-pressed") == expected


def test_failed_like_rolls_back_and_says_so(page):
    before = like_state(page)
    page.route("**/api/v1/videos/*/favorite", lambda route: route.fulfill(
        status=500, content_type="application/json",
        body='{"error":{"code":"internal","message":"injected failure"}}'))
    page.click(f"{CURRENT} .like")
    toast = page.locator(".toast-error")
    toast.wait_for(state="visible")
    assert "like" in toast.inner_text().lower()
    page.wait_for_function(f"document.querySelector('[aria-current=\"true\"] .like').getAttribute('aria-pressed') === '{before}'")


def test_double_tap_likes_with_a_heart(page, context):
    item = current_id(page)
    stage = page.locator(f"{CURRENT} .stage")
    box = stage.bounding_box()
    page.mouse.dblclick(box["x"] + box["width"] / 2, box["y"] + box["height"] / 3)
    page.wait_for_selector(f"{CURRENT} .heart-burst.show", state="attached")
    assert like_state(page) == "true"
    page.wait_for_load_state("networkidle")
    assert context.request.get(f"/api/v1/videos/{item}").json()["is_favorited"] is True


def test_rating_is_saved(page, context):
    item = current_id(page)
    page.click(f'{CURRENT} .star[data-value="4"]')
    assert page.get_attribute(f"{CURRENT} .rating", "data-rating") == "4"
    page.wait_for_load_state("networkidle")
    assert context.request.get(f"/api/v1/videos/{item}").json()["rating"] == 4
