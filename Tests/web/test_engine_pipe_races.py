"""A pooled player's MediaSource and SourceBuffer outlive the items that use them, so an item
unloaded mid-way (a fast swipe) must neither leave the pipe unusable nor write into the next
item's buffer later. Each test sets up its race deterministically: both once made the item
after a tampered one fail as 'decode' in about 1 feed run in 10."""
import math

from test_engine_playback import ENGINE_HARNESS

# Page helpers: one player on its own <video> with the library's first two videos. Every wait
# is bounded, so a regression fails naming what it waited for instead of hanging
# page.evaluate (which has no time limit of its own).
HELPERS = """() => {
  window.__onePlayer = () => {
    const { engine, videos: [first, second] } = window.__engine;
    const video = document.createElement('video');
    video.muted = true; video.playsInline = true;
    document.body.append(video);
    return { engine, within: window.__within, first, second, video, player: engine.attach(video) };
  };
  // The item a tampered key makes fail: an encrypted one after the first two. The library's
  // `web` tag also holds clear clips, and the feed's order is a shuffle, so "the third video"
  // is clear about one run in six (a clear item has no key to tamper with, and loads).
  window.__failingVideo = () => window.__engine.videos.slice(2).find((item) => item.media.encrypted);
  window.__within = (promise, ms, what) => Promise.race([
    promise,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms: ${what}`)), ms)),
  ]);
  // Plays `video` until it has advanced `seconds` (or 10 s pass); how far it got.
  window.__playFor = async (video, seconds) => {
    const from = video.currentTime;
    await window.__within(video.play(), 5000, 'play()');
    const deadline = Date.now() + 10000;
    while (video.currentTime < from + seconds && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    video.pause();
    return video.currentTime - from;
  };
}"""


def open_harness(context):
    page = context.new_page()
    page.goto("/manifest.webmanifest")
    assert page.evaluate(ENGINE_HARNESS) >= 2
    page.evaluate(HELPERS)
    return page


def test_a_load_cut_short_right_after_sourceopen_leaves_a_pipe_the_next_item_can_use(context):
    page = open_harness(context)
    result = page.evaluate("""async () => {
      const { engine, within, first, second, video, player } = window.__onePlayer();
      // Unload the first item the moment its SourceBuffer exists: the source is open and its
      // duration was never set, which makes SourceBuffer.remove() throw.
      const addSourceBuffer = MediaSource.prototype.addSourceBuffer;
      MediaSource.prototype.addSourceBuffer = function (type) {
        MediaSource.prototype.addSourceBuffer = addSourceBuffer;
        const buffer = addSourceBuffer.call(this, type);
        player.unload();
        return buffer;
      };
      const firstOutcome = await within(player.load(first), 10000, 'the first load').then(() => 'loaded', (error) => error.code);
      const left = { readyState: player.pipe.source?.readyState, duration: player.pipe.source?.duration };
      const secondOutcome = await within(player.load(second), 20000, 'the second load').then(() => 'loaded', (error) => `${error.code}: ${error.message}`);
      const played = secondOutcome === 'loaded' ? await window.__playFor(video, 0.5) : 0;
      return { firstOutcome, left, secondOutcome, played, stats: player.stats, error: video.error?.message ?? null };
    }""")
    assert result["firstOutcome"] == "aborted", result
    # The precondition: the first item left an open source whose duration was never set.
    assert result["left"]["readyState"] == "open" and math.isnan(result["left"]["duration"]), result
    assert result["secondOutcome"] == "loaded", result
    assert result["played"] >= 0.5 and result["error"] is None, result
    assert result["stats"] == {"mediaSourcesCreated": 1, "sourceBufferReuses": 1, "failedLoads": 0,
                               "stalls": 0, "stallsRecovered": 0}, result
    page.close()


def test_an_unloaded_items_late_continuation_never_writes_into_the_next_items_buffer(context):
    # The race needs the player to join prefetch's held download; once (1 of ~20 runs, in a
    # full CI run) it did not within 10 s. Such a setup is retried on a fresh page, never the
    # assertions below, and three setups that all fail still fail the test.
    setups = []
    for _ in range(3):
        page = open_harness(context)
        result = page.evaluate(LATE_CONTINUATION)
        page.close()
        if result["joined"]:
            break
        setups.append(result)
    assert result["joined"], f"the player never joined the held download: {setups}"
    assert result["prefetchHeld"] and result["secondBufferedToEnd"], result
    assert result["secondOutcome"] == "loaded" and result["firstOutcome"] == "aborted", result
    assert result["writes"] == [], result
    assert result["played"] >= 0.5 and result["error"] is None, result


LATE_CONTINUATION = """async () => {
      const { engine, within, first, second, video, player } = window.__onePlayer();
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

      // Hold the first item's init section in flight while prefetch downloads it. A player
      // that asks for it joins that download, which its own abort signal does not cancel.
      const init = new URL(first.media.prefetch.init_segment, location.href).href;
      let release;
      const gate = new Promise((resolve) => { release = resolve; });
      const realFetch = window.fetch;
      window.fetch = async (url, options) => {
        if (String(url) === init) await gate;
        return realFetch(url, options);
      };
      engine.prefetch([first]);
      let deadline = Date.now() + 10000;
      while (!player.loader.store.pending.has(init) && Date.now() < deadline) await sleep(20);
      const prefetchHeld = player.loader.store.pending.has(init);

      let joined;
      const asked = new Promise((resolve) => { joined = resolve; });
      const get = player.loader.get;
      const askedFor = [];
      player.loader.get = (url, options) => { askedFor.push(url); if (url === init) joined(); return get(url, options); };
      const firstLoad = player.load(first).then(() => 'loaded', (error) => error.code);
      // The setup needs the player to join the held download; say so when it did not.
      if (!await within(asked, 10000, 'the join').then(() => true, () => false)) {
        release();
        return { joined: false, init, askedFor };
      }

      // The user moves on: the second item loads into the same SourceBuffer and buffers to its end.
      const secondOutcome = await within(player.load(second), 20000, 'the second load').then(() => 'loaded', (error) => `${error.code}: ${error.message}`);
      deadline = Date.now() + 10000;
      while (!player.session?.ended && Date.now() < deadline) await sleep(50);
      const secondBufferedToEnd = Boolean(player.session?.ended);

      // From here on, nothing may write to the buffer: the second item has all it needs.
      const writes = [];
      const proto = SourceBuffer.prototype;
      const originals = { appendBuffer: proto.appendBuffer, remove: proto.remove, changeType: proto.changeType };
      for (const [name, original] of Object.entries(originals)) {
        proto[name] = function (...args) { writes.push(name); return original.apply(this, args); };
      }
      release();
      const firstOutcome = await within(firstLoad, 10000, 'the unloaded first load to settle').catch((error) => error.message);
      await sleep(300);
      Object.assign(proto, originals);
      window.fetch = realFetch;
      player.loader.get = get;

      const played = secondOutcome === 'loaded' ? await window.__playFor(video, 0.5) : 0;
      return { joined: true, prefetchHeld, secondOutcome, secondBufferedToEnd, firstOutcome, writes, played,
               error: video.error?.message ?? null };
    }"""


def test_a_failed_item_does_not_poison_the_next_one_when_an_unloaded_load_resumes_late(context):
    # The root of the tampered-key flake (the clear post after the encrypted one failed as
    # 'decode' about 1 feed run in 25). A failed item leaves its player without a MediaSource,
    # so the next load builds one. If an earlier, already unloaded load resumed at that moment
    # (it had joined a prefetch download, which its abort did not cancel), it went on to build
    # a MediaSource of its own, detaching the one the new item was opening: the new item's
    # addSourceBuffer then met a closed source. The race is set up step by step: the unloaded
    # load's download is held until the new item waits for `sourceopen`, and that event is
    # handed over only once the unloaded load has settled.
    page = open_harness(context)
    failing = page.evaluate("() => window.__failingVideo().id")
    page.route(f"**/media/*/{failing}/key", lambda route: route.fulfill(status=200, body=bytes(range(16)),
                                                                          headers={"Content-Type": "application/octet-stream"}))
    result = page.evaluate(POISON_AFTER_FAILURE)
    page.close()
    assert result["failedOutcome"] == "key" and result["pipeLeftEmpty"], result   # the precondition
    assert result["prefetchHeld"] and result["gateReleasedBySecond"], result
    assert result["firstOutcome"] == "aborted", result
    assert result["secondOutcome"] == "loaded", result
    assert result["played"] >= 0.5 and result["error"] is None, result
    assert result["failedLoads"] == 1, result


POISON_AFTER_FAILURE = """async () => {
      const { engine, within, first, second, video, player } = window.__onePlayer();
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      const failing = window.__failingVideo();
      const failedOutcome = await within(player.load(failing), 15000, 'the failing load').then(() => 'loaded', (error) => error.code);
      const pipeLeftEmpty = player.pipe.source === null;

      // Prefetch starts the first item's master playlist download and it is held.
      const master = new URL(first.media.master, location.href).href;
      let release;
      const gate = new Promise((resolve) => { release = resolve; });
      const realFetch = window.fetch;
      window.fetch = async (url, options) => {
        if (String(url) === master) await gate;
        return realFetch(url, options);
      };
      engine.prefetch([first]);
      let deadline = Date.now() + 10000;
      while (!player.loader.store.pending.has(master) && Date.now() < deadline) await sleep(20);
      const prefetchHeld = player.loader.store.pending.has(master);

      // The second item's `sourceopen` reaches it only after the first load has settled, and
      // the held download goes on the moment the second item starts waiting for that event.
      let firstSettled;
      const firstDone = new Promise((resolve) => { firstSettled = resolve; });
      let gateReleasedBySecond = false;
      const addEventListener = MediaSource.prototype.addEventListener;
      MediaSource.prototype.addEventListener = function (name, listener, options) {
        if (name !== 'sourceopen') return addEventListener.call(this, name, listener, options);
        MediaSource.prototype.addEventListener = addEventListener;
        gateReleasedBySecond = true;
        release();
        return addEventListener.call(this, name, (event) => firstDone.then(() => listener(event)), options);
      };

      // The first load joins the held download; the user moves on at once.
      const firstLoad = player.load(first).then(() => 'loaded', (error) => error.code).finally(() => firstSettled());
      const secondOutcome = await within(player.load(second), 20000, 'the second load').then(() => 'loaded', (error) => `${error.code}: ${error.message}`);
      const firstOutcome = await within(firstLoad, 10000, 'the first load to settle').catch((error) => error.message);
      MediaSource.prototype.addEventListener = addEventListener;
      window.fetch = realFetch;
      release();

      const played = secondOutcome === 'loaded' ? await window.__playFor(video, 0.5) : 0;
      return { failedOutcome, pipeLeftEmpty, prefetchHeld, gateReleasedBySecond, firstOutcome, secondOutcome, played,
               error: video.error?.message ?? null, failedLoads: player.stats.failedLoads };
    }"""
