"""Screenshots at a phone and a desktop viewport (saved to artifacts/ for a person to look at),
layout facts that must hold at both, and the installable shell (manifest, icons, service worker)."""
from conftest import new_context, open_feed
from helpers import CURRENT, current_kind, swipe_next, wait_playing


def settle_on_video(page):
    while current_kind(page) != "video":
        swipe_next(page)
    wait_playing(page)
    page.wait_for_timeout(300)


def test_phone_screenshot(page, artifacts):
    settle_on_video(page)
    page.screenshot(path=str(artifacts / "feed-phone-390x844.png"))
    stage = page.locator(f"{CURRENT} .stage").bounding_box()
    assert stage["width"] == 390 and stage["height"] == 844
    # overlay text stays on screen
    meta = page.locator(f"{CURRENT} .meta").bounding_box()
    assert meta["x"] >= 0 and meta["x"] + meta["width"] <= 390
    page.click(f'{CURRENT} [data-action="info"]')
    page.screenshot(path=str(artifacts / "feed-phone-info.png"))


def test_small_phone_keeps_everything_on_screen(browser, library, artifacts):
    context = new_context(browser, library["url"], viewport={"width": 360, "height": 640})
    page = open_feed(context)
    actions = page.locator(f"{CURRENT} .actions").bounding_box()
    assert actions["x"] + actions["width"] <= 360 and actions["y"] >= 0
    page.screenshot(path=str(artifacts / "feed-phone-360x640.png"))
    context.close()


def test_desktop_screenshot(browser, library, artifacts):
    context = new_context(browser, library["url"], viewport={"width": 1440, "height": 900})
    page = open_feed(context)
    settle_on_video(page)
    page.screenshot(path=str(artifacts / "feed-desktop-1440x900.png"))
    stage = page.locator(f"{CURRENT} .stage").bounding_box()
    overlay = page.locator(f"{CURRENT} .overlay").bounding_box()
    assert abs(stage["width"] / stage["height"] - 9 / 16) < 0.01
    assert abs((stage["x"] + stage["width"] / 2) - 720) < 2, "the 9:16 column is centered"
    assert overlay["x"] >= stage["x"] + stage["width"], "the overlay stands beside the column"
    context.close()


def test_login_screenshot(browser, library, artifacts):
    context = new_context(browser, library["url"], signed_in=False)
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector("input[name=password]")
    page.screenshot(path=str(artifacts / "login-phone.png"))
    context.close()


def test_manifest_icons_and_service_worker(browser, library):
    context = browser.new_context(base_url=library["url"])
    page = context.new_page()
    manifest = context.request.get("/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        response = context.request.get(icon["src"])
        assert response.ok and response.body()[:8] == b"\x89PNG\r\n\x1a\n"
        width = int.from_bytes(response.body()[16:20], "big")
        assert f"{width}x{width}" == icon["sizes"]
    page.goto("/")
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
    cached = page.evaluate("""async () => {
        const keys = await caches.keys();
        const cache = await caches.open(keys[0]);
        return (await cache.keys()).map(r => new URL(r.url).pathname);
    }""")
    assert "/index.html" in cached and "/js/app.js" in cached
    assert not any(path.startswith(("/api/", "/media/", "/img/")) for path in cached)
    context.close()
