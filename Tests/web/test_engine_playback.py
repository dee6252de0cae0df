"""The player engine on its own, in Chromium, against the real server and library: it plays,
loops without downloading again, and a prefetched item starts from memory without fetching
what prefetch already has."""
import pytest

ENGINE_HARNESS = """
async () => {
  const feed = await (await fetch('/api/v1/feed?limit=50&tags=web')).json();
  const videos = feed.items.filter((item) => item.kind === 'video');
  const { createEngine } = await import('/js/player/index.js');
  const engine = createEngine({ prefetch: true });
  const segmentRequests = () => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.m4s')).map((e) => e.name);
  window.__engine = { engine, videos, segmentRequests };
  return videos.length;
}
"""


@pytest.mark.parametrize("encrypted", [True, False], ids=["encrypted", "clear"])
def test_plays_encrypted_and_clear_items(context, encrypted):
    page = context.new_page()
    page.goto("/manifest.webmanifest")
    page.evaluate(ENGINE_HARNESS)
    result = page.evaluate("""async (encrypted) => {
      const feed = await (await fetch('/api/v1/feed?limit=50&tags=mixed')).json();
      const item = feed.items.find((i) => i.kind === 'video' && i.media.encrypted === encrypted);
      const video = document.createElement('video');
      video.muted = true; video.playsInline = true;
      document.body.append(video);
      const player = window.__engine.engine.attach(video);
      await player.load(item);
      const readyState = video.readyState;
      await video.play();
      const deadline = Date.now() + 10000;
      while (video.currentTime < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const played = { id: item.id, encrypted: item.media.encrypted, readyState, currentTime: video.currentTime,
                       frames: video.getVideoPlaybackQuality().totalVideoFrames, itemId: player.itemId };
      const src = video.getAttribute('src');
      player.unload();
      const afterUnload = { itemId: player.itemId, keptSource: video.getAttribute('src') === src };
      player.destroy();
      return { ...played, afterUnload, afterDestroy: { src: video.getAttribute('src') } };
    }""", encrypted)
    assert result["encrypted"] is encrypted, result
    assert result["readyState"] >= 2 and result["currentTime"] >= 1 and result["frames"] > 0, result
    # Unloading keeps the MediaSource for the next item; destroying releases it.
    assert result["afterUnload"] == {"itemId": None, "keptSource": True}, result
    assert result["afterDestroy"] == {"src": None}, result
    page.close()


def test_plays_and_loops_without_downloading_again(context):
    page = context.new_page()
    page.goto("/manifest.webmanifest")
    assert page.evaluate(ENGINE_HARNESS) >= 3
    result = page.evaluate("""async () => {
      const { engine, videos, segmentRequests } = window.__engine;
      const video = document.createElement('video');
      video.muted = true; video.loop = true; video.playsInline = true;
      document.body.append(video);
      const player = engine.attach(video);
      const item = videos[0];
      await player.load(item);
      video.playbackRate = 4;
      await video.play();
      // Wait for two wrap-arounds of the playhead.
      let loops = 0, last = 0, afterFirstLoop = null;
      await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('did not loop twice')), 20000);
        video.addEventListener('timeupdate', () => {
          if (video.currentTime + 0.5 < last) {
            loops += 1;
            if (loops === 1) afterFirstLoop = segmentRequests().length;
            if (loops === 2) { clearTimeout(timer); resolve(); }
          }
          last = video.currentTime;
        });
      });
      return { loops, afterFirstLoop, afterSecondLoop: segmentRequests().length,
               frames: video.getVideoPlaybackQuality().totalVideoFrames, duration: item.duration };
    }""")
    assert result["loops"] == 2 and result["frames"] > 0, result
    assert result["afterSecondLoop"] == result["afterFirstLoop"], result
    page.close()


def test_prefetched_item_starts_from_memory(context):
    page = context.new_page()
    page.goto("/manifest.webmanifest")
    page.evaluate(ENGINE_HARNESS)
    result = page.evaluate("""async () => {
      const { engine, videos, segmentRequests } = window.__engine;
      const item = videos[1];
      engine.prefetch([item]);
      const first = new URL(item.media.prefetch.first_segment, location.href).href;
      const deadline = Date.now() + 10000;
      while (!segmentRequests().includes(first) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300));
      const video = document.createElement('video');
      video.muted = true;
      document.body.append(video);
      const started = performance.now();
      await engine.attach(video).load(item);
      const startMs = performance.now() - started;
      const count = segmentRequests().filter((name) => name === first).length;
      return { stats: engine.stats(), count, startMs };
    }""")
    assert result["stats"]["prefetchHits"] >= 3, result   # master, media playlist, init/segment
    assert result["count"] == 1, result                       # the first segment was fetched once
    page.close()


def test_tampered_key_is_a_key_error(context):
    page = context.new_page()
    page.route("**/key", lambda route: route.fulfill(status=200, body=bytes(range(16)),
                                                      headers={"Content-Type": "application/octet-stream"}))
    page.goto("/manifest.webmanifest")
    page.evaluate(ENGINE_HARNESS)
    code = page.evaluate("""async () => {
      const { engine, videos } = window.__engine;
      const item = videos.find((v) => v.media.encrypted);
      const video = document.createElement('video');
      document.body.append(video);
      try { await engine.attach(video).load(item); return 'played'; } catch (error) { return error.code; }
    }""")
    assert code == "key", code
    page.close()


def test_the_next_video_reuses_the_same_source_buffer_from_zero_with_nothing_left_of_the_last(context):
    page = context.new_page()
    page.goto("/manifest.webmanifest")
    assert page.evaluate(ENGINE_HARNESS) >= 3
    result = page.evaluate("""async () => {
      const { engine, videos } = window.__engine;
      const [first, second, third] = videos;
      const video = document.createElement('video');
      video.muted = true; video.loop = true; video.playsInline = true;
      document.body.append(video);
      const player = engine.attach(video);
      const sources = [];
      const created = window.MediaSource.prototype.addSourceBuffer;
      window.MediaSource.prototype.addSourceBuffer = function (type) { const b = created.call(this, type); sources.push(b); return b; };
      const play = async (item, seconds) => {
        await player.load(item);
        const start = { time: video.currentTime, frames: video.getVideoPlaybackQuality().totalVideoFrames,
                        buffered: [...Array(video.buffered.length).keys()].map((i) => [video.buffered.start(i), video.buffered.end(i)]),
                        duration: video.duration };
        await video.play();
        const deadline = Date.now() + 10000;
        while (video.currentTime < seconds && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        video.pause();
        return { ...start, played: video.currentTime, framesAfter: video.getVideoPlaybackQuality().totalVideoFrames,
                 src: video.getAttribute('src') };
      };
      const a = await play(first, 1.5);
      const b = await play(second, 1.0);
      const c = await play(third, 1.0);
      window.MediaSource.prototype.addSourceBuffer = created;
      return { a, b, c, stats: player.stats, sourceBuffers: sources.length,
               durations: [first.duration, second.duration, third.duration] };
    }""")
    a, b, c = result["a"], result["b"], result["c"]
    # One MediaSource and one SourceBuffer for three videos: the same object URL throughout.
    assert result["stats"] == {"mediaSourcesCreated": 1, "sourceBufferReuses": 2, "failedLoads": 0,
                               "stalls": 0, "stallsRecovered": 0}, result
    assert result["sourceBuffers"] == 1 and a["src"] == b["src"] == c["src"], result
    for run, duration in zip((b, c), result["durations"][1:]):
        # Starts at 0, holds only the new video's first segment(s), and plays.
        assert run["time"] == 0, result
        assert len(run["buffered"]) == 1 and run["buffered"][0][0] < 0.2 and run["buffered"][0][1] <= 4.5, result
        assert abs(run["duration"] - duration) < 0.3, result
        assert run["played"] >= 0.9 and run["framesAfter"] > run["frames"], result
    page.close()
