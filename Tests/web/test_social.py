"""Likes and ratings: optimistic, persisted, and rolled back with a toast on failure."""
from helpers import CURRENT, REFUSED, current_id, held_routes, open_feed_again, until


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
        status=500, content_type="application/json", body=REFUSED))
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


def test_two_refused_taps_on_the_heart_end_where_the_server_is(page, context):
    """A like and an unlike in flight together, both refused: the heart shows what the server
    has, not what the second tap found (the first tap's optimistic state)."""
    item = current_id(page)
    before = like_state(page)
    held = held_routes(page, "**/api/v1/videos/*/favorite")
    page.click(f"{CURRENT} .like")
    page.click(f"{CURRENT} .like")
    until(page, lambda: len(held) == 2, 5_000, "both taps being sent")
    for route in held:
        route.fulfill(status=500, content_type="application/json", body=REFUSED)
    page.locator(".toast-error").first.wait_for(state="visible")
    page.wait_for_timeout(300)   # both refusals have been handled
    assert like_state(page) == before
    assert context.request.get(f"/api/v1/videos/{item}").json()["is_favorited"] == (before == "true")


def test_a_refused_rating_leaves_a_later_like_in_place(page, context):
    """A rating refused after a like made later was saved: the rating goes back, the like stays
    (the rollback restores the rating's own field, not the whole post as it was)."""
    item = current_id(page)
    if like_state(page) == "true":
        page.click(f"{CURRENT} .like")
        page.wait_for_load_state("networkidle")
    rating = page.get_attribute(f"{CURRENT} .rating", "data-rating")
    held = held_routes(page, "**/api/v1/videos/*/rating")
    page.click(f'{CURRENT} .star[data-value="{5 if rating == "2" else 2}"]')
    until(page, lambda: held, 5_000, "the rating being sent")
    with page.expect_response(lambda response: response.url.endswith(f"/videos/{item}/favorite")):
        page.click(f"{CURRENT} .like")
    held[0].fulfill(status=500, content_type="application/json", body=REFUSED)
    page.locator(".toast-error").wait_for(state="visible")
    page.wait_for_timeout(300)
    assert page.get_attribute(f"{CURRENT} .rating", "data-rating") == rating
    assert like_state(page) == "true"
    assert context.request.get(f"/api/v1/videos/{item}").json()["is_favorited"] is True
