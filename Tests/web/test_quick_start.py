"""A first visit's first picture (issue 29, "cold start"): the player engine's modules are all
named in index.html (modulepreload), so they load beside the app's own instead of one import
level per round trip; and as soon as the feed's first page arrives, the first video's master
playlist, start rung playlist, key, init section and first segment are asked for together, from
the URLs the feed item carries, instead of one after another. Orders, not timings: the swipe
bench measures the time (scripts/bench_swipe.py)."""
import re
from pathlib import Path

from conftest import new_context

ROOT = Path(__file__).resolve().parents[2]
PLAYER = ROOT / "Web" / "js" / "player"
LATENCY = {"offline": False, "latency": 150, "downloadThroughput": -1, "uploadThroughput": -1}

# The on-screen item's media requests ({ file, start, end }, the file as `<rung>/<name>` or
# `<name>`), and the files its start is made of as the API names them (`media.prefetch`).
START_REQUESTS = """async () => {
  const current = document.querySelector('[aria-current="true"]').dataset.itemId;
  const file = (url) => new URL(url, location.href).pathname.split('/').slice(4).join('/');
  const item = await (await fetch(`/api/v1/videos/${current}`)).json();
  const { playlist, key, init_segment, first_segment } = item.media.prefetch;
  const requests = performance.getEntriesByType('resource')
    .map((e) => ({ parts: new URL(e.name).pathname.split('/'), start: e.startTime, end: e.responseEnd }))
    .filter((e) => e.parts[1] === 'media' && e.parts[3] === current)
    .map((e) => ({ file: e.parts.slice(4).join('/'), start: e.start, end: e.end }));
  return { requests, files: [item.media.master, playlist, key, init_segment, first_segment].filter(Boolean).map(file) };
}"""


def engine_modules() -> set[str]:
    """Every module player/index.js reaches through relative imports."""
    seen, todo = set(), ["index.js"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += re.findall(r"from '\./([\w-]+\.js)'", (PLAYER / name).read_text())
    return seen


def test_index_html_preloads_every_module_of_the_player_engine():
    html = (ROOT / "Web" / "index.html").read_text()
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/js/player/([\w-]+\.js)">', html))
    assert preloaded == engine_modules(), (preloaded ^ engine_modules())


def first_visit(browser, url: str, query: str) -> dict[str, dict]:
    context = new_context(browser, url)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", LATENCY)   # a round trip long enough to see what overlaps
    page.goto(f"/?tag=web{query}")                           # videos only: the first item has a player
    page.wait_for_selector('[data-item-id][aria-current="true"] video.ready', timeout=20_000)
    report = page.evaluate(START_REQUESTS)
    context.close()
    first = {}
    for request in report["requests"]:
        first.setdefault(request["file"], request)
    return {"requests": first, "files": report["files"]}


def test_the_first_videos_start_is_asked_for_all_at_once_and_not_with_quickstart_off(browser, library):
    start = first_visit(browser, library["url"], "")
    requests, files = start["requests"], start["files"]
    assert len(files) >= 4 and set(files) <= set(requests), start
    asked = [requests[name] for name in files]
    # All of them were on their way before the first had answered: one round trip, not four.
    assert max(r["start"] for r in asked) < min(r["end"] for r in asked), asked

    # `?quickstart=0` (the bench's "today's path"): the player's own order, one after another.
    today = first_visit(browser, library["url"], "&quickstart=0")
    requests, (master, playlist, *rest) = today["requests"], today["files"]
    init, segment = rest[-2], rest[-1]
    assert set(today["files"]) <= set(requests), today
    assert requests[master]["end"] <= requests[playlist]["start"], today
    assert requests[playlist]["end"] <= requests[init]["start"], today
    assert requests[init]["end"] <= requests[segment]["start"], today
