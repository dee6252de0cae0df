// One <video> fed through Media Source Extensions: playlists parsed, AES-128 segments decrypted
// with WebCrypto, appended ahead of the playhead, rung chosen by measured throughput. Loops
// without downloading again (everything a short clip needs stays buffered), evicts behind the
// playhead only for long videos (buffer-policy.js). Unloading stops the item's fetches and
// listeners but keeps the MediaSource and SourceBuffer (media-pipe.js), which the next item
// resets and reuses; destroy() releases them. Only the pipe touches them, always with the
// item's abort signal, so an unloaded item's late continuation cannot write into the next
// item's buffer.
// A stall while playing is detected and remedied (stall.js, stall-recovery.js): a hole is
// jumped, a stuck decoder nudged, and a segment download that hangs is dropped and asked again a
// rung lower. A failed download that fresh URLs or a wait can fix is recovered from (rebase.js).
import { playerError, abortedError } from './errors.js';
import { absolute, parseMaster, parseMedia } from './playlist.js';
import { importKey, decryptSegment, ivForSequence } from './decrypt.js';
import { chooseVariant, shortEdgeOf } from './abr.js';
import { sharpenStart, warmStart } from './start-rung.js';
import { dataSaverOn } from './data-saver.js';
import { MediaPipe } from './media-pipe.js';
import { BUFFER_GOAL, bufferedAhead, isBuffered, holds, staleSegment, evictionCut } from './buffer-policy.js';
import { StallRecovery, watchedRequest, steppedDown, rungFor } from './stall-recovery.js';
import { recoverItem } from './rebase.js';

export { mediaSourceClass } from './media-pipe.js';

const text = (data) => new TextDecoder().decode(data);

function normalise(error) {
  // Our errors carry a string code; a DOMException's numeric legacy `code` (11 …) is not one.
  if (typeof error?.code === 'string') return error;
  const code = error?.name === 'QuotaExceededError' || error?.name === 'InvalidStateError' ? 'decode'
    : error?.name === 'NotSupportedError' ? 'unsupported' : 'decode';
  return playerError(code, error?.message ?? String(error));
}

export class MsePlayer {
  /** `quickStart` (default on): an item's first segment and key go out beside its init section. */
  constructor(video, { loader, estimator, arbiter = null, recovery = null, quickStart = true }) {
    this.video = video;
    this.quickStart = quickStart;
    this.loader = loader;
    this.estimator = estimator;
    this.arbiter = arbiter;
    this.recovery = recovery; // recovery.js: fresh URLs on a 403/410, a wait while the server is away
    this.handlers = { error: [], level: [] };
    this.session = null;
    this.itemId = null;
    this.pipe = new MediaPipe(video);
    this.failedLoads = 0;
    this.stallRecovery = new StallRecovery(video);
  }

  /** How often this player built a MediaSource, reused its SourceBuffer, failed an item, stalled. */
  get stats() {
    const { stalls, recoveries } = this.stallRecovery;
    return { ...this.pipe.stats, failedLoads: this.failedLoads, stalls, stallsRecovered: recoveries.length };
  }

  /** ms from each stall's start until the playhead moved again (the tests print them). */
  get stallRecoveries() { return this.stallRecovery.recoveries; }

  on(name, handler) { (this.handlers[name] ??= []).push(handler); }
  emit(name, value) { for (const handler of this.handlers[name] ?? []) handler(value); }

  /**
   * `lookahead`: the item is loaded ahead of being shown (the next story while another plays):
   * until its first segment is in, the arbiter lets it through sooner than other neighbours
   * (`startingAhead`, arbiter.js). It picks its rung like any other load.
   */
  async load(item, { lookahead = false } = {}) {
    this.unload();
    const session = {
      item, lookahead, controller: new AbortController(), aborted: false, wakeUp: null, keys: new Map(),
      variants: [], variantIndex: -1, media: null, next: 0, ended: false, failed: false, listeners: [],
      request: null, ceiling: null, watch: null, rungs: [],
    };
    this.session = session;
    this.itemId = item.id;
    for (;;) {
      try {
        await this.open(session);
        return;
      } catch (error) {
        if (session.aborted) throw abortedError();
        // Expired URLs or a server away: open again from the start with what recovery got.
        session.media = null;
        if (await recoverItem(this, session, error)) continue;
        if (session.aborted) throw abortedError(); // unloaded while it waited to recover
        this.giveUp(session);
        throw normalise(error);
      }
    }
  }

  /** A load that cannot recover: stop it and leave a clean pipe for the next item. */
  giveUp(session) {
    this.failedLoads += 1;
    this.teardown(session);
    // A failed item may leave the buffer mid-segment or the source closed: start afresh.
    this.pipe.destroy();
  }

  async open(session) {
    const { item } = session;
    const signal = session.controller.signal;
    session.itemMedia = item.media; // the URLs this attempt uses (recovery.js compares them)
    session.media = null;
    session.variants = await this.readMaster(item.media.master, signal);
    let start = warmStart(this, session);
    // The first segment and its key are asked for beside the init section, not after it: one
    // round trip less before the first picture (150 ms on the benchmarks' throttled link).
    const prepared = this.pipe.prepare(session.variants[start].codecs, signal);
    prepared.catch(() => {});  // awaited below (a failure of the playlist first wins)
    start = await sharpenStart(this, session, start, signal);
    let first = null;
    if (this.quickStart) {
      const media = await this.readMedia(session.variants[start].uri, signal);
      first = this.downloadSegment(session, 0, signal, media);
      first.catch(() => {});   // awaited below; a failure before then is reported there
    }
    await prepared;
    await this.switchTo(session, start);
    this.pipe.setDuration(session.media.duration, signal);
    await this.append(session, await (first ?? this.downloadSegment(session, 0, signal)));
    session.rungs[0] = session.variantIndex;
    session.next = 1;
    await this.firstFrame(session);
    this.listen(session, this.video, 'timeupdate', () => this.wake(session));
    this.listen(session, this.video, 'seeking', () => this.seeked(session));
    this.listen(session, this.video, 'error', () => {
      if (!session.aborted) this.fail(session, playerError('decode', this.video.error?.message || 'the browser could not decode this video'));
    });
    session.watch = this.stallRecovery.watch(session, {
      isCurrent: () => session === this.session,
      refetchFrom: (time) => this.refetchFrom(session, time),
    });
    this.pump(session);
  }

  /**
   * Loads a rung's playlist and init section (downloads under `signal`, which may be a stall-
   * watched request's), then appends the init section: only once both arrived, so a download
   * given up on never leaves the buffer on one rung and the session on another.
   */
  async switchTo(session, index, signal = session.controller.signal) {
    const variant = session.variants[index];
    const media = await this.readMedia(variant.uri, signal);
    if (media.segments.length !== (session.media?.segments.length ?? media.segments.length)) {
      throw playerError('decode', 'rungs with different segment counts cannot be switched');
    }
    const init = media.map ? await this.loader.get(media.map.uri, { signal, player: this, light: true }) : null;
    this.pipe.changeType(variant.codecs, session.controller.signal);
    if (init) await this.append(session, init);
    session.media = media;
    session.variantIndex = index;
    this.emit('level', { index, width: variant.width, height: variant.height, bandwidth: variant.bandwidth });
  }

  /** The master playlist at `url`, kept in the store (a rebase reads it again from there). */
  async readMaster(url, signal) {
    const masterUrl = absolute(url);
    return parseMaster(text(await this.loader.get(masterUrl, { signal, keep: true, player: this })), masterUrl);
  }

  /** The media playlist at `uri` (absolute), kept in the store like the master. */
  async readMedia(uri, signal) {
    return parseMedia(text(await this.loader.get(uri, { signal, keep: true, player: this })), uri);
  }

  /**
   * The rung of the picture shown now (the segment under the playhead), and the ladder, as
   * `{ width, height }`s; null before the first segment. For `reelhouse.playback()` (a bug
   * report, the swipe bench's share of time below the rung the element's size calls for).
   */
  playingRung() {
    const session = this.session;
    if (!session?.media || session.aborted) return null;
    const time = this.video.currentTime;
    const index = session.media.segments.findIndex((segment) => time < segment.start + segment.duration);
    const variant = session.variants[session.rungs[index < 0 ? session.media.segments.length - 1 : index] ?? session.rungs[0]];
    if (!variant) return null;
    const size = ({ width, height }) => ({ width, height });
    return { ...size(variant), ladder: session.variants.map(size) };
  }

  /**
   * Loading ahead (`load(item, { lookahead: true })`) and its first segment not in yet: the
   * arbiter lets it start sooner than other neighbours (arbiter.js).
   */
  get startingAhead() {
    const session = this.session;
    return Boolean(session?.lookahead && !session.aborted && !session.failed && session.next === 0);
  }

  /**
   * Whether the video on screen can spare the network: it has `seconds` buffered ahead, or
   * every segment, or nothing left to protect (no item, failed, unloaded).
   */
  hasCushion(seconds) {
    const session = this.session;
    if (!session || session.aborted || session.failed) return true;
    if (!session.media) return false;
    return session.next >= session.media.segments.length || bufferedAhead(this.video.buffered, this.video.currentTime) >= seconds;
  }

  /** Downloads (and decrypts) one segment of the current rung (of `media`, a rung's playlist). */
  async downloadSegment(session, index, signal, media = session.media) {
    const segment = media.segments[index];
    // The key is asked alongside the segment, not after it: one round trip less before an
    // item's first segment can be appended (150 ms on the benchmarks' throttled link).
    const [data, key] = await Promise.all([
      this.loader.get(segment.uri, { signal, player: this }),
      segment.key ? this.keyFor(session, segment.key.uri, signal) : null,
    ]);
    if (!key) return data;
    return decryptSegment(key, segment.key.iv ?? ivForSequence(segment.sequence), data);
  }

  /**
   * The item's AES key at `uri`, kept once imported. A fetch under way is not shared: it runs
   * under its caller's signal (a stall-watched request's, say), whose abort must not fail
   * another caller.
   */
  async keyFor(session, uri, signal) {
    const known = session.keys.get(uri);
    if (known) return known;
    // A key that cannot be fetched is a network failure (an expired URL included), not a wrong key.
    const key = await importKey(new Uint8Array(await this.loader.get(uri, { signal, keep: true, player: this })));
    session.keys.set(uri, key);
    return key;
  }

  /** Appends and waits for it; a full buffer evicts what is behind and retries once. */
  async append(session, data, retried = false) {
    try {
      await this.pipe.append(data, session.controller.signal);
      this.arbiter?.changed();
    } catch (error) {
      if (error?.name !== 'QuotaExceededError' || retried) throw error;
      await this.evict(session, true);
      await this.append(session, data, true);
    }
  }

  /** Fetches ahead until the end, switching rungs as throughput allows. */
  async pump(session) {
    try {
      while (!session.aborted) {
        const segments = session.media.segments;
        if (session.next >= segments.length) {
          const stale = this.video.paused ? -1 : staleSegment(session.media, session.rungs, session.variantIndex, this.video.currentTime);
          if (stale >= 0) {
            // An append reopens an ended source; it is ended again on the next turn.
            if (await this.refill(session, stale, session.variantIndex)) session.ended = false;
            continue;
          }
          if (!session.ended) session.ended = this.pipe.endOfStream(session.controller.signal);
          await this.sleep(session, 1000);
          continue;
        }
        const ahead = bufferedAhead(this.video.buffered, this.video.currentTime);
        if (ahead > BUFFER_GOAL) { await this.sleep(session, 500); continue; }
        // A paused player (a neighbour off screen) keeps its rung: its buffer is not draining, and
        // switching would download another init section and segment for nothing. The video on
        // screen is paused only until its first frame shows; it picks its rung like a playing one.
        const holdsRung = this.video.paused && this.arbiter?.foreground !== this;
        let target = holdsRung ? session.variantIndex : chooseVariant(session.variants, {
          throughputBps: this.estimator.bitsPerSecond, maxShortEdge: shortEdgeOf(this.video),
          bufferAhead: ahead, current: session.variantIndex,
          segmentSeconds: segments[session.next]?.duration || session.media.targetDuration || 2,
          dataSaver: dataSaverOn(),
        });
        const index = session.next;
        target = rungFor(session, index, target);
        // After a refetch into a hole, the segments after it may be buffered still.
        if (holds(this.video.buffered, segments[index])) { session.next = index + 1; continue; }
        if (!await this.refill(session, index, target)) continue;
        if (session.next === index) session.next = index + 1; // unless a seek moved it meanwhile
        await this.evict(session, false);
      }
    } catch (error) {
      if (session.aborted || error?.code === 'aborted') return;
      // Resumes at the same segment (session.next moved on only after an append).
      if (await recoverItem(this, session, error)) { this.pump(session); return; }
      this.fail(session, normalise(error));
    }
  }

  /**
   * Fetches segment `index` on rung `target` (switching to it first) and appends it. False when
   * the stall remedy gave up on a download: the pump asks again, a rung lower for a while.
   */
  async refill(session, index, target) {
    try {
      if (target !== session.variantIndex) await watchedRequest(session, target, (signal) => this.switchTo(session, target, signal));
      const data = await watchedRequest(session, session.variantIndex, (signal) => this.downloadSegment(session, index, signal));
      await this.append(session, data);
      session.rungs[index] = session.variantIndex;
      return true;
    } catch (error) {
      if (!steppedDown(session, error, index)) throw error;
      return false;
    }
  }

  /** Long videos only: drop what is well behind the playhead once the total is large. */
  async evict(session, force) {
    const cut = evictionCut(this.video.buffered, this.video.currentTime, force);
    if (cut !== null) await this.pipe.remove(0, cut, session.controller.signal);
  }

  /** A seek into what is not buffered (after eviction) refetches from there. */
  seeked(session) {
    if (session.aborted || !session.media) return;
    const target = this.video.currentTime;
    if (!isBuffered(this.video.buffered, target)) this.refetchFrom(session, target);
  }

  /** Makes the pump fetch from the segment holding `time` on. */
  refetchFrom(session, time) {
    const segments = session.media.segments;
    const found = segments.findIndex((segment) => time < segment.start + segment.duration);
    session.next = found < 0 ? segments.length - 1 : found;
    session.ended = false;
    this.wake(session);
  }

  /**
   * Resolves when the first picture can be shown: a reused element's seek back to 0 has landed
   * and the first segment decoded. Bounded, so a load never spins forever.
   */
  firstFrame(session) {
    const shown = () => !this.video.seeking && this.video.readyState >= 2;
    if (shown()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(playerError('decode', 'no picture arrived from the first segment')), 15000);
      const check = () => { if (shown()) { clearTimeout(timer); resolve(); } };
      for (const name of ['seeked', 'loadeddata', 'canplay']) this.listen(session, this.video, name, check);
      this.listen(session, this.video, 'error', () => { clearTimeout(timer); reject(playerError('decode', 'the browser could not decode this video')); }, { once: true });
      session.controller.signal.addEventListener('abort', () => { clearTimeout(timer); reject(abortedError()); }, { once: true });
    });
  }

  sleep(session, ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() { clearTimeout(timer); session.wakeUp = null; resolve(); }
      session.wakeUp = done;
    });
  }

  wake(session) { session.wakeUp?.(); }

  listen(session, target, name, handler, options) {
    target.addEventListener(name, handler, options);
    session.listeners.push(() => target.removeEventListener(name, handler, options));
  }

  fail(session, error) {
    if (session !== this.session || session.failed) return;
    session.failed = true;
    this.failedLoads += 1;
    this.arbiter?.changed();
    this.emit('error', error);
  }

  teardown(session) {
    session.aborted = true;
    session.watch?.stop();
    session.controller.abort();
    this.wake(session);
    for (const remove of session.listeners) remove();
    session.listeners = [];
    this.arbiter?.changed();
  }

  /** Stops this item; the MediaSource stays attached for the next one. */
  unload() {
    if (this.session) this.teardown(this.session);
    this.session = null;
    this.itemId = null;
  }

  /** Stops and releases everything (the element is leaving, or the page is going away). */
  destroy() {
    this.unload();
    this.pipe.destroy();
  }
}
