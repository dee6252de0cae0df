"""Stories offline (issue 15), at 390×844 touch and 1440×900 mouse: a viewer watches bob's and
carol's stories with the service worker on, closes the player, and the network goes away
(Playwright's `context.set_offline`). Bob's photo and video and carol's video play again from
the service worker's copies, with the banner "You're offline — showing stories already
loaded"; alice, never opened, cannot load — until the network comes back, when she loads by
herself, without a tap. The service worker's stores are checked too: media under token-free
names, only for story posts, nothing left after signing out."""
import pytest

from stories_helpers import PLAYER, SIZES, current_video_playing, fresh_viewer, shown, tap_at, wait_item

BANNER = f"{PLAYER} #stories-offline-banner"
MEDIA_CACHE = "reelhouse-stories-media-v1"
API_CACHE = "reelhouse-stories-api-v1"


def controlled_context(browser, stories, size, viewer: str):
    """A context whose pages the service worker controls from their first request."""
    _, viewport, touch = size
    extra = {"has_touch": True, "is_mobile": True} if touch else {}
    context = browser.new_context(base_url=stories["url"], viewport=viewport, service_workers="allow", bypass_csp=True,
                                  storage_state=stories["viewer"](viewer), **extra)
    page = context.new_page()
    page.goto("/")
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("Boolean(navigator.serviceWorker.controller)")
    page.wait_for_selector(".feed-stories .stories-tray a.story-ring[data-user=bob]", timeout=20_000)
    return context, page


def cached_paths(page, name: str) -> list[str]:
    return page.evaluate("""async (name) => {
        const cache = await caches.open(name);
        return (await cache.keys()).map((request) => new URL(request.url).pathname);
    }""", name)


def open_from_tray(page, size, user: str) -> None:
    ring = page.locator(f".feed-stories .stories-tray a.story-ring[data-user={user}]")
    ring.tap() if size[2] else ring.click()
    page.wait_for_selector(PLAYER, timeout=20_000)


def wait_started(page, user: str, item: int) -> None:
    wait_item(page, user, item)
    try:
        page.wait_for_selector(f"{PLAYER}[data-user='{user}'][data-item='{item}'][data-started=true]", timeout=20_000)
    except Exception:
        # Say what every element and the last finished media requests looked like, so a failure
        # explains itself. (These once showed two feed players appending into one element: a
        # second feed started under the stories while the engine loaded, test_stories_player.)
        state = page.evaluate("""() => ({
            videos: [...document.querySelectorAll('video')].map((v) => ({
              item: v.dataset.storyItem, shown: Boolean(v.closest('.stories-media')), paused: v.paused, ended: v.ended,
              currentTime: v.currentTime, readyState: v.readyState, networkState: v.networkState,
              buffered: [...Array(v.buffered.length).keys()].map((i) => [v.buffered.start(i), v.buffered.end(i)]),
              src: v.src.slice(0, 40), error: v.error?.message ?? null })),
            finished: performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)
              .filter((path) => path.startsWith('/media/')).slice(-10).map((path) => path.split('/').slice(3).join('/')),
          })""")
        raise AssertionError(f"{user} {item} never started: {state}")


def watch_bob_then_carol(page, size) -> None:
    """bob: a photo, then a video; carol: a video. Each item shows its first frame."""
    open_from_tray(page, size, "bob")
    wait_started(page, "bob", 0)
    assert shown(page)["kind"] == "photo"
    tap_at(page, size, 0.85)
    wait_started(page, "bob", 1)
    current_video_playing(page)
    tap_at(page, size, 0.85)
    wait_started(page, "carol", 0)
    current_video_playing(page)


def close_player(page) -> None:
    page.click(f"{PLAYER} .stories-close")
    page.wait_for_selector(PLAYER, state="detached")


@pytest.mark.parametrize("size", SIZES)
def test_stories_already_loaded_play_offline_and_loading_resumes_online(browser, stories, size, artifacts):
    context, page = controlled_context(browser, stories, size, fresh_viewer(stories, f"offline-{size[0]}"))
    try:
        watch_bob_then_carol(page, size)
        carol = page.evaluate("() => Number(document.querySelector('dialog.stories-player[open] .stories-stage').dataset.itemId)")
        close_player(page)
        # The service worker stored what the player fetched, by post and file, not by token.
        page.wait_for_function(f"""async () => (await (await caches.open('{MEDIA_CACHE}')).keys())
            .some((request) => /\\/media\\/\\*\\/{carol}\\/.+\\.m4s$/.test(new URL(request.url).pathname))""", timeout=10_000)
        media = cached_paths(page, MEDIA_CACHE)
        assert all(path.startswith(("/media/*/", "/img/*/")) for path in media), media
        assert any(path.startswith("/img/*/") for path in media), "bob's photo is kept"
        assert {"/api/v1/stories", "/api/v1/stories/bob", "/api/v1/stories/carol"} <= set(cached_paths(page, API_CACHE))

        # Without the browser's HTTP cache, which holds immutable media too: only the service
        # worker's stores can answer now.
        cdp = context.new_cdp_session(page)
        cdp.send("Network.clearBrowserCache")
        copies: list[str] = []
        page.on("response", lambda response: response.headers.get("x-reelhouse-offline-copy") == "1"
                and copies.append(response.url))
        context.set_offline(True)
        assert page.evaluate("navigator.onLine") is False
        assert page.is_visible(".feed-stories .stories-tray a.story-ring[data-user=bob]"), "the tray stays"
        watch_bob_then_carol(page, size)
        # Answered from the service worker's stores (not the page's memory): the pages, the photo, the video.
        served = {url.split("?")[0].split(stories["url"])[-1] for url in copies}
        assert {"/api/v1/stories/bob", "/api/v1/stories/carol"} <= served, served
        assert any(path.startswith("/img/") for path in served), served
        assert any(path.startswith("/media/") and f"/{carol}/" in path and path.endswith(".m4s") for path in served), served
        banner = page.locator(BANNER)
        assert banner.is_visible() and banner.inner_text() == "You're offline — showing stories already loaded"
        page.wait_for_function("() => document.querySelector('.stories-frame').getAnimations().length === 0")  # the turn between people is over
        page.screenshot(path=str(artifacts / f"stories-offline-{size[0]}.png"))

        # Back to carol's start, then alice (before bob in the tray), whose stories never loaded.
        close_player(page)
        open_from_tray(page, size, "alice")
        page.wait_for_selector(f"{PLAYER} .stories-message:not([hidden])", timeout=20_000)
        assert page.locator(BANNER).is_visible()

        context.set_offline(False)
        # No tap: the player loads alice by itself once the network is back, and the banner goes.
        wait_started(page, "alice", 0)
        current_video_playing(page)
        page.wait_for_selector(BANNER, state="hidden")
        assert page.locator(f"{PLAYER} .stories-message").is_hidden()
    finally:
        context.close()


def test_signing_out_drops_every_stored_story(browser, stories):
    size = SIZES[0].values[0]
    context, page = controlled_context(browser, stories, size, fresh_viewer(stories, "offline-signout"))
    try:
        watch_bob_then_carol(page, size)
        close_player(page)
        page.wait_for_function(f"async () => (await (await caches.open('{MEDIA_CACHE}')).keys()).length > 0", timeout=10_000)
        # The app's own sign-out request, through the service worker like any of the page's.
        page.evaluate("fetch('/api/v1/session', { method: 'DELETE', credentials: 'same-origin' })")
        page.wait_for_function(f"""async () => !(await caches.has('{MEDIA_CACHE}')) && !(await caches.has('{API_CACHE}'))""",
                               timeout=10_000)
    finally:
        context.close()
