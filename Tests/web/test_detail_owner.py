"""The owner's tools in the detail sheet: edit description and tags, add to a collection
(created inline), delete with confirmation. Each is checked against the server."""
import pytest

from detail_helpers import SHEET, context_for, open_detail, post_with, shot


@pytest.fixture(params=["phone", "desktop"])
def size(request):
    return request.param


@pytest.fixture
def ctx(browser, watch_library, size):
    context = context_for(browser, watch_library["url"], size)
    yield context
    context.close()


def test_owner_edits_description_and_tags(ctx, size, artifacts):
    post = post_with(ctx, "Short clip 41")
    page = ctx.new_page()
    open_detail(page, post["id"])
    sheet = page.locator(SHEET)
    sheet.locator("[data-action=edit]").click()
    sheet.locator("textarea[name=description]").fill(f"Short clip 41 edited on {size}\nNow with #edited")
    sheet.locator("input[name=tags]").fill("detail, short, edited")
    shot(page, artifacts, f"detail-edit-{size}")
    sheet.locator("form.detail-form button[type=submit]").click()
    page.wait_for_function(f"() => document.querySelector('{SHEET} .detail-title')?.textContent === 'Short clip 41 edited on {size}'")
    assert "#edited" in sheet.locator(".detail-tags").inner_text()
    saved = ctx.request.get(f"/api/v1/videos/{post['id']}").json()
    assert saved["description"].startswith(f"Short clip 41 edited on {size}")
    assert sorted(tag["name"] for tag in saved["tags"]) == ["detail", "edited", "short"]


def test_owner_adds_to_a_new_collection(ctx, size):
    post = post_with(ctx, "Short clip 42")
    page = ctx.new_page()
    open_detail(page, post["id"])
    sheet = page.locator(SHEET)
    sheet.locator("[data-action=collections]").click()
    sheet.locator("input[name=collection-name]").fill(f"Picks {size}")
    sheet.locator(".detail-new-collection button").click()
    page.wait_for_function(f"() => document.querySelector('{SHEET} .detail-panel').textContent.includes('Added to Picks {size}')")
    collections = ctx.request.get("/api/v1/collections").json()["collections"]
    made = next(c for c in collections if c["name"] == f"Picks {size}")
    assert made["count"] == 1
    members = ctx.request.get(f"/api/v1/collections/{made['id']}").json()["items"]
    assert [item["id"] for item in members] == [post["id"]]


def test_owner_deletes_with_confirmation(ctx, size, watch_library):
    from conftest import make_clip, reelhouse, sidecar
    # A post of its own to delete, so the other tests keep theirs.
    folder = watch_library["data"].parent / f"doomed-{size}"
    make_clip(folder / f"doomed-{size}.mp4", size="180x320", seconds=2, rate=10, audio=False)
    sidecar(folder / f"doomed-{size}.mp4", 50, f"Doomed on {size}", ["doomed"])
    reelhouse(watch_library["data"], "import", str(folder), "--json")
    post = post_with(ctx, f"Doomed on {size}")
    page = ctx.new_page()
    open_detail(page, post["id"])
    page.evaluate("() => { window.__deleted = []; reelhouse.store.subscribe('postDeleted', (deleted) => __deleted.push(deleted.id)); }")
    sheet = page.locator(SHEET)
    sheet.locator("[data-action=delete]").click()
    assert sheet.locator(".detail-confirm").is_visible()
    sheet.locator(".detail-confirm button", has_text="Keep it").click()
    assert ctx.request.get(f"/api/v1/videos/{post['id']}").ok   # nothing happened
    sheet.locator("[data-action=delete]").click()
    sheet.locator("[data-action=confirm-delete]").click()
    page.wait_for_selector(SHEET, state="detached")
    assert page.evaluate("__deleted") == [post["id"]]
    assert ctx.request.get(f"/api/v1/videos/{post['id']}").status == 404


def test_a_post_deleted_from_discover_leaves_its_shelves_at_once(browser, watch_library):
    """Discover stays behind the sheet it opened: its New and Unseen shelves held the post, and
    tapping the cover afterwards said it did not exist."""
    from conftest import make_clip, reelhouse, sidecar
    folder = watch_library["data"].parent / "doomed-discover"
    make_clip(folder / "doomed-discover.mp4", size="180x320", seconds=2, rate=10, audio=False)
    sidecar(folder / "doomed-discover.mp4", 51, "Doomed from Discover", ["doomed"])
    reelhouse(watch_library["data"], "import", str(folder), "--json")
    context = context_for(browser, watch_library["url"], "phone")
    try:
        post = post_with(context, "Doomed from Discover")
        page = context.new_page()
        page.goto("/discover")
        covers = page.locator(f".shelf .cover[data-item-id='{post['id']}']")
        covers.first.wait_for(timeout=10_000)
        assert covers.count() >= 2, "the newest post is on New and on Unseen"
        covers.first.click()
        sheet = page.locator(SHEET)
        sheet.locator("[data-action=delete]").click()
        sheet.locator("[data-action=confirm-delete]").click()
        page.wait_for_selector(SHEET, state="detached")
        assert page.url.endswith("/discover")
        assert covers.count() == 0
    finally:
        context.close()
