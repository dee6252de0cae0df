#!/usr/bin/env python3
"""Story tap benchmark for the web client: real Chromium (Playwright), a real `reelhouse serve`
whose stories were imported with `reelhouse import DIR --story --as USER`, and the swipe
benchmark's throttled network (scripts/bench_swipe.py: 1.6 Mbit/s down, 150 ms RTT, the same
clips, server and helpers, imported from there).

A viewer opens the first person's stories and taps the right side of the story every few
seconds, N times, across people (5 people × 7 eight-second videos, encrypted). For each tap:
the tap (the finger lifted: `pointerup`) → the next item's first frame (the player's story
timer starts on the first presented frame, `data-started` on the player), split into
tap → the player moving to the item (the gesture's double-tap wait) and the move → the frame.
Twice: with the player's look-ahead (the next item in the second pooled player, the next
person's first item prefetched) and without it (`localStorage['reelhouse.stories.preload'] =
'off'`, which the player reads: js/stories/preload.js). Each run also counts the taps whose
next item had been requested before the tap, which shows the switch really took effect.

Prints p50/p95 of both and their ratio; asserts nothing. Goal from the issue: p95 < 100 ms with
preload. Diagnostics: for the slowest taps, whether a pooled element held the item at the tap
(its readyState and buffer) and when its first segment was asked for and arrived; and the
`waiting` events of the story on screen after its first frame (the look-ahead shares the link).

For working on the player: BENCH_STORY_LIBRARY=DIR keeps the imported library there and copies
it next time; BENCH_STORY_MODES=preload runs only one of the two; BENCH_STORY_DUMP=FILE.json
writes every tap (and FILE.on.raw.json / FILE.off.raw.json the page's raw timings)."""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_swipe import BIN, CHROMIUM, THROTTLE, log, make_clip, percentile, serve  # noqa: E402

PEOPLE = int(os.environ.get("BENCH_STORY_PEOPLE", "5"))
ITEMS = int(os.environ.get("BENCH_STORY_ITEMS", "7"))
TAPS = int(os.environ.get("BENCH_STORY_TAPS", "30"))
DWELL_S = float(os.environ.get("BENCH_STORY_DWELL", "2.5"))
PASSWORD = "bench password for stories"
# The switch agreed with the player (js/stories/preload.js reads it): 'off' = no look-ahead.
PRELOAD_KEY = "reelhouse.stories.preload"
# For iterating on the player: a folder to keep the imported library in and copy from next time
# (each run still starts from a fresh copy, nothing seen), and which of the two runs to do.
LIBRARY = os.environ.get("BENCH_STORY_LIBRARY")
MODES = [m.strip() for m in os.environ.get("BENCH_STORY_MODES", "preload,no preload").split(",")]

# In the page from its first script: every tap on the story, every move of the player to an
# item, every first frame (the dialog's data-started), and resource timings of media requests.
INSTRUMENT = """
window.__story = { taps: [], moves: [], frames: [], snaps: [], media: [] };
// Pooled <video> elements sit outside the document while parked: keep a hand on every one made.
window.__videos = [];
const createElement = Document.prototype.createElement;
Document.prototype.createElement = function (name, ...rest) {
  const element = createElement.call(this, name, ...rest);
  if (String(name).toLowerCase() === 'video') {
    window.__videos.push(element);
    for (const type of ['loadeddata', 'playing', 'waiting', 'seeked']) {
      element.addEventListener(type, () => window.__story.media.push({ type, t: performance.now(), item: element.dataset.storyItem ?? null, rs: element.readyState }));
    }
  }
  return element;
};
performance.setResourceTimingBufferSize(20000);
// Diagnostics: the state of every <video> (the item its story slot holds: preload.js's
// data-story-item), taken as the finger lifts, so a slow tap shows whether its item was warm.
window.__storySnap = () => window.__videos.map((v) => ({
  item: v.dataset.storyItem ?? null, rs: v.readyState, cur: v.currentTime, paused: v.paused,
  buf: Array.from({ length: v.buffered.length }, (_, i) => [v.buffered.start(i), v.buffered.end(i)]),
}));
document.addEventListener('pointerup', (event) => {
  if (event.target.closest && event.target.closest('.stories-stage')) {
    window.__story.taps.push(event.timeStamp);
    window.__story.snaps.push(window.__storySnap());
  }
}, true);
let lastMove = null;
new MutationObserver(() => {
  const dialog = document.querySelector('dialog.stories-player[open]');
  if (!dialog) return;
  const id = dialog.querySelector('.stories-stage')?.dataset.itemId ?? null;
  const key = `${dialog.dataset.user}/${dialog.dataset.item}`;
  const now = performance.now();
  if (key !== lastMove) { lastMove = key; window.__story.moves.push({ t: now, key, id }); }
  const last = window.__story.frames.at(-1);
  if (dialog.dataset.started === 'true' && last?.key !== key) window.__story.frames.push({ t: now, key, id });
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-item', 'data-started', 'data-item-id'] });
"""

# The story's stage, tapped on its right side (forward) like a thumb would.
TAP_POINT = """() => {
  const box = document.querySelector('dialog.stories-player[open] .stories-stage').getBoundingClientRect();
  return { x: box.left + box.width * 0.85, y: box.top + box.height * 0.5 };
}"""

FRAME_AFTER = """(count) => window.__story.frames.length > count"""


def person(index: int) -> str:
    return f"person{index}"


def build_library(work: Path) -> Path:
    """PEOPLE × ITEMS stories: bench_swipe's 8 s 540×960 clips, each person's imported as theirs."""
    data = work / "data"
    kept = Path(LIBRARY) / f"{PEOPLE}x{ITEMS}" if LIBRARY else None
    if kept and kept.is_dir():
        shutil.copytree(kept, data)
        log(f"library: copied from {kept}")
        return data
    started = time.monotonic()
    for index in range(PEOPLE):
        (work / "sources" / person(index)).mkdir(parents=True)
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda i: make_clip(work / "sources" / person(i // ITEMS), i), range(PEOPLE * ITEMS)))
    for index in range(PEOPLE):
        subprocess.run([BIN, "user", "add", person(index), "--role", "member", "--data", str(data)],
                       input=PASSWORD + "\n", text=True, check=True, capture_output=True)
    # Imported last person first, so the tray (newest first) reads person0, person1, …
    for index in reversed(range(PEOPLE)):
        subprocess.run([BIN, "import", str(work / "sources" / person(index)), "--story", "--as", person(index),
                        "--data", str(data), "--json"], check=True, capture_output=True, timeout=1800)
    for viewer in ("viewer-preload", "viewer-no-preload"):
        subprocess.run([BIN, "user", "add", viewer, "--role", "owner", "--data", str(data)],
                       input=PASSWORD + "\n", text=True, check=True, capture_output=True)
    log(f"library: {PEOPLE} people × {ITEMS} story videos (540x960, 8 s, encrypted) imported in {time.monotonic() - started:.0f} s")
    if kept:
        shutil.copytree(data, kept)
    return data


def open_stories(browser, url: str, viewer: str, preload: bool):
    """The first person's stories at 390×844 (touch), throttled, first item on screen."""
    context = browser.new_context(base_url=url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  service_workers="block", bypass_csp=True)
    assert context.request.post("/api/v1/session", data={"username": viewer, "password": PASSWORD}).ok
    context.add_init_script(INSTRUMENT)
    if not preload:
        context.add_init_script(f"localStorage.setItem('{PRELOAD_KEY}', 'off')")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", THROTTLE)
    started = time.monotonic()
    deep_link = f"/stories/{person(0)}"
    if context.request.get(deep_link).headers.get("content-type", "").startswith("text/html"):
        page.goto(deep_link)
    else:   # a server without the /stories/{user} app route: the same player, from Discover's tray
        page.goto("/discover")
        page.locator(f".stories-tray a.story-ring[data-user={person(0)}] >> visible=true").tap(timeout=120_000)
    page.wait_for_function("window.__story.frames.length > 0", timeout=120_000)
    log(f"  first story on screen {time.monotonic() - started:.1f} s after opening")
    return context, page


def tap_run(page, taps: int, dwell: float) -> list[dict]:
    """`taps` taps, `dwell` seconds apart; each waits for the next item's first frame."""
    for _ in range(taps):
        time.sleep(dwell)
        frames = page.evaluate("window.__story.frames.length")
        point = page.evaluate(TAP_POINT)
        page.touchscreen.tap(point["x"], point["y"])
        page.wait_for_function(FRAME_AFTER, arg=frames, timeout=60_000, polling=10)
    story = page.evaluate("window.__story")
    if os.environ.get("BENCH_STORY_DUMP"):
        mode = page.evaluate(f"localStorage.getItem('{PRELOAD_KEY}')") or "on"
        raw = Path(os.environ["BENCH_STORY_DUMP"]).with_suffix(f".{mode}.raw.json")
        raw.write_text(json.dumps({"story": story, "media": page.evaluate(
            "performance.getEntriesByType('resource').filter(e => e.name.includes('/media/'))"
            ".map(e => ({ name: e.name, t: e.startTime, end: e.responseEnd, size: e.encodedBodySize }))")}))
    return measure(story, page.evaluate(
        "performance.getEntriesByType('resource').filter(e => e.name.includes('/media/'))"
        ".map(e => ({ name: e.name, t: e.startTime, end: e.responseEnd }))"))


def measure(story: dict, media: list[dict]) -> list[dict]:
    """Per tap: tap → first frame, tap → move, move → frame, and whether the item was asked for before."""
    rows = []
    for tap in story["taps"]:
        index = next((i for i, m in enumerate(story["moves"]) if m["t"] >= tap), None)
        move = story["moves"][index] if index is not None else None
        frame = next((f for f in story["frames"] if move and f["t"] >= move["t"] and f["key"] == move["key"]), None)
        if not move or not frame:
            continue
        early = any(f"/{move['id']}/" in entry["name"] and entry["t"] < tap for entry in media)
        crossing = index > 0 and story["moves"][index - 1]["key"].split("/")[0] != move["key"].split("/")[0]
        # The look-ahead shares the link with the story on screen: did that one run dry meanwhile?
        left = story["moves"][index + 1]["t"] if index + 1 < len(story["moves"]) else float("inf")
        stalls = sum(1 for e in story["media"] if e["type"] == "waiting" and e["item"] == str(move["id"])
                     and frame["t"] + 50 < e["t"] < left)
        rows.append({"total": frame["t"] - tap, "gesture": move["t"] - tap, "player": frame["t"] - move["t"],
                     "warm": early, "crossing": crossing, "stalls": stalls,
                     "why": diagnose(move, tap, story["snaps"][len(rows)] if len(story["snaps"]) > len(rows) else [],
                                     [e for e in media if f"/{move['id']}/" in e["name"]],
                                     [e for e in story["media"] if e["item"] == str(move["id"]) and e["t"] >= tap])})
    return rows


def diagnose(move: dict, tap: float, snap: list[dict], requests: list[dict], events: list[dict]) -> str:
    """Why a tap was as fast or slow as it was: did a pooled element hold the item at the tap,
    with its first frame decoded (readyState ≥ 2), and had its first media segment arrived?"""
    held = next((v for v in snap if v["item"] == str(move["id"])), None)
    if held is None:
        slot = "no element held it"
    else:
        ahead = sum(end - start for start, end in held["buf"])
        slot = f"an element held it (readyState {held['rs']}, {ahead:.1f} s buffered)"
    segments = sorted((e for e in requests if e["name"].split("?")[0].endswith(".m4s") and "init" not in e["name"]),
                      key=lambda e: e["t"])
    if segments:
        first = segments[0]
        done = "before" if first["end"] and first["end"] < tap else f"{first['end'] - tap:.0f} ms after"
        asked = f"{tap - first['t']:.0f} ms before" if first["t"] < tap else f"{first['t'] - tap:.0f} ms after"
        segment = f"first segment asked {asked} the tap, arrived {done} it"
    else:
        segment = "no segment asked before the frame"
    shown = next((f"{e['type']} +{e['t'] - tap:.0f} ms" for e in events if e["type"] in ("loadeddata", "seeked")), "")
    return f"{slot}; {segment}" + (f"; {shown}" if shown else "")


def summary(name: str, rows: list[dict]) -> str:
    total = [row["total"] for row in rows]
    gesture = [row["gesture"] for row in rows]
    within = [row["player"] for row in rows if not row["crossing"]] or [0.0]
    across = [row["player"] for row in rows if row["crossing"]] or [0.0]
    return (f"  {name:11s} p50 {percentile(total, .5):7.1f} ms   p95 {percentile(total, .95):7.1f} ms   "
            f"mean {statistics.mean(total):7.1f}   max {max(total):7.1f}\n"
            f"  {'':11s} tap → move (the gesture's wait) p50 {percentile(gesture, .5):5.1f} max {max(gesture):5.1f}; move → frame within a person "
            f"p50 {percentile(within, .5):6.1f} p95 {percentile(within, .95):6.1f}, to the next person ({sum(row['crossing'] for row in rows)}) "
            f"p50 {percentile(across, .5):6.1f} max {max(across):6.1f}; next item requested before the tap: "
            f"{sum(r['warm'] for r in rows)}/{len(rows)}; `waiting` on the story on screen after its first frame: "
            f"{sum(r['stalls'] for r in rows)}\n"
            f"  {'':11s} slowest taps (1 = the first after opening): "
            + ", ".join(f"#{i + 1} {t:.0f} ms" for i, t in sorted(enumerate(total), key=lambda pair: -pair[1])[:4])
            + "".join(f"\n  {'':11s}   #{i + 1} {rows[i]['total']:.0f} ms (tap → move {rows[i]['gesture']:.0f}, "
                      f"move → frame {rows[i]['player']:.0f}): {rows[i]['why']}"
                      for i, _ in sorted(enumerate(total), key=lambda pair: -pair[1])[:4]))


def main() -> None:
    if PEOPLE * ITEMS <= TAPS:
        raise SystemExit(f"{TAPS} taps need more than {PEOPLE} × {ITEMS} stories")
    with tempfile.TemporaryDirectory(prefix="bench-stories-") as folder:
        work = Path(folder)
        data = build_library(work)
        server, url = serve(data, work)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                     args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required"])
                results = {}
                for name, viewer, preload in [("preload", "viewer-preload", True), ("no preload", "viewer-no-preload", False)]:
                    if name not in MODES:
                        continue
                    log(f"{name}: {TAPS} taps, {DWELL_S} s on each story, 1.6 Mbit/s, 150 ms RTT")
                    context, page = open_stories(browser, url, viewer, preload)
                    results[name] = tap_run(page, TAPS, DWELL_S)
                    context.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)

    print(f"story tap → next item's first frame, {TAPS} taps across {PEOPLE} people, throttled 1.6 Mbit/s down / "
          f"150 ms RTT (real Chromium, 390×844 touch):")
    for name, rows in results.items():
        print(summary(name, rows))
    if os.environ.get("BENCH_STORY_DUMP"):   # every tap with its diagnosis, as JSON
        Path(os.environ["BENCH_STORY_DUMP"]).write_text(json.dumps(results, indent=1))
    if len(results) < 2:
        return
    with_p95 = percentile([row["total"] for row in results["preload"]], .95)
    without_p95 = percentile([row["total"] for row in results["no preload"]], .95)
    with_player = percentile([row["player"] for row in results["preload"]], .95)
    without_player = percentile([row["player"] for row in results["no preload"]], .95)
    print(f"  ratio without ÷ with: p95 {without_p95 / max(with_p95, 0.1):.1f}×   "
          f"(move → frame p95 {without_player / max(with_player, 0.1):.1f}×)   goal: p95 < 100 ms with preload")
    warm_without = sum(row["warm"] for row in results["no preload"])
    if warm_without > len(results["no preload"]) // 2:
        print(f"  note: without preload {warm_without} next items were requested before their tap: the player "
              f"does not read localStorage['{PRELOAD_KEY}'] = 'off' (both runs looked ahead)")


if __name__ == "__main__":
    main()
