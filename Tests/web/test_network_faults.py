"""Playback through a misbehaving network: the page talks to the real server through
fault_proxy.py, which answers chosen media requests with a 503, drops or cuts them, or never
answers. Transient failures are retried (honouring Retry-After) and a stalled download is given
up on and asked again, so the video plays on; an expired URL (403) is not retried but surfaces
as its own error. Recovery times are printed (`-s` shows them), never asserted."""
import pytest

from conftest import new_context, open_feed
from fault_proxy import FaultProxy
from helpers import CURRENT, wait_playing
from test_engine_playback import ENGINE_HARNESS


@pytest.fixture
def proxy(library):
    proxy = FaultProxy(int(library["url"].rsplit(":", 1)[1])).start()
    yield proxy
    proxy.stop()


@pytest.fixture
def proxied(browser, proxy):
    context = new_context(browser, proxy.url)
    yield context
    context.close()


# Installed by harness(), for the scripts that play an item (here and in test_stall_holes.py):
# `attach(id)` puts a fresh player on a new muted <video> for the item with that id, and
# `playUntil(video, until)` waits until it has played to `until` s, failed, or 20 s passed.
PLAYBACK_HELPERS = """() => {
  window.__playback = {
    attach(id) {
      const { engine, videos } = window.__engine;
      const video = document.createElement('video');
      video.muted = true; video.playsInline = true;
      document.body.append(video);
      return { item: videos.find((v) => v.id === id), video, player: engine.attach(video) };
    },
    async playUntil(video, until) {
      const deadline = Date.now() + 20000;
      while (video.currentTime < until && !video.error && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    },
  };
}"""


def harness(context, min_duration: float = 0) -> tuple:
    """A page with the engine loaded and one video item (encrypted, at least `min_duration` s)."""
    page = context.new_page()
    page.goto("/manifest.webmanifest")
    assert page.evaluate(ENGINE_HARNESS) >= 2
    page.evaluate(PLAYBACK_HELPERS)
    item = page.evaluate("""(min) => window.__engine.videos.find((v) => v.media.encrypted && v.duration >= min)""", min_duration)
    assert item, f"no encrypted video of {min_duration} s or more in the library"
    return page, item


def media(item_id: int, rest: str) -> str:
    """A path pattern for one of the item's media files (the token comes first in the path)."""
    return rf"^/media/[^/]+/{item_id}/{rest}$"


# Loads `id`'s item into a fresh player, plays it until `until` seconds (or 20 s pass).
PLAY = """async ({ id, until }) => {
  const { engine } = window.__engine;
  const { item, video, player } = window.__playback.attach(id);
  const started = performance.now();
  const outcome = await player.load(item).then(() => 'loaded', (error) =>
    ({ code: error.code, status: error.status ?? null, name: error.name, message: error.message }));
  if (outcome !== 'loaded') return { outcome, stats: engine.stats() };
  const loadMs = Math.round(performance.now() - started);
  await video.play();
  await window.__playback.playUntil(video, until);
  return { outcome, loadMs, reached: video.currentTime, error: video.error?.message ?? null,
           stats: engine.stats(), recoveries: player.stallRecoveries };
}"""


def test_a_503_a_dropped_connection_and_a_cut_body_are_retried_and_the_video_plays(proxied, proxy):
    page, item = harness(proxied)
    faults = {
        media(item["id"], r"master\.m3u8"): "503",      # with Retry-After: 1
        media(item["id"], r"[^/]+/index\.m3u8"): "drop",
        media(item["id"], "key"): "drop",
        media(item["id"], r"[^/]+/seg_00000\.m4s"): "cut",
    }
    for pattern, action in faults.items():
        proxy.fail(pattern, action)
    result = page.evaluate(PLAY, {"id": item["id"], "until": 1.0})
    assert result["outcome"] == "loaded", result
    assert result["reached"] >= 1.0 and result["error"] is None, result
    # Every fault was retried. (Under a loaded CI machine one more retry has been counted once: a
    # request of the pool's next player timing out; the per-URL checks below are the exact ones.)
    assert result["stats"]["retries"] >= len(faults) and result["stats"]["failedLoads"] == 0, result
    for pattern, action in faults.items():
        tries = proxy.requests(pattern)
        # The browser may finish a cut body with a Range request for the rest (206) from its cache.
        assert tries[0].action == action and len(tries) >= 2, (pattern, tries)
        assert all(entry.action == "forward" and entry.status in (200, 206) for entry in tries[1:]), (pattern, tries)
        print(f"retry after {action} of {tries[0].path.split('/', 4)[-1]}: asked again "
              f"{(tries[1].started - tries[0].started) * 1000:.0f} ms later")
    master = proxy.requests(media(item["id"], r"master\.m3u8"))
    # Retry-After: 1 was honoured (the backoff alone would have waited 200–400 ms). Measured from
    # when the proxy began the 503: the page's second starts when its fetch saw the answer,
    # which can be a few ms before the proxy marks the 503 finished (after its flush).
    assert master[1].started - master[0].started >= 1.0, master
    print(f"four faults during the load: first frame after {result['loadMs']} ms")
    page.close()


def test_a_segment_download_that_never_answers_is_given_up_on_and_playback_goes_on(proxied, proxy):
    page, item = harness(proxied, min_duration=5.5)
    stalled = media(item["id"], r"[^/]+/seg_00001\.m4s")
    proxy.fail(stalled, "stall")
    result = page.evaluate(PLAY, {"id": item["id"], "until": 3.0})
    assert result["outcome"] == "loaded", result
    assert result["reached"] >= 3.0 and result["error"] is None, result   # past the stalled segment
    assert result["stats"]["stalls"] >= 1 and result["stats"]["stallsRecovered"] >= 1, result
    tries = proxy.requests(stalled)
    assert [entry.action for entry in tries][:2] == ["stall", "forward"], tries
    print(f"stalled segment: playback moved again after {result['recoveries']} ms "
          f"(asked again {(tries[1].started - tries[0].started) * 1000:.0f} ms after the stalled request)")
    page.close()


def test_an_expired_url_is_not_retried_and_surfaces_as_its_own_error(proxied, proxy):
    page, item = harness(proxied)
    segment = media(item["id"], r"[^/]+/seg_00000\.m4s")
    proxy.fail(segment, "403", retry_after=None)
    result = page.evaluate(PLAY, {"id": item["id"], "until": 0})
    assert result["outcome"] == {"code": "expired", "status": 403, "name": "MediaExpiredError",
                                 "message": result["outcome"]["message"]}, result
    assert len(proxy.requests(segment)) == 1 and result["stats"]["retries"] == 0, result
    page.close()


def test_a_server_that_keeps_failing_fails_the_item_after_four_tries(proxied, proxy):
    page, item = harness(proxied)
    master = media(item["id"], r"master\.m3u8")
    proxy.fail(master, "503", hits=range(1, 100), retry_after="0")
    result = page.evaluate(PLAY, {"id": item["id"], "until": 0})
    assert result["outcome"]["code"] == "network" and result["outcome"]["status"] == 503, result
    assert len(proxy.requests(master)) == 4 and result["stats"]["retries"] == 3, result
    page.close()


def test_in_the_feed_a_stalled_segment_of_the_video_on_screen_is_recovered(proxied, proxy):
    # The first second segment anyone asks for is the on-screen video's: neighbours and prefetch
    # wait until it has two segments (test_loading_priority.py).
    proxy.fail(r"/seg_00001\.m4s$", "stall")
    page = open_feed(proxied, "/?tag=web")
    wait_playing(page)
    current = page.get_attribute(CURRENT, "data-item-id")
    stalled = proxy.requests(r"/seg_00001\.m4s$")[0]
    assert stalled.action == "stall" and stalled.path.split("/")[3] == current, (stalled, current)
    # It plays past the stalled segment (2–4 s) without showing an error.
    page.wait_for_function("() => document.querySelector('[aria-current=\"true\"] video').currentTime > 2.5", timeout=20_000)
    assert page.locator(f"{CURRENT} .item-error").is_hidden()
    stats = page.evaluate("reelhouse.stats()")
    assert stats["stalls"] >= 1 and stats["stallsRecovered"] >= 1 and stats["failedLoads"] == 0, stats
    page.close()
