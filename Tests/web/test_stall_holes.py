"""Holes in the buffer ahead of the playhead, made by removing a range from the real
SourceBuffer before playing: a small one (0.3 s) is jumped over, as hls.js's gap controller
does; one as long as a segment means the segment is missing, and it is fetched again rather
than skipped. Either way playback goes on. Recovery times are printed, never asserted."""
from test_network_faults import harness  # also installs window.__playback

# Loads the item, waits until its first two segments are buffered, removes [from, to), plays
# until `until` (or 20 s pass) and says what happened.
PLAY_OVER_HOLE = """async ({ id, from, to, until }) => {
  const { item, video, player } = window.__playback.attach(id);
  await player.load(item);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const deadline = Date.now() + 10000;
  const bufferedEnd = () => (video.buffered.length ? video.buffered.end(video.buffered.length - 1) : 0);
  while (bufferedEnd() < 3.9 && Date.now() < deadline) await sleep(20);
  await player.pipe.remove(from, to, player.session.controller.signal);
  const ranges = () => [...Array(video.buffered.length).keys()].map((i) => [video.buffered.start(i), video.buffered.end(i)]);
  const hole = ranges();
  // The segment the hole starts in (videos open with short segments: 2–4 s is the fourth).
  const name = player.session.media.segments.find((s) => s.start <= from && from < s.start + s.duration).uri.split('/').pop();
  const segmentRequests = () => performance.getEntriesByType('resource').filter((e) => e.name.endsWith(name)).length;
  const requestsBefore = segmentRequests();
  let passedThrough = false; // the playhead was seen inside the hole's second half
  video.addEventListener('timeupdate', () => { if (video.currentTime > (from + to) / 2 && video.currentTime < to) passedThrough = true; });
  await video.play();
  await window.__playback.playUntil(video, until);
  video.pause();
  return { hole, reached: video.currentTime, error: video.error?.message ?? null, stats: player.stats,
           recoveries: player.stallRecoveries, refetched: segmentRequests() - requestsBefore, passedThrough };
}"""


def test_a_small_hole_is_jumped_over(context):
    page, item = harness(context, min_duration=5.5)
    result = page.evaluate(PLAY_OVER_HOLE, {"id": item["id"], "from": 1.7, "to": 2.0, "until": 3.0})
    page.close()
    assert len(result["hole"]) == 2 and 0.2 < result["hole"][1][0] - result["hole"][0][1] < 0.5, result  # the precondition
    assert result["reached"] >= 3.0 and result["error"] is None, result
    assert result["stats"]["stalls"] >= 1 and result["stats"]["stallsRecovered"] >= 1, result
    assert result["refetched"] == 0, result
    print(f"0.3 s hole jumped: playhead moving again after {result['recoveries']} ms")


def test_a_missing_segment_is_fetched_again_not_skipped(context):
    page, item = harness(context, min_duration=5.5)
    result = page.evaluate(PLAY_OVER_HOLE, {"id": item["id"], "from": 2.0, "to": 4.0, "until": 4.5})
    page.close()
    assert result["hole"][0][1] <= 2.05 and all(start >= 3.9 for start, _ in result["hole"][1:]), result  # the precondition
    assert result["reached"] >= 4.5 and result["error"] is None, result
    assert result["refetched"] >= 1 and result["passedThrough"], result   # played, not jumped
    assert result["stats"]["stalls"] >= 1 and result["stats"]["stallsRecovered"] >= 1, result
    print(f"missing segment refetched: playhead moving again after {result['recoveries']} ms")
