// Warms what the next items need to start — master and media playlist, key, init and the first
// segments, `seconds` of video (a video opening with short segments needs several: one 0.5 s
// segment is over before the next arrives on a slow link) — into the engine's ByteStore, so a
// swipe appends from memory. The rung is the one the
// link allows (chooseVariant over the measured throughput and the size videos are shown at, as
// the player will choose it); the lowest, which the feed item names, while the link is unknown,
// with data saver on, or when the link calls for it. Bounded by the store's budget, one download
// at a time, each only when the arbiter says the video on screen can spare the link, and
// cancelled for items the user has moved away from. An item a player already holds is not
// warmed: that player downloads it itself.
// A 403/410 (the item's URLs expired) asks recovery.js for fresh ones, once, and goes on with
// them, so the player that takes the item over starts with working URLs.
import { fetchBytes, isExpired } from './loader.js';
import { absolute, parseMaster, parseMedia } from './playlist.js';
import { chooseVariant } from './abr.js';
import { dataSaverOn } from './data-saver.js';

const text = (bytes) => new TextDecoder().decode(bytes);
const STOP = Symbol('stop');

export class Prefetcher {
  /**
   * `shortEdge()`: the device pixels the feed's videos are shown at (abr.js shortEdgeOf);
   * `seconds`: how much of each item's start to warm (whole segments, at least one).
   */
  constructor({ store, loader, estimator, seconds = 2, arbiter = null, held = () => false, recovery = null, shortEdge = () => Infinity }) {
    this.store = store;
    this.shortEdge = shortEdge;
    this.loader = loader;
    this.estimator = estimator;
    this.seconds = seconds;
    this.arbiter = arbiter;
    this.held = held;
    this.recovery = recovery;
    this.wanted = [];          // items, in priority order
    this.controllers = new Map(); // item id → AbortController
    this.urlsByItem = new Map();  // item id → URLs it put in the store
    this.segmentUrls = new Set(); // which of those are media segments
    this.running = false;
  }

  /** The newest list wins: anything not in it is cancelled and its bytes dropped. */
  prefetch(items) {
    const ids = new Set(items.map((item) => item.id));
    for (const [id, controller] of this.controllers) {
      if (!ids.has(id)) { controller.abort(); this.controllers.delete(id); }
    }
    for (const [id, urls] of this.urlsByItem) {
      if (!ids.has(id)) {
        this.store.forget(urls);
        this.urlsByItem.delete(id);
        for (const url of urls) this.segmentUrls.delete(url);
      }
    }
    this.wanted = items.filter((item) => item?.kind === 'video' && item.media?.prefetch);
    this.pump();
  }

  async pump() {
    if (this.running) return;
    this.running = true;
    try {
      while (this.wanted.length > 0) {
        const item = this.wanted.shift();
        if (this.urlsByItem.has(item.id) || this.held(item)) continue;
        await this.warm(item).catch(() => {});
      }
    } finally {
      this.running = false;
    }
  }

  /** Master, the lowest rung's playlist, key, init and first segment, as the feed item names them. */
  urlsFor(item) {
    const p = item.media.prefetch;
    if (p.first_segment) this.segmentUrls.add(absolute(p.first_segment));
    return [item.media.master, p.playlist, p.key, p.init_segment, p.first_segment].filter(Boolean).map(absolute);
  }

  /** The first segments of a rung's playlist that make `seconds` of video (at least one). */
  opening(media) {
    const segments = [];
    for (const segment of media.segments) {
      if (segments.length > 0 && segment.start >= this.seconds) break;
      segments.push(segment);
    }
    return segments;
  }

  async warm(item) {
    const controller = new AbortController();
    this.controllers.set(item.id, controller);
    try {
      const stale = item.media;
      const refused = await this.warmUrls(item, controller);
      if (!refused || !this.recovery) return;
      const how = await this.recovery.attempt(item, refused, { stale, signal: controller.signal });
      if (how === 'refreshed') await this.warmUrls(item, controller);
    } finally {
      this.controllers.delete(item.id);
    }
  }

  /** Downloads what `item` names now; returns the MediaExpiredError that stopped it, if one did. */
  async warmUrls(item, controller) {
    const urls = this.urlsFor(item);
    this.urlsByItem.set(item.id, urls);   // the same array: a rung chosen below is forgotten with it
    let lowest = false;
    for (let index = 0; index < urls.length; index += 1) {
      const outcome = await this.fetchInto(urls[index], controller);
      if (outcome === STOP) return null;
      if (outcome) return outcome;
      if (index === 0) {
        const rung = await this.allowedRung(item, urls[0], controller);
        if (rung === STOP) return null;
        if (rung) urls.splice(1, urls.length - 1, ...rung);
        else lowest = true;
      } else if (index === 1 && lowest) {
        // The lowest rung's playlist is in: the segments after the first that `seconds` needs.
        urls.push(...this.moreSegments(urls[1]).filter((url) => !urls.includes(url)));
      }
    }
    return null;
  }

  /** The opening segments of the playlist warmed at `url`, less the first (the item names it). */
  moreSegments(url) {
    const playlist = this.store.peek(url);
    if (!playlist) return [];
    let segments;
    try { segments = this.opening(parseMedia(text(playlist), url)).slice(1); } catch { return []; }
    for (const segment of segments) this.segmentUrls.add(segment.uri);
    return segments.map((segment) => segment.uri);
  }

  /**
   * The URLs that start the rung the link allows, its media playlist already warmed; null for
   * the lowest rung the item names (unknown link, data saver, a slow link, or anything amiss).
   */
  async allowedRung(item, masterUrl, controller) {
    const throughputBps = this.estimator.bitsPerSecond;
    const master = this.store.peek(masterUrl);
    if (throughputBps === null || dataSaverOn() || !master) return null;
    let variants;
    try { variants = parseMaster(text(master), masterUrl); } catch { return null; }
    const chosen = variants[chooseVariant(variants, { throughputBps, maxShortEdge: this.shortEdge() })];
    if (!chosen || chosen.uri === absolute(item.media.prefetch.playlist)) return null;
    const outcome = await this.fetchInto(chosen.uri, controller);
    if (outcome === STOP) return STOP;
    const playlist = this.store.peek(chosen.uri);
    if (outcome || !playlist) return null;
    let media;
    try { media = parseMedia(text(playlist), chosen.uri); } catch { return null; }
    const first = this.opening(media);
    for (const segment of first) this.segmentUrls.add(segment.uri);
    return [chosen.uri, media.map?.uri, first[0]?.key?.uri, ...first.map((segment) => segment.uri)].filter(Boolean);
  }

  /** One URL into the store: null when it is there, STOP (cancelled, budget spent) or the refusal. */
  async fetchInto(url, controller) {
    if (controller.signal.aborted) return STOP;
    if (this.store.has(url)) return null;
    if (this.store.bytes > this.store.maxBytes * 0.9) return STOP; // budget spent: stop here
    // Playlists, keys and init sections are a round trip of a few hundred bytes each: they go
    // at once (arbiter.js); media segments, the bytes the video on screen would feel, wait.
    await this.arbiter?.turn(null, controller.signal, { light: !this.segmentUrls.has(url) });
    if (this.store.has(url) || this.store.pending.has(url)) return null;
    this.loader.prefetched.add(url);
    let refused = null;
    await this.store.track(url, fetchBytes(url, {
      signal: controller.signal,
      priority: 'low',
      onSample: (...measured) => this.estimator.sample(...measured),
    }).catch((error) => {
      if (isExpired(error)) refused = error;
      return null;
    }));
    return refused;
  }

  cancelAll() { this.prefetch([]); }
}
