// Unit tests of the player engine's pure parts and its store/prefetch bookkeeping, run in real
// Chromium (WebCrypto, fetch) with no npm. Results land in window.__results for pytest.
import { parseMaster, parseMedia, parseAttributes } from '../../../Web/js/player/playlist.js';
import { ivForSequence, importKey, decryptSegment, looksLikeMp4 } from '../../../Web/js/player/decrypt.js';
import { chooseVariant, sharpStart, ThroughputEstimator } from '../../../Web/js/player/abr.js';
import { ByteStore, createLoader, fetchBytes, MediaExpiredError } from '../../../Web/js/player/loader.js';
import { retryAfterMs, backoffMs, isTransient, withRetries } from '../../../Web/js/player/retry.js';
import { stallRemedy } from '../../../Web/js/player/stall.js';
import { Prefetcher } from '../../../Web/js/player/prefetch.js';
import { fetchStart } from '../../../Web/js/player/quick-start.js';
import { rememberedThroughput, throughputRecorder } from '../../../Web/js/player/link-memory.js';
import { MediaPipe } from '../../../Web/js/player/media-pipe.js';
import { LinkArbiter } from '../../../Web/js/player/arbiter.js';
import { test, assert, equal, run } from './harness.js';

const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
const unhex = (text) => Uint8Array.from(text.match(/../g), (pair) => parseInt(pair, 16));
const fixture = async (name) => (await fetch(`./fixtures/${name}`)).text();
const base = 'http://127.0.0.1:8080/media/TOKEN/5/';

/** A pipe over a stand-in SourceBuffer (an EventTarget with `updating`) that records what is asked of it. */
function fakePipe() {
  const calls = [];
  const buffer = Object.assign(new EventTarget(), {
    updating: false, codecs: null,
    appendBuffer() { calls.push('appendBuffer'); this.updating = true; },
    remove() { calls.push('remove'); this.updating = true; },
    changeType() { calls.push('changeType'); },
  });
  const pipe = new MediaPipe(document.createElement('video'));
  pipe.buffer = buffer;
  pipe.codecs = 'avc1.64001e,mp4a.40.2';
  pipe.source = { readyState: 'open', set duration(value) { calls.push('duration'); }, endOfStream() { calls.push('endOfStream'); } };
  return { pipe, buffer, calls };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test('waiting for the SourceBuffer outlasts an updateend left over from the operation before', async () => {
  const { pipe, buffer, calls } = fakePipe();
  let finished = false;
  const appending = pipe.append(new ArrayBuffer(8), undefined).then(() => { finished = true; });
  await settle();
  equal(calls, ['appendBuffer']);
  // The previous operation's updateend arrives late, while this append is still under way.
  buffer.dispatchEvent(new Event('updateend'));
  await settle();
  assert(!finished, 'the append counted as done while the buffer was still updating');
  buffer.updating = false;
  buffer.dispatchEvent(new Event('updateend'));
  await appending;
  assert(finished, 'the append finished');
});

test('an unloaded caller (aborted signal) cannot make the pipe touch the buffer or the source', async () => {
  const { pipe, buffer, calls } = fakePipe();
  const controller = new AbortController();
  buffer.updating = true; // an operation of the next item is under way
  const appending = pipe.append(new ArrayBuffer(8), controller.signal).then(() => 'appended', (error) => error.code);
  controller.abort();
  buffer.updating = false;
  buffer.dispatchEvent(new Event('updateend'));
  equal(await appending, 'aborted', 'an append waiting its turn');
  for (const [name, act] of [
    ['append', () => pipe.append(new ArrayBuffer(8), controller.signal)],
    ['remove', () => pipe.remove(0, 10, controller.signal)],
    ['changeType', () => pipe.changeType('avc1.640028,mp4a.40.2', controller.signal)],
    ['setDuration', () => pipe.setDuration(5, controller.signal)],
    ['endOfStream', () => pipe.endOfStream(controller.signal)],
    ['prepare', () => pipe.prepare('avc1.64001e,mp4a.40.2', controller.signal)],
  ]) {
    let code = 'acted';
    try { await act(); } catch (error) { code = error.code; }
    equal(code, 'aborted', name);
  }
  equal(calls, [], 'calls made for an aborted caller');
});

test('a master playlist from our server: variants by size, absolute URIs, sizes and codecs', async () => {
  const variants = parseMaster(await fixture('master.m3u8'), `${base}master.m3u8`);
  equal(variants.map((v) => `${v.width}x${v.height}`), ['240x426', '360x640', '540x960', '720x1280']);
  equal(variants[0].uri, `${base}240p/index.m3u8`);
  equal(variants[2].codecs, 'avc1.64001f,mp4a.40.2');
  equal(variants[1].averageBandwidth, 799552);
});

test('rungs are ordered by picture size even when a larger one measured a lower bandwidth', () => {
  // Colour bars: the measured bandwidth falls as the picture grows (real numbers from our packager).
  const text = ['#EXTM3U',
    '#EXT-X-STREAM-INF:BANDWIDTH=257856,AVERAGE-BANDWIDTH=188715,RESOLUTION=240x426', '240p/index.m3u8',
    '#EXT-X-STREAM-INF:BANDWIDTH=240704,AVERAGE-BANDWIDTH=162038,RESOLUTION=360x640', '360p/index.m3u8',
    '#EXT-X-STREAM-INF:BANDWIDTH=230720,AVERAGE-BANDWIDTH=175392,RESOLUTION=540x960', '540p/index.m3u8'].join('\n');
  const variants = parseMaster(text, `${base}master.m3u8`);
  equal(variants.map((v) => v.height), [426, 640, 960]);
  // So the player climbs to the largest picture its element calls for, not back to 240p.
  equal(chooseVariant(variants, { throughputBps: 50_000_000, maxShortEdge: 780 }), 2);
});

test('an encrypted media playlist: init map, key resolved next to the token, sequences and timing', async () => {
  const media = parseMedia(await fixture('media-240p-encrypted.m3u8'), `${base}240p/index.m3u8`);
  equal(media.map.uri, `${base}240p/init_0.mp4`);
  equal(media.segments[0].key.uri, `${base}key`);
  equal(media.segments[0].key.iv, null);
  equal(media.segments.map((s) => s.sequence), media.segments.map((_, i) => i));
  assert(media.endList && media.targetDuration === 2, 'VOD with target duration 2');
  assert(Math.abs(media.duration - media.segments.reduce((t, s) => t + s.duration, 0)) < 1e-9, 'duration is the sum');
  equal(media.segments[1].start, media.segments[0].duration);
});

test('explicit IVs, METHOD=NONE, quoted commas, and non-playlists', async () => {
  const text = '#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:7\n#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x000102030405060708090a0b0c0d0e0f\n#EXTINF:2,\na.m4s\n#EXT-X-KEY:METHOD=NONE\n#EXTINF:1.5,\nb.m4s\n';
  const media = parseMedia(text, 'https://h/x/p.m3u8');
  equal(hex(media.segments[0].key.iv), '000102030405060708090a0b0c0d0e0f');
  equal(media.segments[0].sequence, 7);
  equal(media.segments[1].key, null);
  equal(parseAttributes('BANDWIDTH=1,CODECS="avc1.1,mp4a.2",X=y'), { BANDWIDTH: '1', CODECS: 'avc1.1,mp4a.2', X: 'y' });
  let threw = false;
  try { parseMedia('<html>', 'https://h/'); } catch { threw = true; }
  assert(threw, 'a non-playlist is refused');
  threw = false;
  try { parseMedia('#EXTM3U\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI="k"\n', 'https://h/'); } catch { threw = true; }
  assert(threw, 'SAMPLE-AES is refused, not misplayed');
});

test('IV from the media sequence number is 128-bit big-endian', () => {
  equal(hex(ivForSequence(0)), '0'.repeat(32));
  equal(hex(ivForSequence(1)), '0'.repeat(31) + '1');
  equal(hex(ivForSequence(258)), '0'.repeat(28) + '0102');
  equal(hex(ivForSequence(2 ** 40)), '0'.repeat(20) + '010000000000');
});

test('AES-128-CBC matches the NIST SP 800-38A vector and round-trips; a wrong key is a key error', async () => {
  const key = unhex('2b7e151628aed2a6abf7158809cf4f3c');
  const iv = unhex('000102030405060708090a0b0c0d0e0f');
  const plain = unhex('6bc1bee22e409f96e93d7e117393172a');
  const raw = await crypto.subtle.importKey('raw', key, 'AES-CBC', false, ['encrypt']);
  const cipher = await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, raw, plain);
  equal(hex(cipher).slice(0, 32), '7649abac8119b246cee98e9b12e9197d', 'first block');
  equal(hex(await decryptSegment(await importKey(key), iv, cipher, { expectMp4: false })), hex(plain));
  let code = null;
  try { await decryptSegment(await importKey(unhex('00112233445566778899aabbccddeeff')), iv, cipher, { expectMp4: false }); } catch (error) { code = error.code; }
  equal(code, 'key');
  code = null;
  try { await importKey(new Uint8Array(15)); } catch (error) { code = error.code; }
  equal(code, 'key');
});

test('a wrong key that happens to leave valid padding is still a key error, never garbage for the decoder', async () => {
  // A real-looking media segment start: a 24-byte styp box, then a moof header.
  const plain = new Uint8Array(64);
  plain.set([0, 0, 0, 24, 0x73, 0x74, 0x79, 0x70], 0);
  plain.set([0, 0, 0, 40, 0x6d, 0x6f, 0x6f, 0x66], 24);
  assert(looksLikeMp4(plain.buffer) && !looksLikeMp4(new Uint8Array(64).fill(7).buffer), 'box sniffing');
  const key = unhex('000102030405060708090a0b0c0d0e0f');
  const iv = ivForSequence(3);
  const cipher = await crypto.subtle.encrypt({ name: 'AES-CBC', iv },
    await crypto.subtle.importKey('raw', key, 'AES-CBC', false, ['encrypt']), plain);
  equal(hex(await decryptSegment(await importKey(key), iv, cipher)), hex(plain), 'right key round-trips');
  // Search for wrong keys whose output pads validly (about 1 in 256 do) and check each one.
  let lucky = 0;
  for (let n = 1; n < 3000 && lucky < 2; n += 1) {
    const wrong = key.slice(); wrong[0] ^= n & 0xff; wrong[1] ^= n >> 8; // never the right key
    const cryptoKey = await importKey(wrong);
    let padded = true;
    try { await crypto.subtle.decrypt({ name: 'AES-CBC', iv }, cryptoKey, cipher); } catch { padded = false; }
    if (!padded) continue;
    lucky += 1;
    let code = null;
    try { await decryptSegment(cryptoKey, iv, cipher); } catch (error) { code = error.code; }
    equal(code, 'key', `wrong key #${n} with valid padding`);
  }
  assert(lucky > 0, 'found a wrong key with valid padding to test');
});

const ladder = [
  { width: 240, height: 426, averageBandwidth: 400_000 },
  { width: 360, height: 640, averageBandwidth: 800_000 },
  { width: 540, height: 960, averageBandwidth: 2_000_000 },
  { width: 720, height: 1280, averageBandwidth: 3_000_000 },
  { width: 1080, height: 1920, averageBandwidth: 6_000_000 },
];

test('bitrate: unknown network starts low; throughput picks the highest affordable rung', () => {
  equal(chooseVariant(ladder, {}), 0);
  equal(chooseVariant(ladder, { throughputBps: 1_600_000 }), 1);
  equal(chooseVariant(ladder, { throughputBps: 50_000_000 }), 4);
  equal(chooseVariant(ladder, { throughputBps: 100_000 }), 0, 'the lowest is always possible');
});

test('bitrate: never above the smallest rung that covers the element size × devicePixelRatio', () => {
  equal(chooseVariant(ladder, { throughputBps: 50_000_000, maxShortEdge: 390 }), 2, '540p covers 390 px; 360p would be soft;');
  equal(chooseVariant(ladder, { throughputBps: 50_000_000, maxShortEdge: 484 }), 2, 'a 484×860 desktop box: 540p, not 360p;');
  equal(chooseVariant(ladder, { throughputBps: 50_000_000, maxShortEdge: 540 }), 2);
  equal(chooseVariant(ladder, { throughputBps: 50_000_000, maxShortEdge: 560 }), 2, 'within 5 % covers;');
  equal(chooseVariant(ladder, { throughputBps: 50_000_000, maxShortEdge: 1170 }), 4);
  equal(chooseVariant(ladder, { throughputBps: 50_000_000, maxShortEdge: 100 }), 0);
  equal(chooseVariant(ladder, { throughputBps: 1_600_000, maxShortEdge: 1170 }), 1, 'the link still decides;');
});

test('bitrate: climbs only with buffer, steps down when starving', () => {
  equal(chooseVariant(ladder, { throughputBps: 5_000_000, current: 1, bufferAhead: 2 }), 1, 'no cushion, no climb');
  equal(chooseVariant(ladder, { throughputBps: 5_000_000, current: 1, bufferAhead: 8 }), 3);
  equal(chooseVariant(ladder, { throughputBps: 50_000_000, current: 1, bufferAhead: 8 }), 4);
  equal(chooseVariant(ladder, { throughputBps: 50_000_000, current: 3, bufferAhead: 0.5 }), 2, 'starving');
  equal(chooseVariant(ladder, { throughputBps: 1_200_000, current: 3, bufferAhead: 6 }), 1, 'throughput fell');
});

test('bitrate: starving is measured against the next segment, which may be one of the short ones a video opens with', () => {
  // 0.9 s ahead of a 1 s segment at 540p on a fast link: plenty, no step down (it took 540p back to 360p).
  equal(chooseVariant(ladder, { throughputBps: 50_000_000, current: 2, bufferAhead: 0.9, segmentSeconds: 1, maxShortEdge: 540 }), 2);
  equal(chooseVariant(ladder, { throughputBps: 50_000_000, current: 2, bufferAhead: 0.5, segmentSeconds: 1, maxShortEdge: 540 }), 1, 'starving;');
  equal(chooseVariant(ladder, { throughputBps: 50_000_000, current: 2, bufferAhead: 1.2, maxShortEdge: 540 }), 1, 'a 2 s segment: as before;');
});

test('bitrate: on a link far faster than the rung above, climb at the next segment without a cushion', () => {
  // 50 Mbit/s: a 2 s segment of the 6 Mbit/s rung comes in 0.34 s, well under half of 2 s buffered.
  equal(chooseVariant(ladder, { throughputBps: 50_000_000, current: 0, bufferAhead: 2 }), 4);
  equal(chooseVariant(ladder, { throughputBps: 50_000_000, current: 0, bufferAhead: 2, maxShortEdge: 600 }), 3, 'still capped by size (720p covers 600 px);');
  // 10 Mbit/s (7 usable): 540p's segment takes 0.57 s, 720p's 0.86 s: with 1.5 s buffered only 540p is quick enough.
  equal(chooseVariant(ladder, { throughputBps: 10_000_000, current: 0, bufferAhead: 1.5 }), 2);
});

test('throughput remembered across visits: discounted, forgotten after a day, written at most every few seconds', () => {
  localStorage.removeItem('reelhouse.throughput');
  equal(rememberedThroughput(), null);
  let clock = 1_000_000;
  const record = throughputRecorder(() => clock);
  const estimator = new ThroughputEstimator({ onChange: record });
  estimator.sample(1_000_000, 1);           // 8 Mbit/s
  equal(rememberedThroughput(clock), 6_400_000);
  estimator.sample(4_000_000, 1);           // within 5 s: not written again
  equal(rememberedThroughput(clock), 6_400_000);
  clock += 6000;
  estimator.sample(4_000_000, 1);
  assert(rememberedThroughput(clock) > 6_400_000, 'a later estimate replaces it');
  equal(rememberedThroughput(clock + 25 * 3600 * 1000), null, 'a day later it is forgotten');
  const next = new ThroughputEstimator({ initial: rememberedThroughput(clock) });
  equal(next.bitsPerSecond, rememberedThroughput(clock));
  equal(chooseVariant(ladder, { throughputBps: next.bitsPerSecond, maxShortEdge: 1170 }) > 0, true, 'the next visit starts above the lowest rung;');
  localStorage.removeItem('reelhouse.throughput');
});

test('throughput estimate: small transfers give only a floor until a real sample, then follow real ones', () => {
  const estimator = new ThroughputEstimator({ halfLife: 2 });
  estimator.sample(500, 0.5);
  equal(estimator.bitsPerSecond, null, 'under 4 kB of small transfers: unknown;');
  estimator.sample(7500, 0.01);
  equal(estimator.bitsPerSecond, (8000 * 8) / 0.51, 'the small ones together, bytes over time;');
  estimator.sample(1_000_000, 1);
  equal(estimator.bitsPerSecond, 8_000_000);
  for (let i = 0; i < 20; i += 1) estimator.sample(100_000, 1);
  assert(Math.abs(estimator.bitsPerSecond - 800_000) < 10_000, `converges: ${estimator.bitsPerSecond}`);
});

test('link timings: the network part of downloads, judged from a few kB on; a seed only where nothing was measured', () => {
  const estimator = new ThroughputEstimator();
  estimator.sample(700, 0.2, { wait: 0.03, transfer: 0.001 });
  equal(estimator.linkTimings, null, 'under 8 kB: not judged;');
  estimator.sample(11_300, 0.3, { wait: 0.01, transfer: 0.004 });
  estimator.sample(5_000, 0.1);                                // no timings (a cache hit, no Timing-Allow-Origin)
  equal(estimator.linkTimings, { bps: (12_000 * 8) / 0.005, rtt: 0.01 }, 'bytes over transfer time, the shortest wait;');
  equal(estimator.measured, false, 'small transfers and timings are not a measured estimate;');
  estimator.seed(19_200_000);
  equal([estimator.measured, estimator.bitsPerSecond], [true, 19_200_000]);
  estimator.seed(1);
  equal(estimator.bitsPerSecond, 19_200_000, 'a seed never replaces an estimate;');
});

test('a first visit starts sharp at the sharpest rung the link affords within the budget', () => {
  const options = { warm: 0, maxShortEdge: 390, firstSegmentSeconds: 0.5 };
  equal(sharpStart(ladder, { ...options, link: null }), 0, 'no timings: the warm rung;');
  equal(sharpStart(ladder, { ...options, link: { bps: 50_000_000, rtt: 0.002 } }), 2, 'a fast link: the covering rung (540p), not the top;');
  equal(sharpStart(ladder, { ...options, link: { bps: 50_000_000, rtt: 0.08 } }), 0, 'two round trips of 80 ms are over the budget;');
  equal(sharpStart(ladder, { ...options, link: { bps: 1_600_000, rtt: 0.15 } }), 0, 'the benchmarks\' throttled link;');
  equal(sharpStart(ladder, { ...options, link: { bps: 4_000_000, rtt: 0.002 } }), 1, '540p\'s first segment takes 0.25 s here, 360p\'s 0.1 s;');
  equal(sharpStart(ladder, { ...options, maxShortEdge: 100, link: { bps: 50_000_000, rtt: 0.002 } }), 0, 'a small element: the lowest covers it;');
});

test('the byte store keeps within its budget, oldest first; take removes, peek keeps', () => {
  const store = new ByteStore(100);
  store.put('a', new ArrayBuffer(40));
  store.put('b', new ArrayBuffer(40));
  store.put('c', new ArrayBuffer(40));
  assert(!store.has('a') && store.has('b') && store.has('c'), 'a evicted');
  equal(store.bytes, 80);
  assert(store.peek('b') && store.has('b'), 'peek keeps');
  assert(store.take('b') && !store.has('b'), 'take removes');
  equal(store.put('huge', new ArrayBuffer(101)), false);
});

test('prefetch warms an item once, counts hits when the player reads it, and forgets items scrolled away', async () => {
  const store = new ByteStore(1_000_000);
  const estimator = new ThroughputEstimator();
  const loader = createLoader({ store, estimator });
  const prefetcher = new Prefetcher({ store, loader, estimator });
  const url = (name) => new URL(`./fixtures/${name}`, location.href).href;
  const item = { id: 1, kind: 'video', media: { master: url('master.m3u8'), prefetch: {
    playlist: url('media-240p-encrypted.m3u8'), init_segment: url('master.m3u8#init'), first_segment: url('media-240p-encrypted.m3u8#seg'), key: null,
  } } };
  const requests = [];
  const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => requests.push(e.name)));
  observer.observe({ type: 'resource', buffered: false });
  prefetcher.prefetch([item]);
  await new Promise((resolve) => { const check = () => (prefetcher.running ? setTimeout(check, 20) : resolve()); check(); });
  assert(store.has(url('master.m3u8')) && store.has(url('media-240p-encrypted.m3u8')), 'playlists warmed');
  await loader.get(url('master.m3u8'), { keep: true });
  await loader.get(url('media-240p-encrypted.m3u8#seg'));
  equal(store.hits, 2);
  equal(store.misses, 0);
  prefetcher.prefetch([]);
  assert(!store.has(url('master.m3u8')), 'forgotten when scrolled away');
  observer.disconnect();
});

const waitIdle = (prefetcher) => new Promise((resolve) => { const check = () => (prefetcher.running ? setTimeout(check, 20) : resolve()); check(); });
const fixtureItem = (id, tag) => {
  const url = (name) => new URL(`./fixtures/${name}?${tag}`, location.href).href;
  return { id, kind: 'video', media: { master: url('master.m3u8'), prefetch: {
    playlist: url('media-240p-encrypted.m3u8'), key: url('media-240p-encrypted.m3u8#key'),
    init_segment: url('master.m3u8#init'), first_segment: url('media-240p-encrypted.m3u8#seg'),
  } } };
};
const requested = (tag) => performance.getEntriesByType('resource').map((e) => e.name).filter((name) => name.includes(`?${tag}`));

test('prefetch stops at its byte budget and never asks for what would not fit', async () => {
  // master 634 B + media playlist 336 B = 970 B: over 90 % of a 1 000 B budget, so it stops there.
  const store = new ByteStore(1000);
  const estimator = new ThroughputEstimator();
  const loader = createLoader({ store, estimator });
  const prefetcher = new Prefetcher({ store, loader, estimator });
  prefetcher.prefetch([fixtureItem(7, 'budget'), fixtureItem(8, 'budget2')]);
  await waitIdle(prefetcher);
  assert(store.bytes <= 1000, `within budget: ${store.bytes}`);
  equal(requested('budget').length, 2, 'master and media playlist only;');
  equal(requested('budget2').length, 0, 'nothing for the second item;');
});

test('prefetch warms the rung the link allows and the size calls for, not the lowest', async () => {
  const store = new ByteStore(1_000_000);
  const estimator = new ThroughputEstimator();
  estimator.sample(2_000_000, 1);   // 16 Mbit/s measured: 720p is affordable, the 500-px box calls for 540p
  const loader = createLoader({ store, estimator });
  const prefetcher = new Prefetcher({ store, loader, estimator, shortEdge: () => 500 });
  prefetcher.prefetch([fixtureItem(11, 'rung')]);
  await waitIdle(prefetcher);
  const fixture = (name) => new URL(`./fixtures/${name}`, location.href).href;
  assert(store.has(fixture('540p/index.m3u8')), 'the 540p playlist is warm');
  const asked = [...loader.prefetched].map((key) => String(key));
  for (const name of ['540p/init_0.mp4', 'key', '540p/seg_00000.m4s']) {
    assert(loader.prefetched.has(fixture(name)), `${name} was asked for: ${asked.join(' ')}`);
  }
  equal(requested('rung').filter((name) => name.includes('media-240p')).length, 0, 'not the lowest rung;');
  // Unknown link: the lowest rung the item names, as before.
  const cold = new Prefetcher({ store, loader, estimator: new ThroughputEstimator(), shortEdge: () => 500 });
  cold.prefetch([fixtureItem(12, 'cold')]);
  await waitIdle(cold);
  assert(requested('cold').some((name) => name.includes('media-240p-encrypted.m3u8')), 'the lowest rung while the link is unknown');
});

test('prefetch warms two seconds of a video that opens with short segments, not only its first half second', async () => {
  const store = new ByteStore(1_000_000);
  const estimator = new ThroughputEstimator();
  const loader = createLoader({ store, estimator });
  const prefetcher = new Prefetcher({ store, loader, estimator });
  const url = (name) => new URL(`./fixtures/short-start/${name}`, location.href).href;
  const item = { id: 21, kind: 'video', media: { master: url('master.m3u8'), prefetch: {
    playlist: url('240p/index.m3u8'), key: url('key'), init_segment: url('240p/init_0.mp4'), first_segment: url('240p/seg_00000.m4s'),
  } } };
  prefetcher.prefetch([item]);
  await waitIdle(prefetcher);
  const asked = (name) => loader.prefetched.has(url(name));
  assert(['240p/seg_00000.m4s', '240p/seg_00001.m4s', '240p/seg_00002.m4s'].every(asked), 'the 0.5, 0.5 and 1 s segments');
  assert(!asked('240p/seg_00003.m4s'), 'not the 2 s segment after them');
});

test('quick start: the master, playlist, key, init and first segment of the first item go out at once', async () => {
  const store = new ByteStore(1_000_000);
  const item = fixtureItem(31, 'quick');
  fetchStart(item, { store, estimator: new ThroughputEstimator() });
  const urls = [item.media.master, ...Object.values(item.media.prefetch)];
  assert(urls.every((url) => store.pending.has(url)), 'all five asked for together, before any answered');
  await Promise.all(urls.map((url) => store.pending.get(url)));
  assert(store.has(item.media.master) && store.has(item.media.prefetch.playlist), 'in the store for the player');
  equal(store.pending.size, 0);
  // A remembered link: the player may start above the lowest rung, so only the master goes early.
  const known = new ThroughputEstimator({ initial: 5_000_000 });
  const later = fixtureItem(32, 'quick2');
  fetchStart(later, { store, estimator: known });
  assert(store.pending.has(later.media.master) && !store.pending.has(later.media.prefetch.first_segment), 'master only');
  // Not a video: nothing.
  fetchStart({ id: 33, kind: 'image', media: {} }, { store, estimator: new ThroughputEstimator() });
});

test('prefetch cancels the download of an item that left the list and keeps none of its bytes', async () => {
  const store = new ByteStore(1_000_000);
  const estimator = new ThroughputEstimator();
  const loader = createLoader({ store, estimator });
  const prefetcher = new Prefetcher({ store, loader, estimator });
  const gone = fixtureItem(9, 'gone');
  const kept = fixtureItem(10, 'kept');
  prefetcher.prefetch([gone]);          // its first request is now in flight
  prefetcher.prefetch([kept]);          // the user moved on
  await waitIdle(prefetcher);
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (const url of Object.values(gone.media.prefetch).concat(gone.media.master)) assert(!store.has(url), `kept ${url}`);
  assert(requested('gone').length <= 1, `only the request already in flight: ${requested('gone')}`);
  assert(store.has(kept.media.master) && store.has(kept.media.prefetch.playlist), 'the new item is warmed');
});

test('a player joins a prefetch of its URL, and fetches it itself once the prefetch outlasts its patience', async () => {
  const store = new ByteStore(1_000_000);
  const loader = createLoader({ store, estimator: new ThroughputEstimator(), joinPatienceMs: 300 });
  const url = new URL('./fixtures/master.m3u8?joined', location.href).href;
  const playlist = new TextEncoder().encode('#EXTM3U\n').buffer;
  // A prefetch that lands in time is what the player reads: no second request.
  let land;
  store.pending.set(url, new Promise((resolve) => { land = resolve; }));
  const joined = loader.get(url, { keep: true });
  setTimeout(() => { store.put(url, playlist); land(playlist); }, 50);
  equal(new TextDecoder().decode(await joined), '#EXTM3U\n');
  equal(requested('joined').length, 0, 'a prefetch that landed in time was fetched again;');
  // A prefetch that never settles (stuck behind the link) holds the player for the patience only.
  store.forget([url]);
  store.pending.set(url, new Promise(() => {}));
  const started = performance.now();
  const hung = new Promise((resolve) => setTimeout(() => resolve(new TextEncoder().encode('still waiting after 5 s').buffer), 5000));
  const fetched = new TextDecoder().decode(await Promise.race([loader.get(url, { keep: true }), hung]));
  const waited = performance.now() - started;
  assert(fetched.startsWith('#EXTM3U') && fetched.includes('#EXT-X-STREAM-INF'), `the player's own download: ${fetched.slice(0, 40)}`);
  assert(waited >= 290, `the player waited for the prefetch first: ${waited} ms`);
  equal(requested('joined').length, 1, 'the player fetched the stuck URL itself;');
  store.pending.delete(url);
});

/** A stand-in for the player on screen: its cushion is whatever the test says. */
const onScreen = (cushion = 0) => ({ cushion, hasCushion(seconds) { return this.cushion >= seconds; } });
const outcome = (promise) => {
  const state = { value: 'waiting' };
  promise.then(() => { state.value = 'went'; }, (error) => { state.value = error.code; });
  return state;
};

test('arbiter: the video on screen downloads at once; others wait until it has a cushion', async () => {
  const arbiter = new LinkArbiter({ cushionSeconds: 3.5 });
  const foreground = onScreen(0);
  const neighbour = onScreen(10);
  arbiter.focus(foreground);
  const own = outcome(arbiter.turn(foreground));
  const theirs = outcome(arbiter.turn(neighbour));
  const prefetch = outcome(arbiter.turn(null));
  const prefetchPlaylist = outcome(arbiter.turn(null, undefined, { light: true }));
  await settle();
  equal([own.value, theirs.value, prefetch.value], ['went', 'waiting', 'waiting']);
  equal(prefetchPlaylist.value, 'went', "the prefetch's small files do not wait;");
  foreground.cushion = 3;           // one segment more is not yet enough
  arbiter.changed();
  await settle();
  equal([theirs.value, prefetch.value], ['waiting', 'waiting']);
  foreground.cushion = 4;
  arbiter.changed();
  await settle();
  equal([theirs.value, prefetch.value], ['went', 'went']);
  equal(arbiter.held, 2);
});

test('arbiter: a look-ahead without its first segment gets its small files at once and its segment at 2.5 s ahead', async () => {
  const arbiter = new LinkArbiter({ cushionSeconds: 3.5, aheadCushionSeconds: 2.5 });
  const foreground = onScreen(0);
  const ahead = { ...onScreen(0), startingAhead: true };
  const neighbour = onScreen(0);
  arbiter.focus(foreground);
  const playlist = outcome(arbiter.turn(ahead, undefined, { light: true }));
  const segment = outcome(arbiter.turn(ahead));
  const theirs = outcome(arbiter.turn(neighbour, undefined, { light: true }));   // not a look-ahead: the full cushion
  await settle();
  equal([playlist.value, segment.value, theirs.value], ['went', 'waiting', 'waiting']);
  foreground.cushion = 2.6;
  arbiter.changed();
  await settle();
  equal([segment.value, theirs.value], ['went', 'waiting']);
  ahead.startingAhead = false;      // its first segment is in: it waits like any neighbour
  foreground.cushion = 3;
  const later = outcome(arbiter.turn(ahead));
  await settle();
  equal(later.value, 'waiting');
  foreground.cushion = 4;
  arbiter.changed();
  await settle();
  equal([later.value, theirs.value], ['went', 'went']);
});

test('arbiter: a new foreground, none at all, or the playhead moving lets waiting downloads go; abort cancels', async () => {
  const arbiter = new LinkArbiter();
  const first = onScreen(0);
  const second = onScreen(0);
  arbiter.focus(first);
  const controller = new AbortController();
  const cancelled = outcome(arbiter.turn(null, controller.signal));
  const forSecond = outcome(arbiter.turn(second));
  const prefetch = outcome(arbiter.turn(null));
  controller.abort();
  await settle();
  equal(cancelled.value, 'aborted');
  arbiter.focus(second);             // the user swiped: the new video on screen goes first
  await settle();
  equal([forSecond.value, prefetch.value], ['went', 'waiting']);
  arbiter.focus(null);               // an image on screen: nothing to protect
  await settle();
  equal(prefetch.value, 'went');
  // Without any notification, the recheck timer notices a cushion that grew.
  arbiter.focus(first);
  const late = outcome(arbiter.turn(null));
  first.cushion = 10;
  await new Promise((resolve) => setTimeout(resolve, 400));
  equal(late.value, 'went');
  equal(arbiter.waiting.size, 0, 'no waiter left behind;');
});

test('prefetch: its small files go at once, its segments wait for the arbiter; it skips an item a player already holds', async () => {
  const store = new ByteStore(1_000_000);
  const estimator = new ThroughputEstimator();
  const loader = createLoader({ store, estimator });
  const arbiter = new LinkArbiter();
  const foreground = onScreen(0);
  arbiter.focus(foreground);
  const held = fixtureItem(11, 'held');
  const waits = fixtureItem(12, 'waits');
  const prefetcher = new Prefetcher({ store, loader, estimator, arbiter, held: (item) => item.id === held.id });
  prefetcher.prefetch([held, waits]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert(store.has(waits.media.master) && store.has(waits.media.prefetch.init_segment), 'master, playlist, key and init at once');
  assert(!store.has(waits.media.prefetch.first_segment), 'no segment while the video on screen has no cushion');
  foreground.cushion = 5;
  arbiter.changed();
  await waitIdle(prefetcher);
  equal(requested('held').length, 0, 'the held item is left to its player;');
  assert(store.has(waits.media.master) && store.has(waits.media.prefetch.first_segment), 'the other item is warmed');
});


test('Retry-After: delay-seconds, an HTTP-date (past means now), and nonsense', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
  equal(retryAfterMs('1', now), 1000);
  equal(retryAfterMs(' 30 ', now), 30_000);
  equal(retryAfterMs('Wed, 21 Oct 2015 07:28:05 GMT', now), 5000);
  equal(retryAfterMs('Wed, 21 Oct 2015 07:27:00 GMT', now), 0);
  equal(retryAfterMs('soon', now), null);
  equal(retryAfterMs(null, now), null);
  equal(retryAfterMs('-3', now), null, 'a negative delay is not a delay-seconds;');
});

test('backoff doubles per retry up to the cap, jittered within its upper half', () => {
  equal([1, 2, 3].map((retry) => backoffMs(retry, { baseMs: 400, capMs: 5000, random: () => 1 })), [400, 800, 1600]);
  equal([1, 2, 3].map((retry) => backoffMs(retry, { baseMs: 400, capMs: 5000, random: () => 0 })), [200, 400, 800]);
  equal(backoffMs(10, { baseMs: 400, capMs: 5000, random: () => 1 }), 5000);
});

const failure = (status, extra = {}) => Object.assign(new Error(`answered ${status}`), { code: 'network', status, ...extra });

test('what is transient: no answer, 408, 429, 5xx; not 404, an expired URL, a wrong key', () => {
  equal([0, 408, 429, 500, 502, 503, 504].map((status) => isTransient(failure(status))), Array(7).fill(true));
  equal([400, 401, 404].map((status) => isTransient(failure(status))), [false, false, false]);
  equal(isTransient(new MediaExpiredError('gone', { status: 410 })), false, '410');
  equal(isTransient(new MediaExpiredError('forged', { status: 403 })), false, '403');
  equal(isTransient(Object.assign(new Error('x'), { code: 'key' })), false, 'a key error');
});

/** Runs withRetries over scripted outcomes; records each try and each requested wait. */
async function scripted(outcomes, options = {}) {
  const waits = [];
  let tries = 0;
  const result = await withRetries(async () => {
    const outcome = outcomes[tries++];
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }, { delay: async (ms) => { waits.push(ms); }, random: () => 0, ...options }).then((value) => value, (error) => error);
  return { result, tries, waits };
}

test('retries: a 503 asking for Retry-After 1 s waits at least that, then backs off, then succeeds', async () => {
  const run = await scripted([failure(503, { retryAfterMs: 1000 }), failure(0), 'bytes']);
  equal(run.result, 'bytes');
  equal(run.tries, 3);
  equal(run.waits, [1000, 400], 'Retry-After first (over the 200 ms backoff), then the doubled backoff;');
});

test('retries: four tries at most, then the last error; permanent failures are not retried', async () => {
  const spent = await scripted([failure(502), failure(503), failure(0), failure(504), 'never']);
  equal([spent.tries, spent.result.status, spent.waits.length], [4, 504, 3]);
  for (const permanent of [failure(404), new MediaExpiredError('expired', { status: 410 })]) {
    const run = await scripted([permanent, 'never']);
    equal([run.tries, run.waits.length, run.result === permanent], [1, 0, true], `${permanent.status}`);
  }
  // A server asking for a very long wait fails now rather than holding the item for minutes.
  const patient = await scripted([failure(429, { retryAfterMs: 3_600_000 }), 'never']);
  equal([patient.tries, patient.result.status], [1, 429]);
});

test('retries: an abort during the backoff wait ends it at once with the aborted error', async () => {
  const controller = new AbortController();
  let tries = 0;
  const started = performance.now();
  const outcome = withRetries(async () => { tries += 1; throw failure(503, { retryAfterMs: 10_000 }); },
    { signal: controller.signal }).then(() => 'resolved', (error) => error.code);
  await settle();
  controller.abort();
  equal(await outcome, 'aborted');
  equal(tries, 1);
  assert(performance.now() - started < 5000, 'the 10 s wait was cut short');
});

test('the loader retries a 503 (with its Retry-After) and a dropped connection, but not a 403', async () => {
  const realFetch = window.fetch;
  const url = new URL('./fixtures/master.m3u8?retry', location.href).href;
  const script = [
    () => new Response('busy', { status: 503, headers: { 'Retry-After': '0' } }),
    () => { throw new TypeError('Failed to fetch'); },
  ];
  let calls = 0;
  window.fetch = (input, init) => (String(input) === url && calls < script.length ? (async () => script[calls++]())() : realFetch(input, init));
  try {
    const loader = createLoader({ store: new ByteStore(1_000_000), estimator: new ThroughputEstimator(),
                                  retryPolicy: { tries: 4, baseMs: 1, capMs: 2, maxRetryAfterMs: 1000 } });
    const data = await loader.get(url);
    assert(new TextDecoder().decode(data).startsWith('#EXTM3U'), 'the third try brought the playlist');
    equal([calls, loader.retries], [2, 2]);
    let forbidden = 0;
    window.fetch = async () => { forbidden += 1; return new Response('', { status: 403 }); };
    const error = await loader.get(`${url}&expired`).then(() => null, (e) => e);
    assert(error instanceof MediaExpiredError && error.status === 403 && error.code === 'expired', `typed: ${error}`);
    equal([forbidden, loader.retries], [1, 2], 'asked once, not retried;');
  } finally {
    window.fetch = realFetch;
  }
});

test('a Retry-After from the server reaches the error fetchBytes throws', async () => {
  const realFetch = window.fetch;
  window.fetch = async () => new Response('', { status: 429, headers: { 'Retry-After': '7' } });
  try {
    const error = await fetchBytes('/anything').then(() => null, (e) => e);
    equal([error.code, error.status, error.retryAfterMs], ['network', 429, 7000]);
  } finally {
    window.fetch = realFetch;
  }
});

test('stall remedy: nudge a stuck decoder further each try, jump a small hole, refetch when nothing is ahead', () => {
  const remedy = (...args) => { const r = stallRemedy(...args); return r.to === undefined ? r : { ...r, to: r.to.toFixed(2) }; };
  equal(remedy([[0, 6]], 2), { kind: 'nudge', to: '2.10' });
  equal(remedy([[0, 6]], 2, { nudges: 2 }), { kind: 'nudge', to: '2.30' });
  equal(remedy([[0, 2], [2.3, 6]], 1.9), { kind: 'jump', to: '2.35' }, 'at the edge of a range, before a hole;');
  equal(remedy([[0, 2], [2.3, 6]], 2.1), { kind: 'jump', to: '2.35' }, 'inside the hole;');
  equal(remedy([[0.04, 4]], 0), { kind: 'jump', to: '0.09' }, 'a hole at the very start;');
  equal(remedy([[0, 2]], 1.95), { kind: 'refetch' });
  equal(remedy([[0, 2], [5, 8]], 2), { kind: 'refetch' }, 'a hole too long to skip;');
  equal(remedy([[0, 2], [4, 8]], 2), { kind: 'refetch' }, 'a missing 2 s segment is refetched, not skipped;');
  equal(remedy([], 0), { kind: 'refetch' });
});

await run();
