"""Small page helpers shared by the web tests: read the feed's state from the DOM."""

CURRENT = '[data-item-id][aria-current="true"]'


def current_id(page) -> int:
    return int(page.get_attribute(CURRENT, "data-item-id"))


def current_kind(page) -> str:
    return page.eval_on_selector(CURRENT, "el => [...el.classList].find(c => c.startsWith('kind-')).slice(5)")


def wait_playing(page, timeout: int = 15_000) -> dict:
    """Waits until the on-screen item's <video> has played 0.2 s more (summing forward steps, so
    a loop back to 0 does not hide progress) with decoded frames; returns them. The probe is
    reset per call: after the feed wraps, the same post (and player) comes round again."""
    page.evaluate("window.__probe = null")
    page.wait_for_function(
        """() => {
            const video = document.querySelector('[aria-current="true"] video');
            if (!video || video.paused || video.readyState < 2) return false;
            const probe = window.__probe;
            if (!probe || probe.video !== video) { window.__probe = { video, last: video.currentTime, advanced: 0 }; return false; }
            const step = video.currentTime - probe.last;
            if (step > 0) probe.advanced += step;
            probe.last = video.currentTime;
            return probe.advanced > 0.2 && video.getVideoPlaybackQuality().totalVideoFrames > 0;
        }""",
        timeout=timeout, polling=100,
    )
    return page.evaluate("""() => {
        const video = document.querySelector('[aria-current="true"] video');
        return { currentTime: video.currentTime, frames: video.getVideoPlaybackQuality().totalVideoFrames, muted: video.muted };
    }""")


def wait_current_changes(page, previous: int, timeout: int = 10_000) -> int:
    page.wait_for_function(
        "prev => { const el = document.querySelector('[data-item-id][aria-current=\"true\"]'); return el && el.dataset.itemId !== String(prev); }",
        arg=previous, timeout=timeout,
    )
    return current_id(page)


def wait_settled(page) -> None:
    """Waits until the pager rests on the current item (a running smooth scroll has ended)."""
    page.wait_for_function(
        "() => { const el = document.querySelector('[data-item-id][aria-current=\"true\"]');"
        " return el && Math.abs(document.getElementById('feed').scrollTop - el.offsetTop) < 2; }")


def wheel_next(page) -> int:
    """Moves to the next item with the mouse wheel (scroll-snap does the paging)."""
    before = current_id(page)
    wait_settled(page)
    page.mouse.move(195, 400)
    page.mouse.wheel(0, 500)
    return wait_current_changes(page, before)


def swipe_next(page) -> int:
    """Moves to the next item like a wheel or trackpad would (the scroll container scrolls)."""
    before = current_id(page)
    page.keyboard.press("ArrowDown")
    return wait_current_changes(page, before)


def pool_report(page) -> dict:
    """Every <video> in the document: how many, and whether any off-screen one plays or has sound."""
    return page.evaluate("""() => {
        const videos = [...document.querySelectorAll('video')];
        const offscreen = videos.filter(v => !v.closest('[aria-current="true"]'));
        return {
            count: videos.length,
            offscreenPlaying: offscreen.filter(v => !v.paused).length,
            offscreenAudible: offscreen.filter(v => !v.muted && v.volume > 0).length,
        };
    }""")


def open_feed_again(context, path: str = "/"):
    page = context.new_page()
    page.goto(path)
    page.wait_for_selector(CURRENT, timeout=15_000)
    return page


def until(page, check, timeout_ms: int = 10_000, what: str = "condition"):
    """Polls `check()` (a server-side fact, or one a route handler noted) until it is truthy; returns it."""
    waited = 0
    while waited < timeout_ms:
        value = check()
        if value:
            return value
        page.wait_for_timeout(100)
        waited += 100
    raise AssertionError(f"{what} never held")


# A server error's body, for a route a test refuses itself.
REFUSED = '{"error":{"code":"internal","message":"injected failure"}}'


def held_routes(page, pattern: str) -> list:
    """Requests matching `pattern` are held (not sent) and collected; the test answers them."""
    held = []
    page.route(pattern, lambda route: held.append(route))
    return held
