// Warms what the next items need to start — master and media playlist, key, init and the first
// segment of the starting (lowest) rung — into the engine's ByteStore, so a swipe appends from
// memory. Bounded by the store's budget, one download at a time, each only when the arbiter
// says the video on screen can spare the link, and cancelled for items the user has moved away
// from. An item a player already holds is not warmed: that player downloads it itself.
// A 403/410 (the item's URLs expired) asks recovery.js for fresh ones, once, and goes on with
// them, so the player that takes the item over starts with working URLs.
import { fetchBytes, isExpired } from './loader.js';

export class Prefetcher {
  constructor({ store, loader, estimator, segments = 1, arbiter = null, held = () => false, recovery = null }) {
    this.store = store;
    this.loader = loader;
    this.estimator = estimator;
    this.segments = segments;
    this.arbiter = arbiter;
    this.held = held;
    this.recovery = recovery;
    this.wanted = [];          // items, in priority order
    this.controllers = new Map(); // item id → AbortController
    this.urlsByItem = new Map();  // item id → URLs it put in the store
    this.running = false;
  }

  /** The newest list wins: anything not in it is cancelled and its bytes dropped. */
  prefetch(items) {
    const ids = new Set(items.map((item) => item.id));
    for (const [id, controller] of this.controllers) {
      if (!ids.has(id)) { controller.abort(); this.controllers.delete(id); }
    }
    for (const [id, urls] of this.urlsByItem) {
      if (!ids.has(id)) { this.store.forget(urls); this.urlsByItem.delete(id); }
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

  urlsFor(item) {
    const p = item.media.prefetch;
    const base = location.href;
    const urls = [item.media.master, p.playlist, p.key, p.init_segment, p.first_segment].filter(Boolean).map((u) => new URL(u, base).href);
    if (this.segments > 1 && p.first_segment) {
      // seg_00000.m4s → seg_00001.m4s …: our packager's naming; other names get one segment.
      const match = /seg_(\d+)\.m4s$/.exec(p.first_segment);
      for (let n = 1; match && n < this.segments; n += 1) {
        const next = String(Number(match[1]) + n).padStart(match[1].length, '0');
        urls.push(new URL(p.first_segment.replace(/seg_\d+\.m4s$/, `seg_${next}.m4s`), base).href);
      }
    }
    return urls;
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
    this.urlsByItem.set(item.id, urls);
    let refused = null;
    for (const url of urls) {
      if (controller.signal.aborted) return null;
      if (this.store.has(url)) continue;
      if (this.store.bytes > this.store.maxBytes * 0.9) return null; // budget spent: stop here
      await this.arbiter?.turn(null, controller.signal);
      if (this.store.has(url) || this.store.pending.has(url)) continue;
      this.loader.prefetched.add(url);
      const download = fetchBytes(url, {
        signal: controller.signal,
        priority: 'low',
        onSample: (bytes, seconds) => this.estimator.sample(bytes, seconds),
      }).then((data) => { this.store.put(url, data); return data; }, (error) => {
        if (isExpired(error)) refused = error;
        return null;
      });
      this.store.pending.set(url, download);
      try { await download; } finally { this.store.pending.delete(url); }
      if (refused) return refused;
    }
    return null;
  }

  cancelAll() { this.prefetch([]); }
}
