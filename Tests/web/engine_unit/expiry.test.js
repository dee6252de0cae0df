// Unit tests of what keeps a page playing across expired URLs, a rotated secret and a server
// restart: media keys without tokens, the typed 403/410 error, the once-a-minute refetch, the
// recovery decisions and the feed's restart after a refused cursor. Results in window.__results.
import { mediaKey, mediaPostId } from '../../../Web/js/player/media-key.js';
import { ByteStore, createLoader, fetchBytes, MediaExpiredError, NetworkError } from '../../../Web/js/player/loader.js';
import { Prefetcher } from '../../../Web/js/player/prefetch.js';
import { ThroughputEstimator } from '../../../Web/js/player/abr.js';
import { createRecovery } from '../../../Web/js/player/recovery.js';
import { createMediaRefresher, RefreshRefused } from '../../../Web/js/feed/media-refresh.js';
import { createFeedSource } from '../../../Web/js/feed/feed-source.js';
import { test, assert, equal, run } from './harness.js';

const origin = 'http://127.0.0.1:8080';
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
/** Runs `body` with `fetch` answering `status` (or throwing for 0), then restores it. */
async function withFetch(status, body) {
  const real = globalThis.fetch;
  globalThis.fetch = async () => {
    if (status === 0) throw new TypeError('Failed to fetch');
    return new Response('refused', { status });
  };
  try { return await body(); } finally { globalThis.fetch = real; }
}

test('a media key names the post and file, never the token; other URLs are their own key', () => {
  const a = `${origin}/media/AAAAAGk0bxBhYmNk/42/360p/seg_00003.m4s`;
  const b = `${origin}/media/ZZZZZGk0bxBxyzzz/42/360p/seg_00003.m4s`;
  equal(mediaKey(a), `${origin}/media/*/42/360p/seg_00003.m4s`);
  equal(mediaKey(a), mediaKey(b), 'two tokens, one file:');
  equal(mediaKey(mediaKey(a)), mediaKey(a), 'a key is its own key:');
  assert(mediaKey(`${origin}/media/T/42/360p/seg_00004.m4s`) !== mediaKey(a), 'another segment');
  assert(mediaKey(`${origin}/media/T/43/360p/seg_00003.m4s`) !== mediaKey(a), 'another post');
  equal(mediaKey(`${origin}/img/SIG/42/abc123/720.jpg`), `${origin}/img/*/42/abc123/720.jpg`);
  equal(mediaKey(`${origin}/media/T/42/key`), `${origin}/media/*/42/key`);
  equal(mediaKey(`${origin}/fixtures/master.m3u8?tag#seg`), `${origin}/fixtures/master.m3u8?tag#seg`);
  equal(mediaPostId(b), 42);
  equal(mediaPostId(`${origin}/api/v1/videos/42`), null);
});

test('the byte store finds bytes fetched under an old token by the new URL', () => {
  const store = new ByteStore(1000);
  const old = `${origin}/media/OLD/7/240p/init_0.mp4`;
  const fresh = `${origin}/media/NEW/7/240p/init_0.mp4`;
  store.put(old, new ArrayBuffer(10));
  assert(store.has(fresh), 'the fresh URL finds the file');
  equal(store.take(fresh).byteLength, 10);
  assert(!store.has(old), 'one entry, taken');
  equal(store.bytes, 0);
  store.pending.set(old, Promise.resolve(null));
  assert(store.pending.has(fresh), 'a prefetch under way is joined by the fresh URL');
});

test('403 and 410 are MediaExpiredError with their status; other failures stay NetworkError', async () => {
  for (const status of [403, 410]) {
    const error = await withFetch(status, () => fetchBytes(`${origin}/media/T/1/master.m3u8`).catch((e) => e));
    assert(error instanceof MediaExpiredError && error instanceof NetworkError, `${status}: ${error}`);
    equal([error.code, error.status], ['expired', status]);
  }
  const notFound = await withFetch(404, () => fetchBytes(`${origin}/media/T/1/master.m3u8`).catch((e) => e));
  assert(!(notFound instanceof MediaExpiredError), '404 is not an expiry');
  equal([notFound.code, notFound.status], ['network', 404]);
  const offline = await withFetch(0, () => fetchBytes(`${origin}/media/T/1/master.m3u8`).catch((e) => e));
  equal([offline.code, offline.status], ['network', 0]);
});

test('a refused store entry: a 410 leaves nothing in the store under either name', async () => {
  const store = new ByteStore(1000);
  const url = `${origin}/media/OLD/9/240p/seg_00000.m4s`;
  await withFetch(410, () => fetchBytes(url).then((data) => store.put(url, data), () => null));
  assert(!store.has(url) && !store.has(`${origin}/media/NEW/9/240p/seg_00000.m4s`), 'nothing kept');
  equal(store.bytes, 0);
});

function fakeClock() {
  const clock = { time: 1_000_000, now: () => clock.time };
  return clock;
}
const media = (token) => ({ master: `${origin}/media/${token}/5/master.m3u8` });

test('a post is refetched at most twice a minute; a forced retry and a later minute may again', async () => {
  const clock = fakeClock();
  const asked = [];
  let token = 0;
  const refresher = createMediaRefresher({ now: clock.now, fetchItem: async (id) => { asked.push(id); token += 1; return { id, media: media(`T${token}`) }; } });
  const item = { id: 5, media: media('T0') };
  await refresher.refresh(item);
  equal(item.media.master, media('T1').master, 'fresh URLs swapped in:');
  clock.time += 10_000;
  await refresher.refresh(item); // the fresh URLs refused again (a restart with a new secret)
  equal(item.media.master, media('T2').master, 'a second refetch in the minute is made:');
  let refused = await refresher.refresh(item).catch((e) => e);
  assert(refused instanceof RefreshRefused, `a third refetch in the minute is refused: ${refused}`);
  clock.time += 20_000;
  await refresher.refresh(item, { force: true });
  equal(item.media.master, media('T3').master, 'the retry button forces one:');
  clock.time += 39_000;
  refused = await refresher.refresh(item).catch((e) => e);
  assert(refused instanceof RefreshRefused, 'two made in the last minute (the forced one counts)');
  clock.time += 1_000;
  await refresher.refresh(item);
  equal(asked, [5, 5, 5, 5]);
  equal(refresher.refetches, 4);
});

test('failures of the same URLs share one refetch; a stale caller after it refetches nothing', async () => {
  const clock = fakeClock();
  let calls = 0;
  let release;
  const refresher = createMediaRefresher({ now: clock.now, fetchItem: (id) => { calls += 1; return new Promise((resolve) => { release = () => resolve({ id, media: media('NEW') }); }); } });
  const item = { id: 5, media: media('OLD') };
  const stale = item.media;
  const first = refresher.refresh(item, { stale });
  const second = refresher.refresh(item, { stale });
  await settle();
  release();
  await Promise.all([first, second]);
  equal(calls, 1, 'one request for both:');
  await refresher.refresh(item, { stale }); // the poster that failed with the old URL, later
  equal(calls, 1, 'nothing fetched for a caller that used the old URLs:');
  const copy = { id: 5, media: media('OLD') }; // the same post again after the feed wrapped
  await refresher.refresh(copy);
  equal([calls, copy.media.master], [1, media('NEW').master], 'the copy adopts the fresh URLs:');
});

test('recovery: expired → refreshed; refused → give up; unreachable → wait for the server', async () => {
  const signal = new AbortController().signal;
  const expired = new MediaExpiredError('gone', { status: 410, url: 'x' });
  const unreachable = new NetworkError('no answer', { url: 'x' });
  const item = { id: 3, media: media('OLD') };
  let refreshes = 0;
  const ok = createRecovery({ refreshItem: async (it) => { refreshes += 1; it.media = media('NEW'); return it; } });
  equal(await ok.attempt(item, expired, { stale: item.media, signal }), 'refreshed');
  equal(refreshes, 1);
  const refusing = createRecovery({ refreshItem: async () => { throw new RefreshRefused(3); } });
  equal(await refusing.attempt(item, expired, { stale: item.media, signal }), null);
  equal(await ok.attempt(item, new NetworkError('404', { status: 404 }), { stale: item.media, signal }), null, 'a 404 is the item\'s failure:');
  equal(await ok.attempt(item, unreachable, { stale: item.media, signal }), null, 'without whenReachable, no wait:');
  let back;
  const waiting = createRecovery({ whenReachable: () => new Promise((resolve) => { back = resolve; }) });
  const outcome = waiting.attempt(item, unreachable, { stale: item.media, signal });
  await settle();
  back(true);
  equal(await outcome, 'retry');
  const controller = new AbortController();
  const abandoned = waiting.attempt(item, unreachable, { stale: item.media, signal: controller.signal });
  await settle();
  controller.abort();
  equal(await abandoned, null, 'an unloaded item stops waiting:');
});

test('recovery: a refetch that finds no server waits for it and asks again', async () => {
  const signal = new AbortController().signal;
  const item = { id: 4, media: media('OLD') };
  let attempts = 0;
  let waits = 0;
  const recovery = createRecovery({
    refreshItem: async (it) => {
      attempts += 1;
      if (attempts === 1) throw Object.assign(new Error('offline'), { status: 0 });
      it.media = media('NEW');
      return it;
    },
    whenReachable: async () => { waits += 1; return true; },
  });
  equal(await recovery.attempt(item, new MediaExpiredError('gone', { status: 403, url: 'x' }), { stale: item.media, signal }), 'refreshed');
  equal([attempts, waits], [2, 1]);
});

test('recovery: while the server answers, a request failing without status is retried only a few times', async () => {
  const signal = new AbortController().signal;
  const clock = fakeClock();
  const recovery = createRecovery({ whenReachable: async () => false, now: clock.now });
  const item = { id: 6, media: media('T') };
  const unreachable = new NetworkError('broke off', { url: 'x' });
  const outcomes = [];
  for (let i = 0; i < 4; i += 1) outcomes.push(await recovery.attempt(item, unreachable, { stale: item.media, signal }));
  equal(outcomes, ['retry', 'retry', 'retry', null]);
});

test('prefetch that meets a 410 gets the item fresh URLs once and warms those instead', async () => {
  const mediaFor = (token) => {
    const at = (file) => `${origin}/media/${token}/8/${file}`;
    return { master: at('master.m3u8'), prefetch: { playlist: at('360p/index.m3u8'), key: at('key'), init_segment: at('360p/init_1.mp4'), first_segment: at('360p/seg_00000.m4s') } };
  };
  const requested = [];
  const real = globalThis.fetch;
  globalThis.fetch = async (url) => {
    requested.push(url.replace(`${origin}/media/`, ''));
    return url.includes('/OLD/') ? new Response('gone', { status: 410 }) : new Response(new Uint8Array(20_000));
  };
  try {
    const store = new ByteStore(1_000_000);
    const estimator = new ThroughputEstimator();
    const loader = createLoader({ store, estimator });
    let refreshes = 0;
    const recovery = createRecovery({ refreshItem: async (item) => { refreshes += 1; item.media = mediaFor('NEW'); return item; } });
    const prefetcher = new Prefetcher({ store, loader, estimator, recovery });
    const item = { id: 8, kind: 'video', media: mediaFor('OLD') };
    prefetcher.prefetch([item]);
    await new Promise((resolve) => { const check = () => (prefetcher.running ? setTimeout(check, 10) : resolve()); check(); });
    equal(refreshes, 1);
    equal(requested, ['OLD/8/master.m3u8', 'NEW/8/master.m3u8', 'NEW/8/360p/index.m3u8', 'NEW/8/key', 'NEW/8/360p/init_1.mp4', 'NEW/8/360p/seg_00000.m4s']);
    for (const url of [item.media.master, item.media.prefetch.first_segment]) assert(store.has(url), `warm: ${url}`);
    equal(store.bytes, 5 * 20_000, 'nothing of the refused answer was kept;');
  } finally {
    globalThis.fetch = real;
  }
});

/** A fake feed API over `ids` in a fixed order per seed; cursors name the seed and position. */
function fakeFeed(ids, { refuse = () => false } = {}) {
  const calls = [];
  let seed = 0;
  return {
    calls,
    fetchPage: async ({ cursor, limit }) => {
      calls.push(cursor);
      if (cursor && refuse(cursor)) throw Object.assign(new Error('the cursor was altered'), { status: 400 });
      let [s, position] = cursor ? cursor.split(':').map(Number) : [(seed += 1), 0];
      const order = s % 2 ? ids : [...ids].reverse();
      const items = [];
      for (let i = 0; i < limit; i += 1) items.push({ id: order[(position + i) % order.length] });
      position += limit;
      return { items, next_cursor: `${s}:${position}` };
    },
  };
}

test('a refused cursor restarts from a fresh first page, dropping what was already shown', async () => {
  const ids = Array.from({ length: 25 }, (_, i) => i + 1);
  let rotated = false;
  const feed = fakeFeed(ids, { refuse: (cursor) => rotated && cursor.startsWith('1:') });
  const source = createFeedSource({ fetchPage: feed.fetchPage, pageSize: 10 });
  await source.loadMore();
  equal(source.items.map((i) => i.id), ids.slice(0, 10));
  rotated = true; // the old cursor ("1:10") is refused from now on
  await source.loadMore();
  equal(source.restarts, 1);
  const shown = source.items.map((i) => i.id);
  equal(new Set(shown).size, shown.length, 'no duplicates:');
  // The fresh chain (seed 2) walks 25…1: its first page is 25…16, all new.
  equal(shown.slice(10), [25, 24, 23, 22, 21, 20, 19, 18, 17, 16]);
  await source.loadMore(); // 15…6: 15…11 new, 10…6 already shown and dropped
  equal(source.items.map((i) => i.id).slice(20), [15, 14, 13, 12, 11]);
  equal(feed.calls, [null, '1:10', null, '2:10'], 'requests (cursors):');
});

test('after a restart, pages of already shown posts are skipped, not taken for a wrap', async () => {
  const ids = Array.from({ length: 30 }, (_, i) => i + 1);
  let rotated = false;
  const feed = fakeFeed(ids, { refuse: (cursor) => rotated && cursor.startsWith('1:') });
  const source = createFeedSource({ fetchPage: feed.fetchPage, pageSize: 10 });
  await source.loadMore();
  await source.loadMore();
  equal(source.items.length, 20); // 1…20 shown
  rotated = true;
  const added = await source.loadMore(); // fresh chain 30…1: 30…21 new
  equal(added, 10);
  await source.loadMore(); // 20…11: all shown before → skipped; 10…1 too → skipped; then it wraps
  const shown = source.items.map((i) => i.id);
  equal(shown.slice(0, 30), [...ids.slice(0, 20), 30, 29, 28, 27, 26, 25, 24, 23, 22, 21]);
  assert(shown.length > 30, 'the new chain wrapped and a new cycle began');
  equal(shown.slice(30, 40), [30, 29, 28, 27, 26, 25, 24, 23, 22, 21].filter((id) => id !== 21), 'new cycle (not the item on screen twice):');
});

await run();
