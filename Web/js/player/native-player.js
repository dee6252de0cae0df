// Where Media Source Extensions are missing but the platform plays HLS itself (older iOS
// Safari), the signed master playlist goes straight to the element: its relative URIs carry
// the token, so no header is needed.
import { playerError, abortedError } from './errors.js';
import { fetchBytes } from './loader.js';

export class NativePlayer {
  constructor(video, { recovery = null } = {}) {
    this.video = video;
    this.recovery = recovery;
    this.handlers = { error: [], level: [] };
    this.itemId = null;
    this.cleanup = null;
    this.controller = null;
    this.failedLoads = 0;
  }

  /** The element reports its own buffering; only failures are ours to count. */
  get stats() { return { failedLoads: this.failedLoads }; }

  on(name, handler) { (this.handlers[name] ??= []).push(handler); }

  load(item) {
    this.unload();
    this.itemId = item.id;
    const controller = new AbortController();
    this.controller = controller;
    return new Promise((resolve, reject) => {
      const video = this.video;
      const done = () => { this.cleanup?.(); this.cleanup = null; resolve(); };
      const giveUp = () => { this.cleanup?.(); this.cleanup = null; this.failedLoads += 1; reject(playerError('decode', 'this video cannot be played here')); };
      // The element does not say why it failed: ask the master URL whether it expired, and
      // if fresh URLs (or the server coming back) can help, point the element at them.
      const fail = async () => {
        const stale = item.media;
        const how = await this.recovery?.attempt(item, await probe(stale.master, controller.signal), { stale, signal: controller.signal });
        if (controller.signal.aborted) return;
        if (!how) { giveUp(); return; }
        video.src = item.media.master;
      };
      video.addEventListener('loadeddata', done, { once: true });
      video.addEventListener('error', fail);
      this.cleanup = () => { video.removeEventListener('loadeddata', done); video.removeEventListener('error', fail); };
      this.reject = reject;
      video.src = item.media.master;
    });
  }

  unload() {
    this.controller?.abort();
    this.controller = null;
    if (this.cleanup) {
      this.cleanup();
      this.cleanup = null;
      this.reject?.(abortedError());
    }
    if (this.video.getAttribute('src')) { this.video.removeAttribute('src'); this.video.load(); }
    this.itemId = null;
  }

  destroy() { this.unload(); }
}

/** The error fetching `url` gives (a MediaExpiredError on 403/410), or null when it loads. */
async function probe(url, signal) {
  try {
    await fetchBytes(url, { signal });
    return null;
  } catch (error) {
    return error;
  }
}

export function playsHlsNatively(video) {
  return Boolean(video.canPlayType('application/vnd.apple.mpegurl'));
}
