"""Helpers for the detail sheet, full player and Profile tests: find posts by their sidecar
text, open the sheet the way the app does, and count the page's <video> elements."""
from urllib.parse import quote

from conftest import new_context, signed_in_state

SHEET = "dialog.detail-sheet[open]"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}


def context_for(browser, url: str, size: str):
    """A signed-in context at `size`: the phone is touch (mobile), the desktop mouse + keyboard."""
    if size == "phone":
        state = signed_in_state(browser, url)
        return browser.new_context(base_url=url, viewport=PHONE, has_touch=True, is_mobile=True,
                                   service_workers="block", storage_state=state, bypass_csp=True)
    return new_context(browser, url, viewport=DESKTOP)


def posts(context) -> list[dict]:
    response = context.request.get("/api/v1/feed?limit=50")
    assert response.ok, response.text()
    seen, items = set(), []
    for item in response.json()["items"]:
        if item["id"] not in seen:
            seen.add(item["id"])
            items.append(item)
    return items


def post_with(context, text: str) -> dict:
    return next(item for item in posts(context) if text in (item.get("description") or ""))


def open_detail(page, post_id: int, kind: str = "browse", query: str = "sort=title") -> None:
    """Opens /p/{id} over the grid of `kind` with `query`, the way a cover of that grid does
    (`push_detail`), and waits for the sheet to come to rest."""
    push_detail(page, post_id, kind, query)
    # Slid in and resting: no animation and the same place two frames apart. (Awaiting the
    # animations found right after [open] once measured the sheet 9–18 px short of the bottom
    # edge: its sheet-up animation had not begun yet. wait_for_function would not await the
    # frames: a promise counts as true at once.)
    for _ in range(200):
        if page.evaluate(RESTING, SHEET):
            return
    raise AssertionError("the detail sheet never came to rest")


RESTING = """(selector) => new Promise((resolve) => {
  const sheet = document.querySelector(selector);
  if (!sheet) return resolve(false);
  const top = sheet.getBoundingClientRect().top;
  requestAnimationFrame(() => requestAnimationFrame(() =>
    resolve(sheet.isConnected && sheet.getAnimations().length === 0 && sheet.getBoundingClientRect().top === top)));
})"""


def push_detail(page, post_id: int, kind: str = "browse", query: str = "sort=title") -> None:
    """Opens /p/{id} over the grid of `kind` with `query`: the grid's entry keeps its URL and the
    grid's context in history.state (screen-host.js), and /p/{id} is pushed over it. Returns
    once the sheet shows the post's title."""
    grid = {"search": "/search", "favorites": "/favorites"}.get(kind, "/browse")
    page.goto(f"{grid}?{query}" if query else grid)
    page.wait_for_selector(".screen", timeout=10_000)
    page.evaluate(
        """([id, kind, query]) => {
            history.replaceState({ background: location.pathname + location.search, context: { kind, query } }, '');
            history.pushState(history.state, '', `/p/${id}`);
            dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
        }""", [post_id, kind, query])
    page.wait_for_selector(f"{SHEET} .detail-title", timeout=10_000)


def video_count(page) -> int:
    return page.evaluate("document.querySelectorAll('video').length")


def shot(page, artifacts, name: str) -> None:
    page.screenshot(path=str(artifacts / f"{name}.png"))


def quoted(text: str) -> str:
    return quote(text, safe="")
