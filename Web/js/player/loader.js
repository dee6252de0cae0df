// Fetching with cancellation, byte/time accounting for throughput, and an in-memory store of
// responses by post + file (media-key.js) that prefetch fills and players read first. The
// player's own downloads are retried when the failure is transient (retry.js).
import { abortedError } from './errors.js';
import { mediaKey } from './media-key.js';
import { withRetries, retryAfterMs } from './retry.js';

export class NetworkError extends Error {
  constructor(message, { status = 0, url = '', retryAfterMs = null } = {}) {
    super(message);
    this.code = 'network';
    this.status = status;   // 0: no answer (refused, dropped, broken off)
    this.url = url;
    this.retryAfterMs = retryAfterMs; // what the server's Retry-After asked for, if anything
  }
}

/**
 * A 403 or 410 on a media URL: its token expired (410) or no longer verifies (403, e.g. the
 * server's secret was rotated). Waiting does not help, so it is never retried here; the
 * item's fresh URLs are (GET /api/v1/videos/{id}: media-refresh.js in the feed does that).
 */
export class MediaExpiredError extends NetworkError {
  constructor(message, options) {
    super(message, options);
    this.name = 'MediaExpiredError';
    this.code = 'expired';
  }
}

export const isExpired = (error) => error instanceof MediaExpiredError;

/** A Map whose keys are URLs, stored under their media key (post + file, not token). */
export class MediaKeyMap extends Map {
  get(url) { return super.get(mediaKey(url)); }
  set(url, value) { return super.set(mediaKey(url), value); }
  has(url) { return super.has(mediaKey(url)); }
  delete(url) { return super.delete(mediaKey(url)); }
}

/** A Set of URLs by media key. */
export class MediaKeySet extends Set {
  add(url) { return super.add(mediaKey(url)); }
  has(url) { return super.has(mediaKey(url)); }
  delete(url) { return super.delete(mediaKey(url)); }
}

/**
 * Bounded bytes kept in memory by media key (a URL with its token left out), oldest dropped
 * first. Every method takes the URL; two URLs of one file with different tokens are one entry.
 */
export class ByteStore {
  constructor(maxBytes) {
    this.maxBytes = maxBytes;
    this.entries = new MediaKeyMap(); // url → ArrayBuffer (insertion order = age)
    this.bytes = 0;
    this.hits = 0;
    this.misses = 0;
    this.pending = new MediaKeyMap(); // url → Promise<ArrayBuffer|null> of a prefetch under way
  }

  has(url) { return this.entries.has(url); }

  /** Takes an entry out (a player consumes it once; the bytes then live in its SourceBuffer). */
  take(url) {
    const data = this.entries.get(url);
    if (data === undefined) return null;
    this.entries.delete(url);
    this.bytes -= data.byteLength;
    return data;
  }

  /** Reads an entry without removing it (playlists and keys are small and shared). */
  peek(url) { return this.entries.get(url) ?? null; }

  put(url, data) {
    if (data.byteLength > this.maxBytes) return false;
    if (this.entries.has(url)) this.take(url);
    while (this.bytes + data.byteLength > this.maxBytes && this.entries.size > 0) {
      const oldest = this.entries.keys().next().value; // a media key, which is its own key
      this.take(oldest);
    }
    this.entries.set(url, data);
    this.bytes += data.byteLength;
    return true;
  }

  /**
   * A download under way (`download`: a promise of its bytes, or null for a failure already
   * handled), pending until it settles, so a player joins it (createLoader's get) instead of
   * fetching twice; its bytes go into the store. Resolves like `download`.
   */
  track(url, download) {
    const tracked = download
      .then((data) => { if (data) this.put(url, data); return data; })
      .finally(() => { if (this.pending.get(url) === tracked) this.pending.delete(url); });
    this.pending.set(url, tracked);
    return tracked;
  }

  forget(urls) { for (const url of urls) this.take(url); }
}

/**
 * fetch → ArrayBuffer, reporting the transfer to `onSample(bytes, seconds)`. `priority: 'low'`
 * (Fetch Priority) lets prefetch yield to the playing video's requests where supported.
 */
export async function fetchBytes(url, { signal, onSample, priority = 'auto' } = {}) {
  const started = performance.now();
  let response;
  try {
    response = await fetch(url, { signal, priority, credentials: 'same-origin', cache: 'default' });
  } catch (error) {
    if (error?.name === 'AbortError') throw abortedError();
    throw new NetworkError(`could not load ${new URL(url, location.href).pathname}: ${error?.message ?? error}`, { url });
  }
  if (!response.ok) {
    const message = `${new URL(url, location.href).pathname} answered ${response.status}`;
    if (response.status === 403 || response.status === 410) throw new MediaExpiredError(message, { status: response.status, url });
    throw new NetworkError(message, { status: response.status, url, retryAfterMs: retryAfterMs(response.headers.get('retry-after')) });
  }
  let data;
  try {
    data = await response.arrayBuffer();
  } catch (error) {
    if (error?.name === 'AbortError') throw abortedError();
    throw new NetworkError(`the download of ${url} broke off`, { url });
  }
  onSample?.(data.byteLength, (performance.now() - started) / 1000, linkTiming(response.url || url));
  return data;
}

/**
 * The network's part of a download, from Resource Timing, in seconds: `wait` from the request
 * to its first byte (about a round trip) and `transfer` from there to the last byte. Null when
 * the browser gives none: a cache hit, a cross-origin answer without Timing-Allow-Origin, a
 * full timing buffer. Unlike the time the promise took, it leaves out a main thread busy
 * loading the page, which on a first visit made 127.0.0.1 look like a 1 Mbit/s link.
 */
function linkTiming(url) {
  const entry = globalThis.performance?.getEntriesByName?.(url, 'resource')?.at(-1);
  if (!entry || !(entry.responseStart > 0) || !(entry.transferSize > 0)) return null;
  return {
    wait: Math.max(0, entry.responseStart - entry.requestStart) / 1000,
    transfer: Math.max(0, entry.responseEnd - entry.responseStart) / 1000,
  };
}

// How long a player waits for a prefetch of the URL it needs before fetching it itself. Long
// enough for a first segment on a slow link (~250 kB at 1.6 Mbit/s is 1.3 s), short enough that
// a prefetch stuck behind the link (or a connection that never answers) costs the video on
// screen seconds, not the rest of its life.
const JOIN_PATIENCE_MS = 4000;

/**
 * The player's way to get bytes: from the store when prefetch already has them (a hit),
 * else from the network (a miss, measured) once the arbiter gives `player` a turn (at once
 * for the player on screen). Small, shared things (playlists, keys) are peeked, media
 * segments taken. `light` (default: `keep`) tells the arbiter a download is a few hundred bytes
 * (a playlist, a key, an init section), not a media segment.
 */
export function createLoader({ store, estimator, arbiter = null, retryPolicy, joinPatienceMs = JOIN_PATIENCE_MS } = {}) {
  const prefetched = new MediaKeySet(); // what prefetch put in the store, to count hits honestly
  // A prefetch of this very URL under way is joined rather than fetched twice, for a while:
  // it runs at low priority and may hang, and the joiner's signal still counts (the joiner
  // cannot cancel prefetch's download). Past the patience, the player fetches for itself.
  const settled = async (url, signal) => {
    const pending = store.pending.get(url);
    if (pending) await abortable(withPatience(pending.catch(() => null), joinPatienceMs), signal);
  };
  const fromMemory = async (url, keep, signal) => {
    await settled(url, signal);
    return keep ? store.peek(url) : store.take(url);
  };
  const loader = {
    store,
    prefetched,
    retries: 0, // failed downloads tried again (all players)
    /** Resolves once a prefetch of `url` under way has settled, or the patience for it ran out. */
    settled,
    async get(url, { signal, keep = false, player = null, light = keep } = {}) {
      let cached = await fromMemory(url, keep, signal);
      if (!cached && arbiter && !arbiter.mayDownload(player, { light })) {
        await arbiter.turn(player, signal, { light });
        cached = await fromMemory(url, keep, signal); // prefetch may have brought it while we waited
      }
      // Bytes from memory arrive without a network wait; an unloaded caller still stops here.
      if (signal?.aborted) throw abortedError();
      if (cached) {
        if (prefetched.has(url)) store.hits += 1;
        return cached;
      }
      if (prefetched.has(url)) store.misses += 1;
      const data = await withRetries(
        () => fetchBytes(url, { signal, onSample: (...measured) => estimator.sample(...measured) }),
        { signal, policy: retryPolicy, onRetry: () => { loader.retries += 1; } },
      );
      if (keep) store.put(url, data);
      return data;
    },
  };
  return loader;
}

/** `promise`'s value, or null once `ms` have passed without it. */
function withPatience(promise, ms) {
  let timer;
  const givenUp = new Promise((resolve) => { timer = setTimeout(() => resolve(null), ms); });
  return Promise.race([promise, givenUp]).finally(() => clearTimeout(timer));
}

/** `promise`, or the engine's 'aborted' error as soon as `signal` fires. */
function abortable(promise, signal) {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortedError());
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
