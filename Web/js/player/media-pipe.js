// The MediaSource + SourceBuffer behind one <video>, kept across items: moving a pooled player
// to the next video resets the same SourceBuffer (abort the parser, remove every buffered
// range, timestampOffset back to 0, changeType when the codecs differ) instead of building a
// new MediaSource, so the element is never re-pointed at a new object URL. A pipe that broke
// (a decode error closes its MediaSource) is replaced.
export function mediaSourceClass() {
  return globalThis.ManagedMediaSource ?? globalThis.MediaSource ?? null;
}

const mime = (codecs) => `video/mp4; codecs="${codecs}"`;

/** Resolves on `name`, rejects on `failName` or when `signal` aborts; always cleans up. */
export function eventOnce(target, name, { signal, failName, failure } = {}) {
  return new Promise((resolve, reject) => {
    const aborted = () => Object.assign(new Error('aborted'), { code: 'aborted' });
    if (signal?.aborted) { reject(aborted()); return; }
    const cleanup = () => {
      target.removeEventListener(name, onDone);
      if (failName) target.removeEventListener(failName, onFail);
      signal?.removeEventListener('abort', onAbort);
    };
    const onDone = () => { cleanup(); resolve(); };
    const onFail = () => { cleanup(); reject(failure ?? Object.assign(new Error(`${failName} while waiting for ${name}`), { code: 'decode' })); };
    const onAbort = () => { cleanup(); reject(aborted()); };
    target.addEventListener(name, onDone);
    if (failName) target.addEventListener(failName, onFail);
    signal?.addEventListener('abort', onAbort);
  });
}

export class MediaPipe {
  constructor(video) {
    this.video = video;
    this.source = null;
    this.buffer = null;
    this.codecs = null;
    this.objectUrl = null;
    this.stats = { mediaSourcesCreated: 0, sourceBufferReuses: 0 };
  }

  /** A usable pipe for `codecs`: the existing one reset, or a new one when it cannot be reused. */
  async prepare(codecs, signal) {
    if (this.reusable(codecs)) {
      await this.reset(codecs, signal);
      this.stats.sourceBufferReuses += 1;
      return this;
    }
    this.destroy();
    await this.create(codecs, signal);
    return this;
  }

  reusable(codecs) {
    if (!this.source || !this.buffer || this.source.readyState === 'closed' || this.video.error) return false;
    if (this.video.getAttribute('src') !== this.objectUrl) return false;
    if (codecs === this.codecs) return true;
    return typeof this.buffer.changeType === 'function' && mediaSourceClass().isTypeSupported(mime(codecs));
  }

  async create(codecs, signal) {
    const Source = mediaSourceClass();
    const source = new Source();
    this.stats.mediaSourcesCreated += 1;
    if (globalThis.ManagedMediaSource && source instanceof globalThis.ManagedMediaSource) this.video.disableRemotePlayback = true;
    this.source = source;
    this.objectUrl = URL.createObjectURL(source);
    this.video.src = this.objectUrl;
    await eventOnce(source, 'sourceopen', { signal });
    this.buffer = source.addSourceBuffer(mime(codecs));
    this.codecs = codecs;
  }

  /** Empties the SourceBuffer for the next video and puts the playhead back at 0. */
  async reset(codecs, signal) {
    const { source, buffer } = this;
    // abort() also resets the parser, so a half-appended segment of the last video is dropped.
    if (source.readyState === 'open') buffer.abort();
    if (buffer.updating) await eventOnce(buffer, 'updateend', { signal });
    // remove() on an ended source reopens it (the last video may have called endOfStream).
    buffer.remove(0, Infinity);
    await eventOnce(buffer, 'updateend', { signal, failName: 'error' });
    buffer.timestampOffset = 0;
    this.changeType(codecs);
    this.video.currentTime = 0;
  }

  /** Changes the codecs mid-video (a rung with another profile), where the browser can. */
  changeType(codecs) {
    if (codecs === this.codecs || typeof this.buffer.changeType !== 'function') return;
    this.buffer.changeType(mime(codecs));
    this.codecs = codecs;
  }

  /** Releases everything: the element forgets the source and the object URL is revoked. */
  destroy() {
    if (!this.objectUrl) return;
    this.video.removeAttribute('src');
    this.video.load();
    URL.revokeObjectURL(this.objectUrl);
    this.source = null;
    this.buffer = null;
    this.codecs = null;
    this.objectUrl = null;
  }
}
