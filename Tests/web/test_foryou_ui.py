"""For You in the feed's UI (issue 16), at a 390×844 touch phone and a 1440×900 desktop with
mouse and keyboard: the mode switch (no mode sent until the person picks one, then it is sent
and survives a reload; the feed keeps its three players), the reason line on For You items
only, and the ⋯ panel's "Not interested" and "Hide posts from NAME" — the items leave the feed
at once, Undo brings them back, and Profile lists them with their own undo."""
from urllib.parse import parse_qs, urlparse

import pytest

from foryou_helpers import MODE_KEY, SIZES, EventLog, context_of, next_item, tap
from helpers import CURRENT, current_id

FEED_GET = "/api/v1/feed"


def is_feed(response_or_request) -> bool:
    return urlparse(response_or_request.url).path == FEED_GET


def mode_of(url: str) -> str | None:
    return parse_qs(urlparse(url).query).get("mode", [None])[0]


def pressed(page) -> list[str]:
    return page.eval_on_selector_all("#feed-modes [aria-pressed=true]", "els => els.map((el) => el.dataset.mode)")


def video_count(page) -> int:
    return page.locator("video").count()


@pytest.mark.parametrize("size", SIZES)
def test_the_mode_switch_sends_the_mode_and_remembers_it(browser, foryou, size, artifacts):
    context = context_of(browser, foryou, size)
    page = context.new_page()
    with page.expect_response(is_feed) as first:
        page.goto("/")
    assert mode_of(first.value.url) is None, "without a stored choice the client sends no mode"
    served = first.value.json().get("mode")
    assert served == "shuffle", "a person without signals gets shuffle"
    page.wait_for_selector(CURRENT, timeout=15_000)
    page.wait_for_function("() => document.querySelector('#feed-modes [aria-pressed=true]')")
    assert pressed(page) == [served]
    assert page.evaluate(f"localStorage.getItem('{MODE_KEY}')") is None

    # The three players stay the same elements through a switch: mark them.
    page.evaluate("() => document.querySelectorAll('video').forEach((video) => { video.dataset.before = 'switch'; })")
    before = video_count(page)
    latest = page.locator('#feed-modes [data-mode="latest"]')
    with page.expect_response(lambda r: is_feed(r) and mode_of(r.url) == "latest") as switched:
        if size[2]:
            latest.tap()
        else:   # the keyboard: focus the first, → → to Latest, Enter
            page.locator('#feed-modes [data-mode="for_you"]').focus()
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowRight")
            assert page.evaluate("document.activeElement.dataset.mode") == "latest"
            outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
            assert outline != "none", "the focused mode button shows its focus"
            page.screenshot(path=str(artifacts / "foryou-mode-focus-desktop.png"))
            page.keyboard.press("Enter")
    items = switched.value.json()["items"]
    assert switched.value.json().get("mode") == "latest"
    dates = [item["date_added"] for item in items]
    assert dates == sorted(dates, reverse=True), "Latest is newest first"
    page.wait_for_function("id => document.querySelector('[data-item-id][aria-current=\"true\"]')?.dataset.itemId === String(id)", arg=items[0]["id"])
    assert pressed(page) == ["latest"]
    assert page.evaluate(f"localStorage.getItem('{MODE_KEY}')") == "latest"
    assert video_count(page) == before <= 3
    assert page.locator("video[data-before=switch]").count() == before, "no new <video> elements"
    page.wait_for_timeout(500)
    page.screenshot(path=str(artifacts / f"foryou-mode-latest-{size[0]}.png"))

    with page.expect_request(is_feed) as again:
        page.reload()
    assert mode_of(again.value.url) == "latest", "the stored choice survives a reload"
    page.wait_for_selector(CURRENT, timeout=15_000)
    assert pressed(page) == ["latest"]
    assert video_count(page) <= 3
    if not size[2]:   # and the mouse
        with page.expect_request(lambda r: is_feed(r) and mode_of(r.url) == "shuffle"):
            page.locator('#feed-modes [data-mode="shuffle"]').click()
        assert pressed(page) == ["shuffle"]
        assert page.evaluate(f"localStorage.getItem('{MODE_KEY}')") == "shuffle"
    context.close()


def test_for_you_items_say_why_and_other_modes_do_not(browser, foryou, artifacts):
    size = SIZES[0].values[0]
    context = context_of(browser, foryou, size)
    page = context.new_page()
    page.add_init_script(f"localStorage.setItem('{MODE_KEY}', 'for_you')")
    reasons = {}   # post → reason, from every For You page the feed loads

    def remember(response):
        if is_feed(response) and mode_of(response.url) == "for_you" and response.ok:
            body = response.json()
            assert body.get("mode") == "for_you"
            assert all(item.get("reason") for item in body["items"]), "every For You item carries its reason"
            reasons.update({item["id"]: item["reason"] for item in body["items"]})

    page.on("response", remember)
    with page.expect_response(is_feed) as first:
        page.goto("/")
    assert mode_of(first.value.url) == "for_you"
    page.wait_for_selector(CURRENT, timeout=15_000)
    line = page.locator(f"{CURRENT} .reason")
    assert line.is_visible()
    assert line.inner_text() == reasons[current_id(page)]
    page.wait_for_timeout(500)
    page.screenshot(path=str(artifacts / "foryou-reason-phone.png"))
    next_item(page, size)
    assert page.locator(f"{CURRENT} .reason").inner_text() == reasons[current_id(page)]

    with page.expect_response(lambda r: is_feed(r) and mode_of(r.url) == "shuffle"):
        page.locator('#feed-modes [data-mode="shuffle"]').tap()
    page.wait_for_selector(CURRENT, timeout=15_000)
    assert page.locator(".reel .reason").count() == 0, "no reason outside For You"
    context.close()


def open_more(page, size) -> None:
    """Opens the current item's ⋯ panel: a tap on the phone, Enter on the focused ⋯ on the desktop."""
    button = page.locator(f'{CURRENT} [data-action="more"]')
    if size[2]:
        button.tap()
    else:
        button.focus()
        page.keyboard.press("Enter")
    page.wait_for_selector(f"{CURRENT} .more-panel:not([hidden])")
    assert button.get_attribute("aria-expanded") == "true"
    assert page.evaluate("document.activeElement.closest('.more-panel') !== null"), "focus moves into the panel"


def shown_ids(page) -> list[int]:
    return [int(value) for value in page.eval_on_selector_all(".reel:not([hidden])", "els => els.map((el) => el.dataset.itemId)")]


def poll(page, check, what: str, tries: int = 40):
    for _ in range(tries):
        value = check()
        if value:
            return value
        page.wait_for_timeout(250)
    raise AssertionError(what)


def open_profile(page, size) -> None:
    tap(page, page.locator('#app-nav a[href="/profile"]'), size)
    page.wait_for_selector(".profile .profile-not-interested")


@pytest.mark.parametrize("size", SIZES)
def test_not_interested_leaves_the_feed_and_profile_undoes_it(browser, foryou, size, artifacts):
    context = context_of(browser, foryou, size)
    log = EventLog(context)
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector(CURRENT, timeout=15_000)
    post = current_id(page)
    open_more(page, size)
    page.screenshot(path=str(artifacts / f"foryou-more-panel-{size[0]}.png"))
    if not size[2]:   # Escape closes the panel and gives focus back to ⋯; then open it again
        page.keyboard.press("Escape")
        page.wait_for_selector(f"{CURRENT} .more-panel", state="hidden")
        assert page.evaluate("document.activeElement.dataset.action") == "more"
        assert current_id(page) == post
        open_more(page, size)
    tap(page, page.locator(f'{CURRENT} [data-action="not-interested"]'), size)
    page.wait_for_function("id => document.querySelector('[data-item-id][aria-current=\"true\"]')?.dataset.itemId !== String(id)", arg=post)
    assert post not in shown_ids(page)
    toast = page.locator(".toast-undo")
    assert toast.is_visible() and "won't see this post" in toast.inner_text()
    page.screenshot(path=str(artifacts / f"foryou-not-interested-toast-{size[0]}.png"))
    log.wait_for(page, lambda e: e["type"] == "not_interested" and e["post_id"] == post, "not_interested")
    poll(page, lambda: post in [row["post_id"] for row in context.request.get("/api/v1/me/not-interested").json()["items"]],
         "the server filed the post as not interested")

    if size[2]:
        toast.locator("button", has_text="Undo").tap()
    else:   # the ⋯ that had the focus is gone with its item: the focus waits on Undo
        assert page.evaluate("document.activeElement.textContent") == "Undo"
        page.keyboard.press("Enter")
    page.wait_for_function("id => document.querySelector('[data-item-id][aria-current=\"true\"]')?.dataset.itemId === String(id)", arg=post)
    assert post in shown_ids(page)
    if not size[2]:
        page.wait_for_function("() => document.activeElement.dataset.action === 'more' && document.activeElement.closest('[aria-current=true]')")
    poll(page, lambda: post not in [row["post_id"] for row in context.request.get("/api/v1/me/not-interested").json()["items"]],
         "undo took the post off the list")

    # Again, and this time undone from Profile.
    open_more(page, size)
    tap(page, page.locator(f'{CURRENT} [data-action="not-interested"]'), size)
    poll(page, lambda: post in [row["post_id"] for row in context.request.get("/api/v1/me/not-interested").json()["items"]],
         "filed again")
    open_profile(page, size)
    row = page.locator(f'.profile-not-interested .post-row[data-post-id="{post}"]')
    row.wait_for()
    title = context.request.get(f"/api/v1/videos/{post}").json()["title"]
    assert title in row.inner_text()
    row.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"foryou-profile-not-interested-{size[0]}.png"))
    tap(page, row.locator("button", has_text="Undo"), size)
    row.wait_for(state="detached")
    assert context.request.get("/api/v1/me/not-interested").json()["items"] == []
    assert not log.refused(), log.refused()
    context.close()


def test_hide_posts_from_an_uploader_and_unhide_in_profile(browser, foryou, artifacts):
    size = SIZES[1].values[0]
    name = "Cleo & Co"
    context = context_of(browser, foryou, size)
    log = EventLog(context)
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector(CURRENT, timeout=15_000)
    for _ in range(12):
        if page.locator(f'{CURRENT} [data-action="hide-uploader"]').inner_text() == f"Hide posts from {name}":
            break
        next_item(page, size)
    post = current_id(page)
    open_more(page, size)
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")   # Copy link, Download?, Not interested, Hide posts from …
    hide = page.locator(f'{CURRENT} [data-action="hide-uploader"]')
    hide.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("id => document.querySelector('[data-item-id][aria-current=\"true\"]')?.dataset.itemId !== String(id)", arg=post)
    labels = page.eval_on_selector_all(".reel:not([hidden])", "els => els.map((el) => el.getAttribute('aria-label'))")
    assert labels and not [label for label in labels if label.startswith(f"@{name}")], labels
    log.wait_for(page, lambda e: e["type"] == "hide_uploader" and e["post_id"] == post, "hide_uploader")
    poll(page, lambda: [row["uploader"] for row in context.request.get("/api/v1/me/hidden-uploaders").json()["uploaders"]] == [name],
         "the server hides the uploader")

    open_profile(page, size)
    row = page.locator(".profile-hidden-uploaders .post-row", has_text=name)
    row.wait_for()
    row.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "foryou-profile-hidden-uploaders-desktop.png"))
    with page.expect_response(lambda r: r.request.method == "DELETE" and "/api/v1/me/hidden-uploaders/" in r.url) as unhide:
        row.locator("button", has_text="Unhide").click()
    assert unhide.value.url.endswith("/api/v1/me/hidden-uploaders/Cleo%20%26%20Co"), unhide.value.url
    assert unhide.value.status == 204
    row.wait_for(state="detached")
    assert context.request.get("/api/v1/me/hidden-uploaders").json()["uploaders"] == []
    assert not log.refused(), log.refused()
    context.close()
