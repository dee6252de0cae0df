"""Collections an owner curates, on /collection/{id}: rename, reorder (drag with a mouse or a
finger, or the keyboard's "move earlier / later" buttons — each reorder sends the full
post_ids order), remove a post, delete the collection after a confirmation; a member sees the
grid and no edit control; Discover lists every collection with its cover. At 390×844 touch
and 1440×900 mouse + keyboard, checked against the server."""
import json

import pytest

from app_helpers import DESKTOP, PHONE, assert_pool_bound, cover_titles, wait_covers
from conftest import PASSWORD, USER, Server, make_image, new_context, reelhouse

TITLES = ["Alpha dawn", "Bravo bridge", "Charlie canal", "Delta dunes", "Echo estuary"]
MEMBER = "guest"
SIZES = [pytest.param("phone", id="phone"), pytest.param("desktop", id="desktop")]


@pytest.fixture(scope="module")
def curated(tmp_path_factory):
    """Five image posts, an owner and a member, on a server of their own (so the collections
    made here change no other test's Discover)."""
    root = tmp_path_factory.mktemp("web-collections")
    sources, data = root / "sources", root / "data"
    for index, title in enumerate(TITLES):
        path = make_image(sources / f"col{index}.jpg", size="360x640", source=["testsrc2", "smptebars", "rgbtestsrc", "cellauto", "testsrc"][index], label=title.split()[0])
        path.with_suffix(".info.json").write_text(json.dumps({
            "id": f"col{index}", "title": title, "description": title, "uploader": "Curator",
            "uploader_id": "@curator", "upload_date": f"2024010{index + 1}", "tags": ["curated"],
            "webpage_url": f"https://example.com/col{index}", "extractor": "generic",
        }))
    reelhouse(data, "import", str(sources), "--json")
    reelhouse(data, "user", "add", USER, "--role", "owner", stdin=PASSWORD + "\n")
    reelhouse(data, "user", "add", MEMBER, "--role", "member", stdin=PASSWORD + "\n")
    server = Server(data, root / "serve.log")
    yield {"url": server.url}
    server.stop()


_member_state: dict[str, dict] = {}


def open_context(browser, url: str, size: str, member: bool = False):
    touch = size == "phone"
    viewport = PHONE if touch else DESKTOP
    if not member:
        return new_context(browser, url, viewport=viewport, touch=touch)
    if url not in _member_state:
        probe = browser.new_context(base_url=url, bypass_csp=True)
        assert probe.request.post("/api/v1/session", data={"username": MEMBER, "password": PASSWORD}).ok
        _member_state[url] = probe.storage_state()
        probe.close()
    extra = {"has_touch": True, "is_mobile": True} if touch else {}
    return browser.new_context(base_url=url, viewport=viewport, service_workers="block", storage_state=_member_state[url], bypass_csp=True, **extra)


def post_ids(context) -> dict[str, int]:
    items = context.request.get("/api/v1/browse?sort=title&limit=50").json()["items"]
    return {item["description"].split("\n")[0]: item["id"] for item in items}


def make_collection(context, name: str, titles: list[str]) -> int:
    ids = post_ids(context)
    response = context.request.post("/api/v1/collections", data={"name": name, "post_ids": [ids[t] for t in titles]})
    assert response.status == 201, response.text()
    return response.json()["id"]


def server_order(context, collection_id: int) -> list[str]:
    items = context.request.get(f"/api/v1/collections/{collection_id}").json()["items"]
    return [item["description"].split("\n")[0] for item in items]


def row_titles(page) -> list[str]:
    return page.locator(".collection-order .order-row .order-title").all_inner_texts()


def open_collection(context, collection_id: int, count: int):
    page = context.new_page()
    page.goto(f"/collection/{collection_id}")
    wait_covers(page, count)
    return page


def start_editing(page, count: int) -> None:
    page.get_by_role("button", name="Edit").click()
    page.wait_for_function("n => document.querySelectorAll('.collection-order .order-row').length === n", arg=count)


def drag_handle(page, size: str, title: str, to_title: str) -> None:
    """Drags `title`'s handle onto the top half of `to_title`'s row: a real mouse drag on the
    desktop, real touch events (touchStart, touchMove…, touchEnd) on the phone."""
    handle = page.locator(".order-row", has_text=title).locator(".drag-handle").bounding_box()
    target = page.locator(".order-row", has_text=to_title).bounding_box()
    x, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    end_y = target["y"] + target["height"] * 0.25
    steps = 8
    if size == "desktop":
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x, end_y, steps=steps)
        page.mouse.up()
        return
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, steps + 1):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y + (end_y - y) * step / steps}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


@pytest.mark.parametrize("size", SIZES)
def test_owner_renames_reorders_and_removes(browser, curated, size, artifacts):
    context = open_context(browser, curated["url"], size)
    try:
        collection_id = make_collection(context, f"Trip {size}", TITLES[:4])
        page = open_collection(context, collection_id, 4)
        assert page.locator(".screen-header h1").inner_text() == f"Trip {size}"
        assert cover_titles(page) == TITLES[:4]
        puts: list[dict] = []
        page.on("request", lambda request: request.method == "PUT" and f"/collections/{collection_id}" in request.url and puts.append(request.post_data_json))
        start_editing(page, 4)
        assert row_titles(page) == TITLES[:4]

        # Rename
        page.fill("input[name=collection-name]", f"Road trip {size}")
        page.get_by_role("button", name="Rename").click()
        page.wait_for_function("name => document.querySelector('.screen-header h1').textContent === name", arg=f"Road trip {size}")
        assert context.request.get(f"/api/v1/collections/{collection_id}").json()["name"] == f"Road trip {size}"

        # The keyboard's buttons: Alpha later, then (focus stays on it) later again.
        later = page.get_by_role("button", name=f"Move {TITLES[0]} later")
        later.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("t => document.querySelectorAll('.order-row .order-title')[1]?.textContent === t", arg=TITLES[0])
        assert page.evaluate("document.activeElement.getAttribute('aria-label')") == f"Move {TITLES[0]} later", "focus follows the moved post"
        page.keyboard.press("Enter")
        page.wait_for_function("t => document.querySelectorAll('.order-row .order-title')[2]?.textContent === t", arg=TITLES[0])
        expected = [TITLES[1], TITLES[2], TITLES[0], TITLES[3]]
        assert row_titles(page) == expected
        page.wait_for_function("() => !document.querySelector('.editor-status')?.textContent.includes('could not')")
        page.wait_for_function("t => document.querySelector('.editor-status').textContent.includes(t)", arg="is now number 3 of 4")
        assert server_order(context, collection_id) == expected
        ids = post_ids(context)
        assert puts[-1] == {"post_ids": [ids[t] for t in expected]}, "a reorder sends the full order"
        assert page.get_by_role("button", name=f"Move {expected[0]} earlier").is_disabled()

        # Drag Delta (last) to the top by its handle.
        drag_handle(page, size, TITLES[3], expected[0])
        expected = [TITLES[3], *expected[:3]]
        page.wait_for_function("t => document.querySelector('.editor-status').textContent.includes(t)", arg="is now number 1 of 4")
        assert row_titles(page) == expected
        assert server_order(context, collection_id) == expected
        assert puts[-1] == {"post_ids": [ids[t] for t in expected]}
        page.screenshot(path=str(artifacts / f"collection-edit-{size}.png"))

        # Remove Charlie.
        page.get_by_role("button", name=f"Remove {TITLES[2]} from the collection").click()
        page.wait_for_function("() => document.querySelectorAll('.order-row').length === 3")
        expected = [t for t in expected if t != TITLES[2]]
        assert row_titles(page) == expected
        assert server_order(context, collection_id) == expected

        # Done: the grid shows the new order.
        page.get_by_role("button", name="Done").click()
        page.wait_for_function("n => document.querySelectorAll('.lazy-grid .cover[data-item-id]').length === n", arg=3)
        assert cover_titles(page) == expected
        assert_pool_bound(page)
        page.screenshot(path=str(artifacts / f"collection-{size}.png"))
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_owner_deletes_the_collection_after_confirming(browser, curated, size):
    context = open_context(browser, curated["url"], size)
    try:
        collection_id = make_collection(context, f"Doomed {size}", TITLES[:2])
        page = open_collection(context, collection_id, 2)
        start_editing(page, 2)
        page.get_by_role("button", name="Delete collection…").click()
        confirm = page.locator(".collection-confirm")
        assert confirm.is_visible() and f"Doomed {size}" in confirm.inner_text()
        assert page.evaluate("document.activeElement.textContent") == "Cancel", "focus starts on the safe choice"
        page.get_by_role("button", name="Cancel").click()
        assert not confirm.is_visible()
        assert context.request.get(f"/api/v1/collections/{collection_id}").ok, "cancel keeps it"

        page.get_by_role("button", name="Delete collection…").click()
        page.locator(".confirm-delete").click()
        page.wait_for_url("**/discover")
        assert context.request.get(f"/api/v1/collections/{collection_id}").status == 404
        assert sorted(post_ids(context)) == sorted(TITLES), "the posts stay in the library"
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_member_sees_the_collection_without_edit_controls(browser, curated, size, artifacts):
    owner = open_context(browser, curated["url"], size)
    collection_id = make_collection(owner, f"Shared {size}", TITLES[2:])
    owner.close()
    context = open_context(browser, curated["url"], size, member=True)
    try:
        assert context.request.get("/api/v1/me").json()["role"] == "member"
        page = open_collection(context, collection_id, 3)
        assert page.locator(".screen-header h1").inner_text() == f"Shared {size}"
        assert cover_titles(page) == TITLES[2:]
        assert page.locator(".edit-collection").count() == 0
        assert page.get_by_role("button", name="Edit").count() == 0
        assert page.locator(".drag-handle, .move-earlier, .remove-item, .delete-collection").count() == 0
        page.screenshot(path=str(artifacts / f"collection-member-{size}.png"))
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_discover_lists_every_collection_with_its_cover(browser, curated, size, artifacts):
    context = open_context(browser, curated["url"], size)
    try:
        full_id = make_collection(context, f"Favourites row {size}", [TITLES[4], TITLES[0]])
        empty_id = make_collection(context, f"Empty row {size}", [])
        page = context.new_page()
        page.goto("/discover")
        row = page.locator(".collections-shelf")
        row.wait_for(timeout=15_000)
        assert row.locator("h2").inner_text() == "Collections"
        every = context.request.get("/api/v1/collections").json()["collections"]
        shown = row.locator(".collection-card .cover").evaluate_all("links => links.map((a) => a.dataset.collectionId)")
        assert shown == [str(c["id"]) for c in every], "every collection, in the server's order"
        full = row.locator(f".cover[data-collection-id='{full_id}']")
        assert full.get_attribute("aria-label") == f"Favourites row {size}, 2 posts"
        assert full.locator(".cover-count").inner_text() == "2 posts", "a count, not something that reads as a duration"
        # Each collection once: no shelf of its own above the row.
        assert page.locator(f".shelf[data-shelf-id='collection-{full_id}']").count() == 0
        assert page.locator(".shelf[data-shelf-id^='collection-']").count() == 0
        assert row.locator(f".cover[data-collection-id='{empty_id}']").get_attribute("aria-label") == f"Empty row {size}, 0 posts"
        # The row is below the fold (after the other shelves) and its pictures are
        # lazy: they load once it is scrolled to. (Before, the cover was the same file as a
        # shelf's, so the browser's memory cache gave it a size while it was still off screen.)
        full.scroll_into_view_if_needed()
        page.wait_for_function(f"() => document.querySelector(\".cover[data-collection-id='{full_id}'] img\")?.naturalWidth > 0")
        # Every card with a cover shows it (faded in) before the picture is taken.
        page.wait_for_function("""() => [...document.querySelectorAll('.collections-shelf .cover img')]
            .every((img) => img.naturalWidth > 0 && getComputedStyle(img).opacity === '1')""")
        page.screenshot(path=str(artifacts / f"discover-collections-{size}.png"))
        if size == "phone":
            full.tap()
        else:
            full.focus()
            page.keyboard.press("Enter")
        page.wait_for_url(f"**/collection/{full_id}")
        wait_covers(page, 2)
        assert cover_titles(page) == [TITLES[4], TITLES[0]]
    finally:
        context.close()
