"""Helpers for the For You tests (events, the mode switch, reasons, the ⋯ panel, Profile's
history and hidden lists) at a 390×844 touch phone and a 1440×900 mouse-and-keyboard desktop.
`EventLog` records every batch the page sends to POST /api/v1/events (fetch and beacon) and
lets it through to the real server, or answers it itself where a test injects a failure."""
import json

import pytest
from playwright.sync_api import Error as PlaywrightError

from helpers import CURRENT, current_id, wait_settled

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
SIZES = [pytest.param(("phone", PHONE, True), id="phone"), pytest.param(("desktop", DESKTOP, False), id="desktop")]
QUEUE_KEY = "reelhouse.events.queue"
MODE_KEY = "reelhouse.feed.mode"


def context_of(browser, foryou, size, state: dict | None = None):
    """A context signed in as a new person (or `state`) at `size`."""
    _, viewport, touch = size
    extra = {"has_touch": True, "is_mobile": True} if touch else {}
    return browser.new_context(base_url=foryou["url"], viewport=viewport, service_workers="block",
                               storage_state=state or foryou["viewer"](), bypass_csp=True, **extra)


class EventLog:
    """Every POST /api/v1/events of the context that Playwright sees (a beacon sent while the
    page unloads is not among them) and the server's status. `answer(route, events)` may answer
    a batch itself (returning the status it gave, or None to pass it on to the server)."""

    def __init__(self, context, answer=None):
        self.batches: list[dict] = []
        self.answer = answer
        context.route("**/api/v1/events", self._handle)

    def _handle(self, route):
        request = route.request
        events = json.loads(request.post_data or "{}").get("events", [])
        batch = {"events": events, "kind": request.resource_type, "status": None, "by_test": False}
        self.batches.append(batch)
        answered = self.answer(route, events) if self.answer is not None else None
        if answered:
            batch["status"], batch["by_test"] = answered, True
            return
        try:
            response = route.fetch()
            batch["status"] = response.status
            route.fulfill(response=response)
        except PlaywrightError as error:   # the test closed its context while the batch was on its way
            if "disposed" not in str(error) and "closed" not in str(error):
                raise

    def refused(self) -> list[dict]:
        """Batches the real server did not accept (it answers 200 to every well-formed one);
        one still on its way (no status yet) is not counted."""
        return [batch for batch in self.batches if not batch["by_test"] and batch["status"] not in (None, 200)]

    @property
    def events(self) -> list[dict]:
        """Each event once (a resent one counts once, as on the server), in the order sent."""
        seen, unique = set(), []
        for batch in self.batches:
            for event in batch["events"]:
                if event["event_id"] not in seen:
                    seen.add(event["event_id"])
                    unique.append(event)
        return unique

    def of(self, post_id: int, kind: str | None = None) -> list[dict]:
        return [event for event in self.events if event["post_id"] == post_id and (kind is None or event["type"] == kind)]

    def wait_for(self, page, predicate, what: str, timeout: float = 15_000) -> list[dict]:
        """Waits (flushing through the page's real timer with the clock, or by leaving time)
        until an event matching `predicate` was sent; returns the matches."""
        waited = 0
        while waited <= timeout:
            found = [event for event in self.events if predicate(event)]
            if found:
                return found
            page.wait_for_timeout(250)
            waited += 250
        raise AssertionError(f"no {what} event was sent; sent: {[(e['type'], e['post_id']) for e in self.events]}")


def flush(page) -> None:
    """The 10 s flush, now: the page's own timer, run by Playwright's clock (installed by the test)."""
    page.clock.run_for(10_500)


def queued(page) -> list[dict]:
    return page.evaluate(f"() => JSON.parse(localStorage.getItem('{QUEUE_KEY}') || '[]')")


def touch_swipe_up(page) -> None:
    """A finger drawn up most of the screen. Past the middle on purpose: on a loaded machine the
    touch moves arrive too slowly to be a fling, and scroll-snap then goes to the nearest item,
    which for a drag of exactly half the screen may be the one it started on."""
    viewport = page.viewport_size
    x, y, distance = viewport["width"] / 2, viewport["height"] * 0.85, viewport["height"] * 0.7
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 9):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - distance * step / 8}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


CHANGED = "prev => { const el = document.querySelector('[data-item-id][aria-current=true]'); return el && el.dataset.itemId !== String(prev); }"


def next_item(page, size) -> int:
    """The next item the way each person would: a flick on the phone (again if the first did
    not carry), ↓ on the desktop."""
    before = current_id(page)
    if size[2]:
        for _ in range(3):
            wait_settled(page)   # a flick into a snap still running may be swallowed by it
            touch_swipe_up(page)
            try:
                page.wait_for_function(CHANGED, arg=before, timeout=2_000)
                break
            except Exception:
                continue
    else:
        page.keyboard.press("ArrowDown")
    page.wait_for_function(CHANGED, arg=before, timeout=10_000)
    return current_id(page)


def wait_watched(page, seconds: float) -> None:
    """Waits until the current video has played `seconds` (its playhead's forward progress)."""
    page.evaluate("window.__watched = null")
    page.wait_for_function(
        """(wanted) => {
            const video = document.querySelector('[aria-current="true"] video');
            if (!video) return false;
            const probe = window.__watched;
            if (!probe || probe.video !== video) { window.__watched = { video, last: video.currentTime, sum: 0 }; return false; }
            const step = video.currentTime - probe.last;
            if (step > 0 && step < 1) probe.sum += step;
            probe.last = video.currentTime;
            return probe.sum >= wanted;
        }""", arg=seconds, timeout=30_000, polling=100)


def current_kind_is_video(page) -> bool:
    return page.eval_on_selector(CURRENT, "el => el.classList.contains('kind-video')")


def tap(page, locator, size) -> None:
    """A tap on the phone, a click on the desktop."""
    if size[2]:
        locator.tap()
    else:
        locator.click()


def history_row(context, page, post: int) -> dict:
    """The person's history row of `post` once the server has it (the view may still be on its
    way by beacon after the page left): polled for up to 10 s."""
    rows = {}
    for _ in range(40):
        history = context.request.get("/api/v1/me/history")
        assert history.ok, history.text()
        rows = {row["post_id"]: row for row in history.json()["items"]}
        if post in rows:
            return rows[post]
        page.wait_for_timeout(250)
    raise AssertionError(f"the view of {post} did not reach the server: {rows}")
