"""The first video after opening the feed starts at a low rung (nothing is known about the network
yet) but must climb, at a segment boundary and without a stall, to the rung its element size
calls for as soon as throughput allows; on 127.0.0.1 that is within its first three segments.
It once stayed at 240p for its whole length: its low-rung segments (a generator picture
compresses to a few kB) were each too small to count as a throughput sample, so the estimate
stayed unknown and an unknown network never climbs; and a short clip, once buffered, loops over
the segments it has, so whatever came at 240p stayed 240p.

This module builds its own small library: 12 s clips at 540×960, whose ladder is 240p, 360p and
540p, shown on a phone screen at devicePixelRatio 2 (a 390 px wide element is 780 device px, so
540p is the rung it calls for)."""
import pytest

from conftest import PASSWORD, PHONE, USER, Server, make_clip, reelhouse, signed_in_state


@pytest.fixture(scope="module")
def tall_library(tmp_path_factory):
    root = tmp_path_factory.mktemp("rung-library")
    sources, data = root / "sources", root / "data"
    for index, source in enumerate(["testsrc2", "smptebars", "rgbtestsrc"]):
        make_clip(sources / f"tall{index}.mp4", size="540x960", seconds=12, audio=True, source=source, label=f"tall {index}")
    reelhouse(data, "import", str(sources), "--preset", "ultrafast", "--json")
    reelhouse(data, "user", "add", USER, "--role", "owner", stdin=PASSWORD + "\n")
    server = Server(data, root / "serve.log")
    yield server.url
    server.stop()


# The on-screen item's segment requests in the order they were made, as (index, rung folder),
# with the element's short edge in device pixels.
SEGMENTS = """() => {
  const current = document.querySelector('[aria-current="true"]');
  const video = current.querySelector('video');
  const segments = performance.getEntriesByType('resource')
    .map((e) => ({ path: new URL(e.name).pathname, start: e.startTime }))
    .filter((e) => e.path.endsWith('.m4s') && e.path.split('/')[3] === current.dataset.itemId)
    .sort((a, b) => a.start - b.start)
    .map((e) => { const parts = e.path.split('/'); return [Number(parts[5].match(/\\d+/)[0]), parts[4]]; });
  return { segments, edge: Math.min(video.clientWidth, video.clientHeight) * devicePixelRatio,
           time: video.currentTime, id: current.dataset.itemId };
}"""


def test_the_first_video_climbs_to_the_rung_its_size_calls_for_within_three_segments(browser, tall_library):
    context = browser.new_context(base_url=tall_library, viewport=PHONE, device_scale_factor=2, service_workers="block",
                                  storage_state=signed_in_state(browser, tall_library), bypass_csp=True)
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector('[data-item-id][aria-current="true"] video.ready', timeout=20_000)
    # Until the playhead has gone through four segments' worth of downloads.
    page.wait_for_function(f"() => ({SEGMENTS})().segments.length >= 4", timeout=20_000)
    report = page.evaluate(SEGMENTS)
    # Once the playhead has passed it, the low first segment is fetched again at 540p, so the
    # loop does not come back to 240p.
    page.wait_for_function(f"() => ({SEGMENTS})().segments.some(([index, rung]) => index === 0 && rung === '540p')",
                           timeout=20_000)
    upgraded = page.evaluate(SEGMENTS)
    stats = page.evaluate("reelhouse.stats()")
    # What the swipe bench samples: the rung of the picture on screen, and the ladder.
    shown = page.evaluate("() => reelhouse.playback().find((seat) => seat.playing && seat.itemId !== null)")
    context.close()
    assert report["edge"] >= 540 / 1.05, report   # the precondition: 540p is what this element calls for
    first_three = report["segments"][:3]
    print(f"first video's segments (index, rung): {report['segments']}; throughput {stats['throughputBps']}")
    assert [index for index, _ in first_three] == [0, 1, 2], report
    assert first_three[0][1] == "240p", report    # the start may be low …
    assert first_three[-1][1] == "540p", report   # … but the third segment is at the called-for rung
    assert all(rung == "540p" for _, rung in report["segments"][3:]), report   # and it stays there
    assert upgraded["id"] == report["id"] and upgraded["segments"][-1] == [0, "540p"], upgraded
    assert stats["stalls"] == 0, stats
    ladder = [{"width": 240, "height": 426}, {"width": 360, "height": 640}, {"width": 540, "height": 960}]
    assert shown and shown["rung"]["ladder"] == ladder, shown
    assert {"width": shown["rung"]["width"], "height": shown["rung"]["height"]} in ladder, shown
