// Fetching with cancellation, byte/time accounting for throughput, and an in-memory store of
// responses by URL that prefetch fills and players read first.
import { abortedError } from './errors.js';

export class NetworkError extends Error {
  constructor(message, { status = 0, url = '' } = {}) {
    super(message);
    this.code = 'network';
    this.status = status;
    this.url = url;
  }
}

/** Bounded bytes kept in memory by URL, oldest dropped first. */
export class ByteStore {
  constructor(maxBytes) {
    this.maxBytes = maxBytes;
    this.entries = new Map(); // url → ArrayBuffer (insertion order = age)
    this.bytes = 0;
    this.hits = 0;
    this.misses = 0;
    this.pending = new Map(); // url → Promise<ArrayBuffer|null> of a prefetch under way
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
      const oldest = this.entries.keys().next().value;
      this.take(oldest);
    }
    this.entries.set(url, data);
    this.bytes += data.byteLength;
    return true;
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
    throw new NetworkError(`${new URL(url, location.href).pathname} answered ${response.status}`, { status: response.status, url });
  }
  let data;
  try {
    data = await response.arrayBuffer();
  } catch (error) {
    if (error?.name === 'AbortError') throw abortedError();
    throw new NetworkError(`the download of ${url} broke off`, { url });
  }
  onSample?.(data.byteLength, (performance.now() - started) / 1000);
  return data;
}

/**
 * The player's way to get bytes: from the store when prefetch already has them (a hit),
 * else from the network (a miss, measured) once the arbiter gives `player` a turn (at once
 * for the player on screen). Small, shared things (playlists, keys) are peeked, media
 * segments taken.
 */
export function createLoader({ store, estimator, arbiter = null }) {
  const prefetched = new Set(); // URLs prefetch put in the store, to count hits honestly
  const fromMemory = async (url, keep) => {
    // A prefetch of this very URL under way is joined, never fetched twice.
    const pending = store.pending.get(url);
    if (pending) await pending.catch(() => null);
    return keep ? store.peek(url) : store.take(url);
  };
  return {
    store,
    prefetched,
    async get(url, { signal, keep = false, player = null } = {}) {
      let cached = await fromMemory(url, keep);
      if (!cached && arbiter && !arbiter.mayDownload(player)) {
        await arbiter.turn(player, signal);
        cached = await fromMemory(url, keep); // prefetch may have brought it while we waited
      }
      if (cached) {
        if (prefetched.has(url)) store.hits += 1;
        return cached;
      }
      if (prefetched.has(url)) store.misses += 1;
      const data = await fetchBytes(url, { signal, onSample: (bytes, seconds) => estimator.sample(bytes, seconds) });
      if (keep) store.put(url, data);
      return data;
    },
  };
}
