"""The stories tray (issue 15) over the feed and in Discover, at 390×844 touch and 1440×900:
round avatars (the entry's `avatar`), a gradient ring while unseen, paging sideways through
`next_cursor`, a refresh button on desktop and pull-to-refresh on touch. Screenshots of the
tray at both sizes go to the artifacts folder."""
from urllib.parse import urlsplit

import pytest

from stories_helpers import SIZES, api, fresh_viewer, stories_context, touch_pull, ring_states


def wait_pictures(page, root: str) -> None:
    page.wait_for_function("""root => { const imgs = [...document.querySelectorAll(`${root} .story-avatar img`)];
        return imgs.length > 0 && imgs.every((img) => img.complete && img.naturalWidth > 0); }""", arg=root, timeout=15_000)


@pytest.mark.parametrize("size", SIZES)
def test_tray_shows_each_person_with_an_unseen_ring(browser, stories, size, artifacts):
    context = stories_context(browser, stories, size, fresh_viewer(stories, f"tray-{size[0]}"))
    try:
        tray = api(context, "/api/v1/stories")["tray"]
        page = context.new_page()
        page.goto("/")
        page.wait_for_selector(".feed-stories a.story-ring", timeout=20_000)
        users = page.eval_on_selector_all(".feed-stories a.story-ring", "links => links.map((a) => a.dataset.user)")
        assert users == [entry["user"] for entry in tray], "the tray's order is the server's"
        assert set(ring_states(page, ".feed-stories").values()) == {"unseen"}
        avatars = page.eval_on_selector_all(".feed-stories .story-avatar img", "imgs => imgs.map((img) => new URL(img.src).pathname)")
        assert avatars == [urlsplit(entry["avatar"]["url"]).path for entry in tray], "each ring shows the entry's avatar"
        # Round pictures in a coloured (gradient) ring.
        first = ".feed-stories .story-ring .story-avatar"
        assert page.eval_on_selector(first, "el => getComputedStyle(el).borderRadius") == "50%"
        assert "gradient" in page.eval_on_selector(first, "el => getComputedStyle(el).backgroundImage")
        # The refresh button is a desktop thing; phones pull the tray down instead.
        assert page.is_visible(".feed-stories .stories-tray-refresh") is (not size[2])
        wait_pictures(page, ".feed-stories")
        page.screenshot(path=str(artifacts / f"stories-tray-feed-{size[0]}.png"))
        page.goto("/discover")
        page.wait_for_selector(".discover-stories a.story-ring", timeout=20_000)
        wait_pictures(page, ".discover-stories")
        page.screenshot(path=str(artifacts / f"stories-tray-discover-{size[0]}.png"))
        # A ring opens that person's stories.
        page.click(".discover-stories a.story-ring[data-user='bob']")
        page.wait_for_selector("dialog.stories-player[open][data-user='bob']", timeout=20_000)
        assert page.url.endswith("/stories/bob")
        # The browser's back button closes it, back on Discover with its tray.
        page.go_back()
        page.wait_for_selector("dialog.stories-player", state="detached")
        assert urlsplit(page.url).path == "/discover"
        assert page.is_visible(".discover-stories a.story-ring[data-user='bob']")
        if not size[2]:
            # From the keyboard: Enter on a ring opens it, Esc closes it, and focus is on the ring again.
            page.focus(".discover-stories a.story-ring[data-user='carol']")
            page.keyboard.press("Enter")
            page.wait_for_selector("dialog.stories-player[open][data-user='carol']", timeout=20_000)
            page.keyboard.press("Escape")
            page.wait_for_selector("dialog.stories-player", state="detached")
            page.wait_for_function("() => document.activeElement?.dataset?.user === 'carol'", timeout=5_000)
    finally:
        context.close()


def test_tray_pages_sideways_through_the_cursor(browser, stories):
    size = SIZES[1].values[0]
    context = stories_context(browser, stories, size, fresh_viewer(stories, "paging"))
    try:
        everyone = [entry["user"] for entry in api(context, "/api/v1/stories?limit=50")["tray"]]
        page = context.new_page()
        cursors = []
        page.on("request", lambda request: cursors.append("cursor=" in request.url) if "/api/v1/stories?" in request.url else None)
        page.goto("/discover")
        page.wait_for_selector(".discover-stories a.story-ring", timeout=20_000)
        # A tray of one person per page, mounted by the module the app uses.
        page.evaluate("""() => import('/js/stories/index.js').then(({ mountTray }) => {
            const root = document.createElement('div');
            root.id = 'paged-tray';
            root.style.width = '150px';
            document.querySelector('.screen-discover').prepend(root);
            mountTray(root, { navigate: () => {}, pageSize: 1 });
        })""")
        page.wait_for_selector("#paged-tray a.story-ring")
        for count in range(2, len(everyone) + 1):
            page.eval_on_selector("#paged-tray .stories-tray-list", "list => { list.scrollLeft = list.scrollWidth; }")
            page.wait_for_function("n => document.querySelectorAll('#paged-tray a.story-ring').length >= n", arg=count, timeout=10_000)
        users = page.eval_on_selector_all("#paged-tray a.story-ring", "links => links.map((a) => a.dataset.user)")
        assert users == everyone
        assert any(cursors), "later pages were asked with next_cursor"
        assert page.locator("#paged-tray .stories-tray-sentinel").count() == 0, "the end: nothing more to page"
    finally:
        context.close()
