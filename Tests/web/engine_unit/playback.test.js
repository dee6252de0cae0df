// The playback service's lease rules (Web/js/playback/), on a stand-in engine whose module
// arrives when the test says so: deterministic, no server, no media.
import { test, assert, equal, run } from './harness.js';
import { createPlaybackService, LAYER, PAGE_VIDEO_COUNT } from '../../../Web/js/playback/index.js';
import { allocateSeats } from '../../../Web/js/playback/seats.js';

/** An engine that records what it is told; a load settles when the test says so. */
function fakeEngine() {
  const engine = {
    players: [], focused: [], prefetched: [], refreshItem: null,
    attach(video) {
      const handlers = { error: [] };
      const player = {
        video, itemId: null, loads: [], unloads: 0,
        load(item, options) {
          this.itemId = item.id;
          let settle;
          const promise = new Promise((resolve, reject) => { settle = { resolve, reject }; });
          this.loads.push({ item, options, ...settle });
          return promise;
        },
        unload() { this.itemId = null; this.unloads += 1; },
        on(name, handler) { (handlers[name] ??= []).push(handler); },
        emit(name, value) { (handlers[name] ?? []).forEach((handler) => handler(value)); },
      };
      engine.players.push(player);
      return player;
    },
    detach() {},
    focus(player) { engine.focused.push(player); },
    prefetch(items) { engine.prefetched.push(items.map((item) => item.id)); },
    stats: () => ({ players: engine.players.length }),
  };
  return engine;
}

/** A service whose engine module is held until `arrive()`. */
function heldService(options = {}) {
  const engine = fakeEngine();
  let arrive;
  const loading = new Promise((resolve) => { arrive = () => resolve(engine); });
  const playback = createPlaybackService({
    ...options,
    loadEngine: (engineOptions) => { engine.refreshItem = engineOptions.refreshItem; return loading; },
  });
  return { playback, engine, arrive: async () => { arrive(); await playback.ready(); } };
}

const playerOf = (engine, leased) => engine.players.find((player) => player.video === leased.seat.video);
const elementsOf = (lease) => lease.players.map((player) => player.index);
const aborted = (promise) => promise.then(() => 'loaded', (error) => error?.code);

test('seats: the top lease first, a lease keeps what it holds, the least valuable goes first', () => {
  const shares = allocateSeats([
    { id: 'stories', wanted: 2, held: [] },
    { id: 'feed', wanted: 3, held: [{ seat: 0, value: 1 }, { seat: 1, value: 2 }, { seat: 2, value: 0 }] },
  ], 3);
  equal(shares.get('feed'), [1], 'the feed keeps the element on screen;');
  equal(shares.get('stories'), [0, 2]);
  const kept = allocateSeats([{ id: 'a', wanted: 1, held: [{ seat: 2, value: 0 }] }, { id: 'b', wanted: 5, held: [] }], 3);
  equal([kept.get('a'), kept.get('b')], [[2], [0, 1]], 'what is held stays held; the rest is dealt in element order;');
  equal(allocateSeats([{ id: 'a', wanted: 0, held: [{ seat: 0, value: 2 }] }], 3).get('a'), [], 'a lease wanting none keeps none;');
});

test('never more than the page\'s three elements, each with one engine player for life', async () => {
  const { playback, engine, arrive } = heldService();
  const feed = playback.lease({ name: 'feed', players: 3, layer: LAYER.base });
  const stories = playback.lease({ name: 'stories', players: 2, layer: LAYER.cover });
  const watch = playback.lease({ name: 'watch', players: 1, layer: LAYER.cover });
  const extra = playback.lease({ name: 'extra', players: 3, layer: LAYER.cover });
  const all = [feed, stories, watch, extra].flatMap((lease) => lease.players.map((player) => player.seat.video));
  equal(PAGE_VIDEO_COUNT, 3);
  equal([all.length, new Set(all).size], [3, 3], 'three distinct elements between them;');
  equal([extra, watch, stories, feed].map((lease) => lease.players.length), [3, 0, 0, 0], 'the newest screen on top has them;');
  await arrive();
  equal(engine.players.length, 3, 'one engine player per element;');
  extra.release();
  watch.release();
  stories.release();
  equal(feed.players.length, 3, 'the feed has them back;');
  equal(engine.players.length, 3, 'and the players stay the same three;');
  equal(playback.describe().map((seat) => seat.holder), ['feed', 'feed', 'feed']);
});

test('a screen over the feed takes an idle element first, then one off screen, the one on screen last', async () => {
  const { playback, arrive } = heldService();
  await arrive();
  const feed = playback.lease({ name: 'feed', players: 3, layer: LAYER.base });
  const [onScreen, next, idle] = feed.players;
  onScreen.load({ id: 1 });
  next.load({ id: 2 });
  feed.focus(onScreen);
  const watch = playback.lease({ name: 'watch', players: 1, layer: LAYER.cover });
  equal(elementsOf(watch), [idle.index], 'the idle one;');
  watch.release();
  const stories = playback.lease({ name: 'stories', players: 2, layer: LAYER.cover });
  equal(elementsOf(stories), [next.index, idle.index], 'then the one off screen;');
  equal(elementsOf(feed), [onScreen.index], 'the feed keeps the one on screen;');
  const again = playback.lease({ name: 'watch', players: 1, layer: LAYER.cover });
  equal([elementsOf(again), elementsOf(stories), elementsOf(feed)], [[onScreen.index], [next.index, idle.index], []],
    'a newer screen over both: the feed gives its last one, the stories under it keep theirs;');
  again.release();
  stories.release();
  equal(feed.players.length, 3);
});

test('a new feed (a filter change) under an open story player gets only what is left', async () => {
  const { playback, arrive } = heldService();
  await arrive();
  const first = playback.lease({ name: 'feed', players: 3, layer: LAYER.base });
  const stories = playback.lease({ name: 'stories', players: 2, layer: LAYER.cover });
  first.release();
  const second = playback.lease({ name: 'feed', players: 3, layer: LAYER.base });
  equal([stories.players.length, second.players.length], [2, 1], 'the stories keep their two;');
  stories.release();
  equal(second.players.length, 3);
});

test('released and revoked are safe: every call is a no-op, a load rejects as aborted', async () => {
  const { playback, engine, arrive } = heldService();
  await arrive();
  const feed = playback.lease({ name: 'feed', players: 3, layer: LAYER.base });
  const kept = feed.players[2];
  const watch = playback.lease({ name: 'watch', players: 1, layer: LAYER.cover });
  assert(!kept.active && kept.video === null, 'the feed\'s element went to the full player: its handle is revoked');
  equal(await aborted(kept.load({ id: 9 })), 'aborted');
  const [mine] = watch.players;
  const before = playerOf(engine, mine).unloads;
  kept.unload();
  equal(playerOf(engine, mine).unloads, before, 'a revoked handle\'s unload does not touch the element\'s new holder;');
  const focusedBefore = engine.focused.length;
  const prefetchedBefore = engine.prefetched.length;
  watch.release();
  watch.release();
  watch.focus(mine);
  watch.prefetch([{ id: 3 }]);
  equal(await aborted(mine.load({ id: 4 })), 'aborted');
  equal(watch.players, [], 'a released lease holds nothing;');
  equal(engine.focused.length, focusedBefore + 1, 'only the release itself reached the engine (the feed is on top again);');
  equal(engine.prefetched.length, prefetchedBefore + 1);
  equal(feed.players.length, 3, 'the feed has its three back;');
});

test('a load asked before the engine arrived, on an element taken meanwhile, never reaches the engine', async () => {
  const { playback, engine, arrive } = heldService();
  const stories = playback.lease({ name: 'stories', players: 2, layer: LAYER.cover });
  const early = stories.players.map((player) => player.load({ id: 10 + player.index }));
  stories.release();                                            // closed before the engine came
  const watch = playback.lease({ name: 'watch', players: 1, layer: LAYER.cover });
  const loading = watch.players[0].load({ id: 42 });
  const feed = playback.lease({ name: 'feed', players: 3, layer: LAYER.base });
  const overtaken = feed.players[0].load({ id: 1 });
  feed.players[0].load({ id: 2 });                              // a second load overtakes the first
  await arrive();
  equal(await Promise.all([...early, overtaken].map(aborted)), ['aborted', 'aborted', 'aborted']);
  const loads = engine.players.flatMap((player) => player.loads.map((load) => load.item.id)).sort((a, b) => a - b);
  equal(loads, [2, 42], 'only what the holders still wanted;');
  const watchPlayer = playerOf(engine, watch.players[0]);
  watchPlayer.loads[0].resolve();
  equal(await aborted(loading), 'loaded');
});

test('a load reaches the engine in the same task; loads asked before the engine go first when it arrives, then focus and prefetch', async () => {
  const { playback, engine, arrive } = heldService();
  const log = [];
  const feed = playback.lease({ name: 'feed', players: 3, layer: LAYER.base });
  const [current, next] = feed.players;
  next.load({ id: 2 });                   // the planner may fill the element of the next item first
  current.load({ id: 1 });
  feed.focus(current);
  feed.prefetch([{ id: 2 }, { id: 3 }]);
  const watch = (name) => { const original = engine[name]; engine[name] = (arg) => { log.push([name, name === 'prefetch' ? arg.map((item) => item.id) : arg?.itemId ?? null]); return original.call(engine, arg); }; };
  watch('focus');
  watch('prefetch');
  const attach = engine.attach;
  engine.attach = (video) => {
    const player = attach.call(engine, video);
    const load = player.load;
    player.load = (item, options) => { log.push(['load', item.id]); return load.call(player, item, options); };
    return player;
  };
  await arrive();
  equal(log.slice(0, 4), [['load', 1], ['load', 2], ['focus', 1], ['prefetch', [2, 3]]],
    'the loads (in element order) before the foreground is named and prefetch runs: item 2 is held by its player then;');
  log.length = 0;
  next.load({ id: 4 });
  equal(log, [['load', 4]], 'with the engine here, the load is made before load() returns;');
  equal(playerOf(engine, next).itemId, 4);
});

test('only the top lease reaches the engine\'s foreground and prefetch; the next one\'s apply when it goes', async () => {
  const { playback, engine, arrive } = heldService();
  const feed = playback.lease({ name: 'feed', players: 3, layer: LAYER.base });
  feed.focus(feed.players[0]);
  feed.prefetch([{ id: 5 }, { id: 6 }]);
  await arrive();
  equal(engine.focused.at(-1) === playerOf(engine, feed.players[0]), true, 'applied once the engine arrived;');
  equal(engine.prefetched.at(-1), [5, 6]);
  const stories = playback.lease({ name: 'stories', players: 2, layer: LAYER.cover });
  equal([engine.focused.at(-1), engine.prefetched.at(-1)], [null, []], 'a screen on top starts with no foreground and nothing to warm;');
  const calls = [engine.focused.length, engine.prefetched.length];
  feed.focus(feed.players[0]);
  feed.prefetch([{ id: 7 }]);
  equal([engine.focused.length, engine.prefetched.length], calls, 'the feed behind the stories reaches nothing;');
  stories.focus(stories.players[0]);
  stories.prefetch([{ id: 20 }]);
  equal(engine.focused.at(-1) === playerOf(engine, stories.players[0]), true);
  equal(engine.prefetched.at(-1), [20]);
  stories.release();
  equal(engine.focused.at(-1) === playerOf(engine, feed.players[0]), true, 'the feed\'s player on screen is the foreground again;');
  equal(engine.prefetched.at(-1), [7], 'and its newest prefetch list applies;');
  feed.release();
  equal([engine.focused.at(-1), engine.prefetched.at(-1)], [null, []], 'no lease: no foreground, nothing warmed;');
});

test('an element changing hands: the loser hears first, the element as it left it; then it is reset; then the gainer hears', async () => {
  const { playback, arrive } = heldService();
  await arrive();
  const heard = [];
  const feed = playback.lease({
    name: 'feed', players: 3, layer: LAYER.base,
    onChange: () => heard.push(['feed', feed.players.length, document.body.contains(moved) && moved.classList.contains('feed-thing')]),
  });
  const moved = feed.players[2].video;
  moved.classList.add('feed-thing');
  moved.dataset.slot = '2';
  moved.loop = true;
  moved.muted = false;
  document.body.append(moved);
  const stories = playback.lease({ name: 'stories', players: 1, layer: LAYER.cover, onChange: () => heard.push(['stories', stories.players.length]) });
  equal(heard, [['feed', 2, true]], 'the feed heard first, its element untouched; the new lease hears nothing of what it got at once;');
  const [given] = stories.players;
  equal(given.video, moved);
  equal([moved.className, moved.isConnected, moved.loop, moved.muted, moved.paused], ['player', false, false, true, true],
    'reset: class, document, loop, sound and playing as the service made it;');
  equal([moved.dataset.slot, moved.dataset.element], ['2', '2'], 'data attributes are the holder\'s to remove (the element stays the same one);');
  assert(moved.playsInline && moved.hasAttribute('playsinline'), 'inline, as autoplay needs');
  stories.release();
  equal(heard.at(-1), ['feed', 3, false], 'the gainer hears after the reset;');
});

test('a lease that loses its elements may release in its onChange; the service deals again', async () => {
  const { playback, arrive } = heldService();
  await arrive();
  const watch = playback.lease({ name: 'watch', players: 3, layer: LAYER.cover, onChange: () => { if (watch.players.length < 3) watch.release(); } });
  const feed = playback.lease({ name: 'feed', players: 3, layer: LAYER.base });
  equal(feed.players.length, 0);
  const stories = playback.lease({ name: 'stories', players: 1, layer: LAYER.cover });
  equal([stories.players.length, watch.players.length, feed.players.length], [1, 0, 2], 'the full player let go of all three; the feed has the rest;');
  equal(new Set([...stories.players, ...feed.players].map((player) => player.index)).size, 3);
});

test('fresh URLs: the lease that loaded or prefetched the item renews it; else the service\'s; none: expired', async () => {
  const asked = [];
  const { playback, engine, arrive } = heldService({ refreshItem: async (item) => { asked.push(['app', item.id]); return item; } });
  await arrive();
  const feed = playback.lease({ name: 'feed', players: 1, layer: LAYER.base });
  const stories = playback.lease({ name: 'stories', players: 1, layer: LAYER.cover, refreshItem: async (item) => { asked.push(['stories', item.id]); return item; } });
  const feedItem = { id: 1 };
  const story = { id: 2 };
  const nextStory = { id: 3 };
  feed.players[0].load(feedItem);
  stories.players[0].load(story);
  stories.prefetch([nextStory]);
  await engine.refreshItem(feedItem, {});
  await engine.refreshItem(story, {});
  await engine.refreshItem(nextStory, {});
  equal(asked, [['app', 1], ['stories', 2], ['stories', 3]]);
  const bare = heldService();
  await bare.arrive();
  equal(await bare.engine.refreshItem({ id: 4 }, {}).then(() => 'refreshed', (error) => error.code), 'expired');
});

test('a player error after its load goes to the lease holding the element, for its item only', async () => {
  const { playback, engine, arrive } = heldService();
  await arrive();
  const errors = [];
  const feed = playback.lease({ name: 'feed', players: 3, layer: LAYER.base, onError: (player, error) => errors.push(['feed', player.index, error.code]) });
  const third = feed.players[2];
  third.load({ id: 8 });
  playerOf(engine, third).emit('error', { code: 'network' });
  const watch = playback.lease({ name: 'watch', players: 1, layer: LAYER.cover, onError: (player, error) => errors.push(['watch', player.index, error.code]) });
  const [mine] = watch.players;
  playerOf(engine, mine).emit('error', { code: 'decode' });   // nothing loaded by the watch yet
  mine.load({ id: 9 });
  playerOf(engine, mine).emit('error', { code: 'key' });
  equal(errors, [['feed', third.index, 'network'], ['watch', mine.index, 'key']]);
});

test('describe: who holds each element and what its player holds', async () => {
  const { playback, arrive } = heldService();
  const stories = playback.lease({ name: 'stories', players: 2, layer: LAYER.cover });
  equal(playback.describe().map((seat) => [seat.holder, seat.engineReady]), [['stories', false], ['stories', false], [null, false]]);
  await arrive();
  stories.players[1].load({ id: 77 });
  equal(playback.describe().map((seat) => seat.itemId), [null, 77, null]);
  equal(await playback.stats(), { players: 3 });
});

run();
