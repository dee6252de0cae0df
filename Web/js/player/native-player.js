// Where Media Source Extensions are missing but the platform plays HLS itself (older iOS
// Safari), the signed master playlist goes straight to the element: its relative URIs carry
// the token, so no header is needed.
import { playerError, abortedError } from './errors.js';
export class NativePlayer {
  constructor(video) {
    this.video = video;
    this.handlers = { error: [], level: [] };
    this.itemId = null;
    this.cleanup = null;
    this.failedLoads = 0;
  }

  /** The element reports its own buffering; only failures are ours to count. */
  get stats() { return { failedLoads: this.failedLoads }; }

  on(name, handler) { (this.handlers[name] ??= []).push(handler); }

  load(item) {
    this.unload();
    this.itemId = item.id;
    return new Promise((resolve, reject) => {
      const video = this.video;
      const done = () => { this.cleanup?.(); this.cleanup = null; resolve(); };
      const fail = () => { this.cleanup?.(); this.cleanup = null; this.failedLoads += 1; reject(playerError('decode', 'this video cannot be played here')); };
      video.addEventListener('loadeddata', done, { once: true });
      video.addEventListener('error', fail, { once: true });
      this.cleanup = () => { video.removeEventListener('loadeddata', done); video.removeEventListener('error', fail); };
      this.reject = reject;
      video.src = item.media.master;
    });
  }

  unload() {
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

export function playsHlsNatively(video) {
  return Boolean(video.canPlayType('application/vnd.apple.mpegurl'));
}
