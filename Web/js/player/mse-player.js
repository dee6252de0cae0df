// One <video> fed through Media Source Extensions: playlists parsed, AES-128 segments decrypted
// with WebCrypto, appended ahead of the playhead, rung chosen by measured throughput. Loops
// without downloading again (everything a short clip needs stays buffered), evicts behind the
// playhead only for long videos. Unloading stops the item's fetches and listeners but keeps
// the MediaSource and SourceBuffer (media-pipe.js), which the next item resets and reuses;
// destroy() releases them. Only the pipe touches them, always with the item's abort signal, so
// an unloaded item's late continuation cannot write into the next item's buffer.
// A stall while playing is detected and remedied (stall.js): a hole is jumped, a stuck decoder
// nudged, and a segment download that hangs is dropped and asked again a rung lower.
import { playerError, abortedError } from './errors.js';
import { parseMaster, parseMedia } from './playlist.js';
import { importKey, decryptSegment, ivForSequence } from './decrypt.js';
import { chooseVariant, shortEdgeOf } from './abr.js';
import { MediaPipe } from './media-pipe.js';
import { StallWatch, stallRemedy, rangesOf } from './stall.js';

export { mediaSourceClass } from './media-pipe.js';

const BUFFER_GOAL = 10;   // seconds fetched ahead of the playhead
const MAX_BUFFERED = 90;  // beyond this much in total, evict what is behind
const KEEP_BEHIND = 10;
// A download the playhead is stuck waiting for is given up on once it has run this long.
const REQUEST_PATIENCE_MS = 1000;
// After such a give-up, the rung stays at most one lower for this many segments.
const STEP_DOWN_SEGMENTS = 2;

const text = (data) => new TextDecoder().decode(data);
const absolute = (url) => new URL(url, location.href).href;

function normalise(error) {
  // Our errors carry a string code; a DOMException's numeric legacy `code` (11 …) is not one.
  if (typeof error?.code === 'string') return error;
  const code = error?.name === 'QuotaExceededError' || error?.name === 'InvalidStateError' ? 'decode'
    : error?.name === 'NotSupportedError' ? 'unsupported' : 'decode';
  return playerError(code, error?.message ?? String(error));
}

export class MsePlayer {
  constructor(video, { loader, estimator, arbiter = null, recovery = null }) {
    this.video = video;
    this.loader = loader;
    this.estimator = estimator;
    this.arbiter = arbiter;
    this.recovery = recovery; // recovery.js: fresh URLs on a 403/410, a wait while the server is away
    this.handlers = { error: [], level: [] };
    this.session = null;
    this.itemId = null;
    this.pipe = new MediaPipe(video);
    this.failedLoads = 0;
    this.stalls = 0;            // stalls seen while playing
    this.stallRecoveries = [];  // ms from each stall's start until the playhead moved again
  }

  /** How often this player built a MediaSource, reused its SourceBuffer, failed an item, stalled. */
  get stats() {
    return { ...this.pipe.stats, failedLoads: this.failedLoads, stalls: this.stalls, stallsRecovered: this.stallRecoveries.length };
  }

  on(name, handler) { (this.handlers[name] ??= []).push(handler); }
  emit(name, value) { for (const handler of this.handlers[name] ?? []) handler(value); }

  async load(item) {
    this.unload();
    const session = {
      item, controller: new AbortController(), aborted: false, wakeUp: null, keys: new Map(),
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
        if (await this.recover(session, error)) continue;
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

  /**
   * Whether `error` was recovered from (recovery.js), so the failed step can run again: after
   * fresh URLs, `session.media` is re-read from them (rebase) so the next request uses them.
   */
  async recover(session, error) {
    let cause = error;
    while (this.recovery && !session.aborted && cause?.code !== 'aborted') {
      const signal = session.controller.signal;
      const how = await this.recovery.attempt(session.item, cause, { stale: session.itemMedia, signal });
      if (!how || session.aborted) return false;
      if (how === 'retry' || !session.media) return true;
      try {
        await this.rebase(session);
        return true;
      } catch (next) {
        cause = next;
      }
    }
    return false;
  }

  /**
   * The item holds fresh URLs: read the master and the current rung's playlist again under
   * them (from the store when they are there: it keys by post + file, so no download), so the
   * segments and key still to come are requested with the new token. The buffer, the rung and
   * the position stay as they are.
   */
  async rebase(session) {
    const signal = session.controller.signal;
    const fresh = session.item.media;
    const masterUrl = absolute(fresh.master);
    const variants = parseMaster(text(await this.loader.get(masterUrl, { signal, keep: true, player: this })), masterUrl);
    const variant = variants[Math.max(0, session.variantIndex)];
    const media = parseMedia(text(await this.loader.get(variant.uri, { signal, keep: true, player: this })), variant.uri);
    if (media.segments.length !== session.media.segments.length) {
      throw playerError('decode', 'the refreshed playlist lists other segments');
    }
    session.variants = variants;
    session.media = media;
    session.itemMedia = fresh; // only now: a rebase cut short is tried again with these URLs
    session.keys.clear(); // keys are cached by URL; the new key URL reads the same key
  }

  async open(session) {
    const { item } = session;
    const signal = session.controller.signal;
    session.itemMedia = item.media; // the URLs this attempt uses (recovery.js compares them)
    session.media = null;
    const masterUrl = absolute(item.media.master);
    session.variants = parseMaster(text(await this.loader.get(masterUrl, { signal, keep: true, player: this })), masterUrl);
    let start = chooseVariant(session.variants, {
      throughputBps: this.estimator.bitsPerSecond, maxShortEdge: shortEdgeOf(this.video),
    });
    // What prefetch warmed starts at once; the rung climbs later if the network allows.
    const warm = item.media.prefetch && session.variants.findIndex((v) => v.uri === absolute(item.media.prefetch.playlist));
    if (warm >= 0 && this.loader.store.has(absolute(item.media.prefetch.first_segment))) start = warm;

    await this.pipe.prepare(session.variants[start].codecs, signal);
    await this.switchTo(session, start);
    this.pipe.setDuration(session.media.duration, signal);
    await this.append(session, await this.downloadSegment(session, 0, signal));
    session.rungs[0] = session.variantIndex;
    session.next = 1;
    await this.firstFrame(session);
    this.listen(session, this.video, 'timeupdate', () => this.wake(session));
    this.listen(session, this.video, 'seeking', () => this.seeked(session));
    this.listen(session, this.video, 'error', () => {
      if (!session.aborted) this.fail(session, playerError('decode', this.video.error?.message || 'the browser could not decode this video'));
    });
    session.watch = new StallWatch(this.video, {
      onStall: (stall) => this.recoverStall(session, stall),
      onRecovered: (ms) => this.stallRecoveries.push(Math.round(ms)),
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
    const media = parseMedia(text(await this.loader.get(variant.uri, { signal, keep: true, player: this })), variant.uri);
    if (media.segments.length !== (session.media?.segments.length ?? media.segments.length)) {
      throw playerError('decode', 'rungs with different segment counts cannot be switched');
    }
    const init = media.map ? await this.loader.get(media.map.uri, { signal, player: this }) : null;
    this.pipe.changeType(variant.codecs, session.controller.signal);
    if (init) await this.append(session, init);
    session.media = media;
    session.variantIndex = index;
    this.emit('level', { index, width: variant.width, height: variant.height, bandwidth: variant.bandwidth });
  }

  /**
   * Whether the video on screen can spare the network: it has `seconds` buffered ahead, or
   * every segment, or nothing left to protect (no item, failed, unloaded).
   */
  hasCushion(seconds) {
    const session = this.session;
    if (!session || session.aborted || session.failed) return true;
    if (!session.media) return false;
    return session.next >= session.media.segments.length || this.bufferedAhead() >= seconds;
  }

  /**
   * Runs `work(signal)` (downloads of the pump for rung `rung`) as the session's current request,
   * which the stall remedy may give up on: then this rejects with an 'aborted' error marked
   * `stalled` while the item itself goes on. The item's own abort cancels it too.
   */
  async request(session, rung, work) {
    const request = { controller: new AbortController(), startedAt: performance.now(), stalled: false, rung };
    const itemSignal = session.controller.signal;
    const cancel = () => request.controller.abort();
    itemSignal.addEventListener('abort', cancel, { once: true });
    if (itemSignal.aborted) cancel();
    session.request = request;
    try {
      return await work(request.controller.signal);
    } catch (error) {
      if (request.stalled && !itemSignal.aborted) throw Object.assign(abortedError(), { stalled: request });
      throw error;
    } finally {
      itemSignal.removeEventListener('abort', cancel);
      if (session.request === request) session.request = null;
    }
  }

  /** Downloads (and decrypts) one segment of the current rung. */
  async downloadSegment(session, index, signal) {
    const segment = session.media.segments[index];
    const data = await this.loader.get(segment.uri, { signal, player: this });
    if (!segment.key) return data;
    let key = session.keys.get(segment.key.uri);
    if (!key) {
      // A key that cannot be fetched is a network failure (an expired URL included), not a wrong key.
      key = await importKey(new Uint8Array(await this.loader.get(segment.key.uri, { signal, keep: true, player: this })));
      session.keys.set(segment.key.uri, key);
    }
    return decryptSegment(key, segment.key.iv ?? ivForSequence(segment.sequence), data);
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

  /** Whether the buffer already covers `segment` (its edges aside, which audio and video round). */
  holds(segment) {
    const { buffered } = this.video;
    for (let index = 0; index < buffered.length; index += 1) {
      if (buffered.start(index) <= segment.start + 0.1 && segment.start + segment.duration - 0.1 <= buffered.end(index)) return true;
    }
    return false;
  }

  bufferedAhead() {
    const { buffered, currentTime } = this.video;
    for (let index = 0; index < buffered.length; index += 1) {
      if (buffered.start(index) <= currentTime + 0.25 && currentTime < buffered.end(index)) return buffered.end(index) - currentTime;
    }
    return 0;
  }

  /** Fetches ahead until the end, switching rungs as throughput allows. */
  async pump(session) {
    try {
      while (!session.aborted) {
        const segments = session.media.segments;
        if (session.next >= segments.length) {
          const stale = this.staleSegment(session);
          if (stale >= 0) {
            // An append reopens an ended source; it is ended again on the next turn.
            if (await this.refill(session, stale, session.variantIndex)) session.ended = false;
            continue;
          }
          if (!session.ended) session.ended = this.pipe.endOfStream(session.controller.signal);
          await this.sleep(session, 1000);
          continue;
        }
        const ahead = this.bufferedAhead();
        if (ahead > BUFFER_GOAL) { await this.sleep(session, 500); continue; }
        // A paused player (a neighbour off screen) keeps its rung: its buffer is not draining, and
        // switching would download another init section and segment for nothing. The video on
        // screen is paused only until its first frame shows; it picks its rung like a playing one.
        const holdsRung = this.video.paused && this.arbiter?.foreground !== this;
        let target = holdsRung ? session.variantIndex : chooseVariant(session.variants, {
          throughputBps: this.estimator.bitsPerSecond, maxShortEdge: shortEdgeOf(this.video),
          bufferAhead: ahead, current: session.variantIndex, segmentSeconds: session.media.targetDuration || 2,
        });
        if (session.ceiling && session.next < session.ceiling.until) target = Math.min(target, session.ceiling.index);
        const index = session.next;
        // After a refetch into a hole, the segments after it may be buffered still.
        if (this.holds(segments[index])) { session.next = index + 1; continue; }
        if (!await this.refill(session, index, target)) continue;
        if (session.next === index) session.next = index + 1; // unless a seek moved it meanwhile
        await this.evict(session, false);
      }
    } catch (error) {
      if (session.aborted || error?.code === 'aborted') return;
      // Resumes at the same segment (session.next moved on only after an append).
      if (await this.recover(session, error)) { this.pump(session); return; }
      this.fail(session, normalise(error));
    }
  }

  /**
   * Fetches segment `index` on rung `target` (switching to it first) and appends it. False when
   * the stall remedy gave up on a download: the pump asks again, a rung lower for a while.
   */
  async refill(session, index, target) {
    try {
      if (target !== session.variantIndex) await this.request(session, target, (signal) => this.switchTo(session, target, signal));
      const data = await this.request(session, session.variantIndex, (signal) => this.downloadSegment(session, index, signal));
      await this.append(session, data);
      session.rungs[index] = session.variantIndex;
      return true;
    } catch (error) {
      if (!error?.stalled || session.aborted) throw error;
      session.ceiling = { index: Math.max(0, error.stalled.rung - 1), until: index + STEP_DOWN_SEGMENTS };
      return false;
    }
  }

  /**
   * A short video keeps every segment buffered and loops over them, so segments fetched while
   * the rung was still climbing would come round at their low rung on every loop. Once all are
   * buffered, the first such segment the playhead has passed is fetched again at the current
   * rung (appending over it replaces it); -1 when there is none, or the video is not playing.
   */
  staleSegment(session) {
    if (this.video.paused || session.media.duration > MAX_BUFFERED) return -1;
    const time = this.video.currentTime;
    return session.media.segments.findIndex((segment, index) =>
      (session.rungs[index] ?? session.variantIndex) < session.variantIndex && time > segment.start + segment.duration + 0.25);
  }

  /** Long videos only: drop what is well behind the playhead once the total is large. */
  async evict(session, force) {
    const { buffered, currentTime } = this.video;
    if (buffered.length === 0) return;
    const total = buffered.end(buffered.length - 1) - buffered.start(0);
    const cut = currentTime - KEEP_BEHIND;
    if ((!force && total < MAX_BUFFERED) || cut <= buffered.start(0)) return;
    await this.pipe.remove(0, cut, session.controller.signal);
  }

  /** A seek into what is not buffered (after eviction) refetches from there. */
  seeked(session) {
    if (session.aborted || !session.media) return;
    const target = this.video.currentTime;
    const { buffered } = this.video;
    for (let index = 0; index < buffered.length; index += 1) {
      if (buffered.start(index) <= target + 0.1 && target < buffered.end(index)) return;
    }
    this.refetchFrom(session, target);
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

  /**
   * The playhead has not moved for a while though the video plays (StallWatch). Buffered data
   * ahead: nudge or jump over the hole. Nothing ahead: give up on a download that has run too
   * long (the pump asks again a rung lower), or, with none under way, refetch from the playhead.
   */
  recoverStall(session, { nudges, first }) {
    if (session !== this.session || session.aborted || session.failed || !session.media) return;
    if (first) this.stalls += 1;
    const remedy = stallRemedy(rangesOf(this.video.buffered), this.video.currentTime, { nudges });
    if (remedy.kind !== 'refetch') {
      this.video.currentTime = Math.min(remedy.to, session.media.duration);
      session.watch.nudged();
      return;
    }
    const request = session.request;
    if (request) {
      if (performance.now() - request.startedAt < REQUEST_PATIENCE_MS) return;
      request.stalled = true;
      request.controller.abort();
      return;
    }
    this.refetchFrom(session, this.video.currentTime);
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
