#!/usr/bin/env python3
"""Swipe benchmark for the web client: real Chromium (Playwright), a real `reelhouse serve` on a
generated library, and CDP network throttling (1.6 Mbit/s down, 150 ms RTT).

1. 30 swipes with prefetch (the default page): swipe → `playing` latency p50/p95.
2. The same 30 swipes on `/?prefetch=0`: engine prefetch off and no neighbour players warmed,
   so every swipe starts its video from the network.
3. A scripted 2-minute session with prefetch: how many `waiting` events (stalls) fire on the
   video on screen after it started playing. Every one counts, including the ~5 ms `waiting`
   Chromium fires when `loop` seeks back to 0 (measured: seeking, readyState 1, no frame
   dropped); a 6 s dwell on 8 s clips stays short of a loop.

4. Share of played time below the covering rung, on a fast (unthrottled) link and in the
   throttled session: every 100 ms the on-screen video's rung (`reelhouse.playback()`: the rung
   of the picture shown) against the smallest rung whose short edge covers the element's
   device pixels (short edge × devicePixelRatio, within 5 %, as abr.js chooseVariant), counted
   while the playhead moves.
5. Cold start, a first visit (fresh profile: nothing cached, no service worker) at 390×844 on
   the throttled link: from the `/api/v1/feed` answer's responseEnd (Resource Timing) to the
   first video's first frame (requestVideoFrameCallback), median of 3, beside today's path in
   the same run: a library imported with REELHOUSE_QUICK_START=0 (2 s segments from the
   start), `?quickstart=0` (no early fetch of the first item, init before the first segment),
   and index.html without its modulepreload links.

`BENCH_SWIPE_LIBRARY=DIR` keeps the imported libraries between runs; `BENCH_COLD_LEVERS=1` also
measures the cold start with each lever off on its own.

Prints figures and the ratio; asserts nothing. Goals from the issue: p95 < 100 ms with
prefetch and ≥ 5× better than without; 0 stalls in the 2-minute session; 0 % of fast-link play
below the covering rung; cold start ≤ 0.4 s."""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests"))
from pykit.ports import free_port  # noqa: E402
BIN = os.environ.get("REELHOUSE_BIN", str(ROOT / ".build/release/reelhouse"))
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CLIPS = int(os.environ.get("BENCH_SWIPE_CLIPS", "34"))
SWIPES = int(os.environ.get("BENCH_SWIPES", "30"))
DWELL_S = float(os.environ.get("BENCH_SWIPE_DWELL", "2.5"))
SESSION_S = float(os.environ.get("BENCH_SESSION_SECONDS", "120"))
SESSION_DWELL_S = 6.0
FAST_SWIPES = int(os.environ.get("BENCH_FAST_SWIPES", "15"))
COLD_VISITS = int(os.environ.get("BENCH_COLD_VISITS", "3"))
COLD_CLIPS = 4
THROTTLE = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}
USER, PASSWORD = "bench", "bench password for swipes"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
SOURCES = ["testsrc2", "smptebars", "rgbtestsrc", "cellauto", "testsrc", "pal75bars", "yuvtestsrc", "mandelbrot"]

# Records every playing / waiting event of any <video> with the item it belongs to.
INSTRUMENT = """
window.__media = [];
for (const type of ['playing', 'waiting']) {
  document.addEventListener(type, (event) => {
    const item = event.target.closest && event.target.closest('[data-item-id]');
    window.__media.push({ type, t: performance.now(), id: item ? item.dataset.itemId : null });
  }, true);
}

// Played time by rung on the video on screen: every 100 ms, while its playhead moves, the rung
// of the picture shown (reelhouse.playback()) against the covering rung for its element.
window.__rungs = { played: 0, below: 0, swipedPlayed: 0, swipedBelow: 0 };
let lastSample = null;
setInterval(() => {
  const item = document.querySelector('[data-item-id][aria-current="true"]');
  const video = item && item.querySelector('video');
  const now = performance.now();
  if (!video || video.paused || !globalThis.reelhouse) { lastSample = null; return; }
  const sample = { video, time: video.currentTime, now, first: item === document.querySelector('[data-item-id]') };
  const before = lastSample;
  lastSample = sample;
  if (!before || before.video !== video || !(sample.time > before.time)) return;
  const seat = reelhouse.playback().find((s) => String(s.element) === video.dataset.element);
  if (!seat || !seat.rung) return;
  const edge = (size) => Math.min(size.width, size.height);
  const wanted = Math.ceil(Math.min(video.clientWidth, video.clientHeight) * (devicePixelRatio || 1));
  const covering = seat.rung.ladder.map(edge).filter((short) => short * 1.05 >= wanted);
  const cap = covering.length ? Math.min(...covering) : Math.max(...seat.rung.ladder.map(edge));
  const seconds = (now - before.now) / 1000;
  const below = edge(seat.rung) < cap;
  window.__rungs.played += seconds;
  if (below) window.__rungs.below += seconds;
  if (!sample.first) {
    window.__rungs.swipedPlayed += seconds;
    if (below) window.__rungs.swipedBelow += seconds;
  }
}, 100);

// The first picture of the first video on screen (requestVideoFrameCallback), and when its
// playhead first moved.
window.__firstFrame = null;
window.__firstMoved = null;
const watchFirst = () => {
  const video = document.querySelector('[data-item-id][aria-current="true"] video');
  if (video && !video.__benchWatched && 'requestVideoFrameCallback' in video) {
    video.__benchWatched = true;
    video.requestVideoFrameCallback((now) => { if (window.__firstFrame === null) window.__firstFrame = now; });
  }
  if (window.__firstFrame === null) requestAnimationFrame(watchFirst);
};
requestAnimationFrame(watchFirst);
document.addEventListener('timeupdate', (event) => {
  if (window.__firstMoved === null && event.target.currentTime > 0 && event.target.closest && event.target.closest('[aria-current="true"]')) {
    window.__firstMoved = performance.now();
  }
}, true);
"""


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def make_clip(folder: Path, index: int, source: str | None = None) -> None:
    path = folder / f"swipe{index:02d}.mp4"
    label = f"drawtext=fontfile={FONT}:text='swipe {index}':fontsize=40:fontcolor=white:box=1:boxcolor=black@0.5:x=(w-tw)/2:y=h*0.3"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
                    "-f", "lavfi", "-i", f"{source or SOURCES[index % len(SOURCES)]}=size=540x960:rate=30",
                    "-f", "lavfi", "-i", f"sine=frequency={220 + index * 20}:sample_rate=48000:duration=8",
                    "-t", "8", "-vf", label, "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                    "-c:a", "aac", "-shortest", str(path)], check=True)
    path.with_suffix(".info.json").write_text(json.dumps({
        "id": f"swipe{index}", "title": f"Swipe {index}", "uploader": "Bench", "description": f"Benchmark clip {index}",
        "extractor": "generic"}))


def import_library(sources: Path, data: Path, env: dict | None = None) -> None:
    subprocess.run([BIN, "import", str(sources), "--data", str(data), "--json"], check=True, capture_output=True, timeout=1800,
                   env={**os.environ, **(env or {})})
    subprocess.run([BIN, "user", "add", USER, "--role", "owner", "--data", str(data)],
                   input=PASSWORD + "\n", text=True, check=True, capture_output=True)


def build_library(work: Path) -> Path:
    sources, data = work / "sources", work / "data"
    sources.mkdir(parents=True)
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda i: make_clip(sources, i), range(CLIPS)))
    import_library(sources, data)
    log(f"library: {CLIPS} clips (540x960, 8 s, encrypted) generated and imported in {time.monotonic() - started:.0f} s")
    return data


def build_cold_libraries(work: Path) -> tuple[Path, Path]:
    """The same few clips (one busy picture, so every first item weighs alike) imported twice:
    as today (2 s segments from the start) and with the short opening segments."""
    sources = work / "cold-sources"
    sources.mkdir(parents=True)
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda i: make_clip(sources, i, "testsrc2"), range(COLD_CLIPS)))
    today, new = work / "cold-today", work / "cold-new"
    import_library(sources, today, {"REELHOUSE_QUICK_START": "0"})
    import_library(sources, new, {"REELHOUSE_QUICK_START": "1"})
    return today, new


def serve(data: Path, work: Path, web_root: Path | None = None) -> tuple[subprocess.Popen, str]:
    port = free_port()
    root = str(web_root) if web_root else os.environ.get("REELHOUSE_WEB_ROOT") or str(ROOT / "Web")
    env = {**os.environ, "REELHOUSE_WEB_ROOT": root}
    process = subprocess.Popen([BIN, "serve", "--data", str(data), "--port", str(port), "--no-worker"],
                               stdout=open(work / f"serve-{data.name}.log", "w"), stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(f"{url}/health", timeout=1)
            return process, url
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("reelhouse serve did not start")


def open_throttled(browser, url: str, path: str, throttle: bool = True):
    context = browser.new_context(base_url=url, viewport={"width": 390, "height": 844}, service_workers="block", bypass_csp=True)
    assert context.request.post("/api/v1/session", data={"username": USER, "password": PASSWORD}).ok
    context.add_init_script(INSTRUMENT)
    page = context.new_page()
    if throttle:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", THROTTLE)
    page.goto(path)
    page.wait_for_selector('[data-item-id][aria-current="true"]', timeout=60_000)
    first_play_started = time.monotonic()
    page.wait_for_function("window.__media.some(e => e.type === 'playing')", timeout=120_000)
    log(f"  {path}: first video playing {time.monotonic() - first_play_started:.1f} s after the feed appeared")
    return context, page


SWIPE = """() => {
  window.__swipeAt = performance.now();
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
  return document.querySelector('[aria-current="true"]').dataset.itemId;
}"""

PLAYING_AFTER_SWIPE = """(id) => {
  const hit = window.__media.find(e => e.type === 'playing' && e.id === id && e.t >= window.__swipeAt);
  return hit ? hit.t - window.__swipeAt : null;
}"""


def swipe_latencies(page, swipes: int, dwell: float) -> list[float]:
    latencies = []
    for _ in range(swipes):
        time.sleep(dwell)
        item = page.evaluate(SWIPE)
        handle = page.wait_for_function(f"({PLAYING_AFTER_SWIPE})('{item}')", timeout=60_000, polling=10)
        latencies.append(handle.json_value())
    return latencies


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def count_stalls(events: list[dict]) -> int:
    """A stall is a `waiting` on an item after it has started playing."""
    playing_since: dict[str, float] = {}
    stalls = 0
    for event in events:
        if event["type"] == "playing":
            playing_since.setdefault(event["id"], event["t"])
        elif event["id"] in playing_since:
            stalls += 1
    return stalls


def run_session(browser, url: str, throttle: bool = True, seconds: float = SESSION_S, dwell: float = SESSION_DWELL_S) -> dict:
    context, page = open_throttled(browser, url, "/", throttle=throttle)
    started = time.monotonic()
    swipes = 0
    while time.monotonic() - started < seconds:
        time.sleep(min(dwell, max(0.0, seconds - (time.monotonic() - started))))
        if time.monotonic() - started >= seconds:
            break
        item = page.evaluate(SWIPE)
        page.wait_for_function(f"({PLAYING_AFTER_SWIPE})('{item}')", timeout=60_000, polling=20)
        swipes += 1
    events = page.evaluate("window.__media")
    engine = page.evaluate("reelhouse.stats()")
    rungs = page.evaluate("window.__rungs")
    context.close()
    return {"swipes": swipes, "waiting_total": sum(e["type"] == "waiting" for e in events), "stalls": count_stalls(events),
            "engine": engine, "rungs": rungs}


PRELOAD = re.compile(r'\s*<!-- The player engine.*?-->|\s*<link rel="modulepreload"[^>]*>', re.S)
COLD_READING = """() => {
  const feed = performance.getEntriesByType('resource').find((e) => new URL(e.name).pathname === '/api/v1/feed');
  const engine = performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.startsWith('/js/player/'));
  if (!feed || window.__firstFrame === null) return null;
  return { feed: feed.responseEnd, frame: window.__firstFrame, moved: window.__firstMoved,
           engine: engine.length ? Math.max(...engine.map((e) => e.responseEnd)) : null };
}"""


def web_without_preload(work: Path) -> Path:
    """A copy of the web client whose index.html has no modulepreload links (as before them)."""
    copy = work / "web-today"
    shutil.copytree(ROOT / "Web", copy)
    index = copy / "index.html"
    index.write_text(PRELOAD.sub("", index.read_text()))
    return copy


def cold_visit(browser, url: str, query: str) -> dict:
    """One first visit: a new context (nothing cached, no service worker), throttled from the start."""
    context = browser.new_context(base_url=url, viewport={"width": 390, "height": 844}, service_workers="block", bypass_csp=True)
    assert context.request.post("/api/v1/session", data={"username": USER, "password": PASSWORD}).ok
    context.add_init_script(INSTRUMENT)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", THROTTLE)
    page.goto("/" + query)
    reading = page.wait_for_function(COLD_READING, timeout=60_000, polling=20).json_value()
    context.close()
    return {"ms": reading["frame"] - reading["feed"],
            "moved_ms": None if reading["moved"] is None else reading["moved"] - reading["feed"],
            "engine_ms": None if reading["engine"] is None else reading["engine"] - reading["feed"]}


def cold_start(browser, paths: dict) -> dict:
    """COLD_VISITS first visits per path, the paths taking turns (a drift hits both alike)."""
    results: dict = {name: [] for name in paths}
    for _ in range(COLD_VISITS):
        for name, (url, query) in paths.items():
            results[name].append(cold_visit(browser, url, query))
    return results


def libraries(work: Path) -> tuple[Path, Path, Path]:
    """The swipe library and the two cold-start ones; `BENCH_SWIPE_LIBRARY=DIR` keeps them
    between runs (built there once; each run serves copies, as a server writes its data folder)."""
    kept = os.environ.get("BENCH_SWIPE_LIBRARY")
    if not kept:
        return (build_library(work), *build_cold_libraries(work))
    folder = Path(kept)
    if not (folder / "cold-new").exists():
        folder.mkdir(parents=True, exist_ok=True)
        build_library(folder)
        build_cold_libraries(folder)
    else:
        log(f"library: kept in {folder}")
    copies = []
    for name in ("data", "cold-today", "cold-new"):
        shutil.copytree(folder / name, work / name)
        copies.append(work / name)
    return tuple(copies)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-swipe-") as folder:
        work = Path(folder)
        data, cold_today, cold_new = libraries(work)
        servers = []
        try:
            server, url = serve(data, work)
            servers.append(server)
            # Today's path: its media (2 s segments from the start) and its index.html.
            web_today = web_without_preload(work)
            (today_server, today_url), (new_server, new_url) = serve(cold_today, work, web_today), serve(cold_new, work)
            servers += [today_server, new_server]
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                     args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required"])
                log(f"cold start: {COLD_VISITS} first visits per path, fresh profiles, 390x844, 1.6 Mbit/s, 150 ms RTT")
                paths = {"today": (today_url, "?quickstart=0"), "new": (new_url, "")}
                if os.environ.get("BENCH_COLD_LEVERS"):
                    # One lever off at a time (the others on), to see what each brings: each
                    # server on a copy of a library (one process per data folder).
                    copies = {name: work / f"cold-{name}" for name in ("no-preload", "old-media")}
                    shutil.copytree(cold_new, copies["no-preload"])
                    shutil.copytree(cold_today, copies["old-media"])
                    (s1, no_preload_url), (s2, old_media_url) = serve(copies["no-preload"], work, web_today), serve(copies["old-media"], work)
                    servers += [s1, s2]
                    paths |= {"lever off: early fetch": (new_url, "?quickstart=no-early"),
                              "lever off: init ∥ segment": (new_url, "?quickstart=no-parallel"),
                              "lever off: poster hold": (new_url, "?quickstart=no-posters"),
                              "lever off: modulepreload": (no_preload_url, ""),
                              "lever off: short segments": (old_media_url, "")}
                cold = cold_start(browser, paths)
                results = {}
                for name, path in [("prefetch", "/"), ("no prefetch", "/?prefetch=0")]:
                    log(f"{name}: {SWIPES} swipes, {DWELL_S} s on each item, 1.6 Mbit/s, 150 ms RTT")
                    context, page = open_throttled(browser, url, path)
                    results[name] = swipe_latencies(page, SWIPES, DWELL_S)
                    context.close()
                log(f"fast link (unthrottled): {FAST_SWIPES} swipes, {DWELL_S} s on each item")
                fast = run_session(browser, url, throttle=False, seconds=FAST_SWIPES * DWELL_S, dwell=DWELL_S)
                log(f"2-minute session with prefetch: a swipe every {SESSION_DWELL_S:.0f} s")
                session = run_session(browser, url)
                browser.close()
        finally:
            for server in servers:
                server.terminate()
                server.wait(timeout=10)

    print(f"swipe → playing latency, {SWIPES} swipes, throttled 1.6 Mbit/s down / 150 ms RTT (real Chromium):")
    for name, values in results.items():
        print(f"  {name:12s} p50 {percentile(values, .5):8.1f} ms   p95 {percentile(values, .95):8.1f} ms   "
              f"mean {statistics.mean(values):8.1f} ms   max {max(values):8.1f} ms")
    with_p95, without_p95 = percentile(results["prefetch"], .95), percentile(results["no prefetch"], .95)
    with_p50, without_p50 = percentile(results["prefetch"], .5), percentile(results["no prefetch"], .5)
    print(f"  ratio without ÷ with: p50 {without_p50 / max(with_p50, 0.1):.1f}×   p95 {without_p95 / max(with_p95, 0.1):.1f}×   "
          f"(goal: p95 < 100 ms with prefetch, ≥ 5× better)")
    print(f"2-minute session with prefetch: {session['swipes']} swipes, {session['stalls']} stalls "
          f"(waiting after playback started; {session['waiting_total']} waiting events in all; goal 0)")
    engine = session["engine"]
    print(f"  engine: {engine['failedLoads']} failed loads, {engine['prefetchHits']} prefetch hits / "
          f"{engine['prefetchMisses']} misses, {engine['turnsHeld']} downloads waited for the video on screen")

    print("share of played time below the covering rung (smallest rung whose short edge ≥ the element's × devicePixelRatio, "
          "5 % tolerance), video on screen:")
    for name, run in [("fast link (unthrottled)", fast), ("1.6 Mbit/s / 150 ms (2-minute session)", session)]:
        rungs = run["rungs"]
        share = 100 * rungs["below"] / max(rungs["played"], 1e-9)
        swiped = 100 * rungs["swipedBelow"] / max(rungs["swipedPlayed"], 1e-9)
        first_below = rungs["below"] - rungs["swipedBelow"]
        print(f"  {name:40s} {share:5.1f} % of {rungs['played']:5.1f} s played   swiped videos {swiped:5.1f} %   "
              f"first video {first_below:4.1f} s below   {run['swipes']} swipes, {run['stalls']} stalls")
    print("  (goal: 0 % on the fast link, 0 stalls throttled; a first visit's first video starts at the rung its "
          "early fetch's network timings afford within 0.15 s, abr.js sharpStart)")

    print(f"cold start, first visit (fresh profile, 390x844, 1.6 Mbit/s / 150 ms): /api/v1/feed answered → first video's "
          f"first frame, median of {COLD_VISITS}:")
    medians = {}
    for name, visits in cold.items():
        medians[name] = statistics.median(v["ms"] for v in visits)
        runs = " ".join(f"{v['ms']:.0f}" for v in visits)
        moved = [v["moved_ms"] for v in visits if v["moved_ms"] is not None]
        engine_at = [v["engine_ms"] for v in visits if v["engine_ms"] is not None]
        print(f"  {name:26s} {medians[name]:7.0f} ms   runs {runs}   "
              f"playhead moving {statistics.median(moved) if moved else float('nan'):5.0f} ms   "
              f"engine modules in {statistics.median(engine_at) if engine_at else float('nan'):+5.0f} ms")
    print("  today: 2 s first segments, ?quickstart=0, no modulepreload; new: as shipped. "
          f"ratio today ÷ new {medians['today'] / max(medians['new'], 0.1):.1f}×   (goal: new ≤ 400 ms)")


if __name__ == "__main__":
    main()
