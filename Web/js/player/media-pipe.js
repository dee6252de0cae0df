// The MediaSource + SourceBuffer behind one <video>, kept across items: moving a pooled player
// to the next video resets the same SourceBuffer (let a running operation finish, abort the
// parser, remove whatever is buffered, timestampOffset back to 0, changeType when the codecs
// differ) instead of building a new MediaSource, so the element is never re-pointed at a new
// object URL. A pipe that broke (a decode error closes its MediaSource) is replaced.
//
// The pipe outlives the items that use it, so an unloaded item's code may still be running
// (its fetch or decrypt resolved after the user swiped on). Every method that changes the
// MediaSource or SourceBuffer therefore takes the caller's abort signal and checks it
// synchronously right before acting: once an item is unloaded it can no longer touch the
// buffer the next item is filling.
import { playerError, abortedError } from './errors.js';

export function mediaSourceClass() {
  return globalThis.ManagedMediaSource ?? globalThis.MediaSource ?? null;
}

const mime = (codecs) => `video/mp4; codecs="${codecs}"`;
const rejected = () => playerError('decode', 'the browser rejected a media segment');

/** Throws the engine's 'aborted' error when `signal` has fired. */
function throwIfAborted(signal) {
  if (signal?.aborted) throw abortedError();
}

/** Resolves on `name`, rejects on `failName` or when `signal` aborts; always cleans up. */
export function eventOnce(target, name, { signal, failName, failure } = {}) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(abortedError()); return; }
    const cleanup = () => {
      target.removeEventListener(name, onDone);
      if (failName) target.removeEventListener(failName, onFail);
      signal?.removeEventListener('abort', onAbort);
    };
    const onDone = () => { cleanup(); resolve(); };
    const onFail = () => { cleanup(); reject(failure ?? playerError('decode', `${failName} while waiting for ${name}`)); };
    const onAbort = () => { cleanup(); reject(abortedError()); };
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

  /**
   * A usable pipe for `codecs`: the existing one reset, or a new one when it cannot be reused.
   * Checked against `signal` first like every other change: an unloaded item that resumes late
   * must not replace the MediaSource the next item is opening (a failed item leaves none, so
   * the next load builds one, and the late one used to detach it: addSourceBuffer then failed
   * on a closed source and the next item showed a decode error).
   */
  async prepare(codecs, signal) {
    throwIfAborted(signal);
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
    throwIfAborted(signal);
    this.buffer = source.addSourceBuffer(mime(codecs));
    this.codecs = codecs;
  }

  /** Empties the SourceBuffer for the next video and puts the playhead back at 0. */
  async reset(codecs, signal) {
    const { source, buffer } = this;
    // A remove still running cannot be aborted (abort() throws then), and an append is nearly
    // done: let either finish before starting over.
    await this.idle(signal);
    // abort() resets the parser, so a half-appended segment of the last video is dropped.
    if (source.readyState === 'open') buffer.abort();
    // Nothing buffered means nothing to remove, and remove() would throw on a source whose
    // duration was never set (the last item was unloaded right after `sourceopen`).
    // remove() on an ended source reopens it (the last video may have called endOfStream).
    if (buffer.buffered.length > 0) {
      buffer.remove(0, Infinity);
      await this.idle(signal);
    }
    buffer.timestampOffset = 0;
    this.changeType(codecs, signal);
    this.video.currentTime = 0;
  }

  /**
   * Waits until the SourceBuffer has no operation under way. A loop, not one event: an
   * operation that finished sets `updating` to false at once but only queues its `updateend`,
   * so an operation started in between can receive the previous one's event. `failure` makes
   * an `error` event (a rejected append) reject the wait.
   */
  async idle(signal, failure) {
    while (this.buffer.updating) {
      await eventOnce(this.buffer, 'updateend', { signal, failName: failure ? 'error' : undefined, failure });
    }
    throwIfAborted(signal);
  }

  /** appendBuffer and wait for it; throws QuotaExceededError as the browser does (full buffer). */
  async append(data, signal) {
    await this.idle(signal);
    this.buffer.appendBuffer(data);
    await this.idle(signal, rejected());
  }

  /** Removes [start, end) seconds from the buffer. */
  async remove(start, end, signal) {
    await this.idle(signal);
    this.buffer.remove(start, end);
    await this.idle(signal);
  }

  /** Changes the codecs mid-video (a rung with another profile), where the browser can. */
  changeType(codecs, signal) {
    throwIfAborted(signal);
    if (codecs === this.codecs || typeof this.buffer.changeType !== 'function') return;
    this.buffer.changeType(mime(codecs));
    this.codecs = codecs;
  }

  setDuration(seconds, signal) {
    throwIfAborted(signal);
    this.source.duration = seconds;
  }

  /** Marks the stream complete (so the element can end and loop); false when it cannot yet. */
  endOfStream(signal) {
    throwIfAborted(signal);
    if (this.buffer.updating || this.source.readyState !== 'open') return false;
    this.source.endOfStream();
    return true;
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
