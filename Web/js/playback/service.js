// The page's one owner of playback: created once by the app's boot, it loads the player engine
// once (engine-loader.js) and owns the page's three <video> elements — never a fourth — each
// with the one engine player attached to it for the element's life. The feed, the story player
// and the full player are its clients: each takes a lease (how many players, which layer it
// sits on), plays the LeasedPlayers it is given, says which one is on screen and what to warm
// next, and releases the lease when it closes (lease.js).
//
// Why one owner: with an engine per screen and the elements shared through module state, two
// pools once drove the same three elements (a story opened while the engine loaded; git log
// 701349c), and a MediaSource swapped under a player made the story never start. Here an
// element has one player for life, and it is lent to one lease at a time.
//
// Who gets the elements: seats.js (the screen on top first, the feed plays on with the rest,
// the least valuable element is given up first). Only the top lease — the higher layer, then
// the newer — reaches the engine's foreground (arbiter.js) and prefetch: a feed replanning
// behind the stories must not hand the link to a video nobody sees. When the top lease goes,
// the next one's focus and prefetch list apply again.
//
// An element changing hands: its holder hears it first (`onChange`, the element still as it
// left it, so it can read the playhead and drop its listeners), then the element is put back
// as the service made it (paused, muted, no loop, no controls, class `player`, out of the
// document), then the new holder hears that it has it. Data attributes are left alone: the
// element is the same one for the page's life (a test marks it to see that), and a holder
// removes the ones it set.
import { loadEngine as loadEngineModule } from './engine-loader.js';
import { allocateSeats } from './seats.js';
import { Lease, LeasedPlayer } from './lease.js';

/** What covers what: the feed is the page's base; stories and the full player open over it. */
export const LAYER = Object.freeze({ base: 0, cover: 1 });
export const PAGE_VIDEO_COUNT = 3;

function pageVideo(index) {
  const video = document.createElement('video');
  video.className = 'player';
  video.muted = true;           // autoplay rules: muted and inline until a screen turns sound on
  video.playsInline = true;
  video.setAttribute('playsinline', '');
  video.preload = 'auto';
  video.dataset.element = String(index);
  return video;
}

/** Back as the service made it, for the next holder (the MediaSource stays: media-pipe.js). */
function resetVideo(video) {
  video.pause();
  video.muted = true;
  video.loop = false;
  video.controls = false;
  video.className = 'player';
  if (document.pictureInPictureElement === video) document.exitPictureInPicture().catch(() => {});
  video.remove();
}

const noFreshURLs = () => Promise.reject(Object.assign(new Error('No fresh URLs for this item.'), { code: 'expired' }));

/**
 * `engineOptions`: createEngine's (prefetch, maxPrefetchBytes, whenReachable …);
 * `refreshItem(item, { stale })`: fresh URLs for items whose lease brings no refresher of its
 * own. `loadEngine` is the engine module's loader (the unit tests pass a fake one).
 */
export function createPlaybackService({ engineOptions = {}, refreshItem = null, loadEngine = loadEngineModule, size = PAGE_VIDEO_COUNT } = {}) {
  const refreshers = new WeakMap();   // item → the refreshItem of the lease that handed it over
  const seats = Array.from({ length: size }, (_, index) => ({ index, video: pageVideo(index), player: null, holder: null }));
  const leases = [];                  // active, in the order they were taken
  let engine = null;
  let order = 0;
  let balancing = false;
  let again = false;
  let appliedTop = null;
  let startSoon = null;               // asked before the engine loaded: started when it has

  const refreshFor = (item) => refreshers.get(item) ?? refreshItem ?? noFreshURLs;
  const engineReady = Promise.resolve(loadEngine({ ...engineOptions, refreshItem: (item, options) => refreshFor(item)(item, options) }))
    .then((loaded) => {
      engine = loaded;
      for (const seat of seats) {
        seat.player = engine.attach(seat.video);
        // Errors after a load resolved (a later segment): to the lease holding the element, for its item only.
        seat.player.on?.('error', (error) => {
          const holder = seat.holder;
          if (holder?.active && holder.itemId !== null && holder.itemId === seat.player.itemId) holder.lease.onError(holder, error);
        });
      }
      if (startSoon) engine.startSoon?.(startSoon);
      startSoon = null;
      // The loads asked while the engine was on its way go now, then the top lease's focus and
      // prefetch: the order a screen uses when the engine is there (its players hold their
      // items before prefetch runs, the foreground is named once its load has begun).
      for (const seat of seats) seat.holder?.start();
      applyTop({ force: true });
      return engine;
    });

  /** Active leases, top first: the higher layer, then the newer. */
  const ranked = () => [...leases].sort((a, b) => b.layer - a.layer || b.order - a.order);
  const topLease = () => ranked()[0] ?? null;

  function applyTop({ force = false } = {}) {
    if (!engine) return;
    const top = topLease();
    const focused = top?.focused?.active ? top.focused.seat.player : null;
    engine.focus(focused ?? null);
    if (force || top !== appliedTop) engine.prefetch(top?.prefetched ?? []);
    appliedTop = top;
  }

  /** Deals the elements out again (seats.js) and tells the leases that lost or got one. */
  function rebalance() {
    if (balancing) { again = true; return; }
    balancing = true;
    try {
      do { again = false; rebalanceOnce(); } while (again);
    } finally {
      balancing = false;
    }
    applyTop();
  }

  function rebalanceOnce() {
    const live = ranked();
    const shares = allocateSeats(live.map((lease) => ({
      id: lease, wanted: lease.wanted,
      held: seats.filter((seat) => seat.holder?.lease === lease).map((seat) => ({ seat: seat.index, value: lease.worth(seat.holder) })),
    })), seats.length);
    const ownerOf = (seat) => live.find((lease) => shares.get(lease).includes(seat.index)) ?? null;
    const moves = seats.filter((seat) => (seat.holder?.lease ?? null) !== ownerOf(seat)).map((seat) => ({ seat, to: ownerOf(seat) }));
    if (moves.length === 0) return;
    const losers = new Set();
    for (const { seat } of moves) {
      if (!seat.holder) continue;
      seat.holder.revoke();
      losers.add(seat.holder.lease);
    }
    // First the losers, while the elements are as they left them.
    losers.forEach((lease) => notify(lease));
    const gainers = new Set();
    for (const { seat, to } of moves) {
      if (seat.holder) { seat.holder = null; seat.player?.unload(); resetVideo(seat.video); }
      if (!to?.active || seat.holder) continue;   // released meanwhile: dealt again by the next round
      seat.holder = new LeasedPlayer(to, seat);
      gainers.add(to);
    }
    gainers.forEach((lease) => notify(lease));
  }

  function notify(lease) {
    if (!lease.active || !lease.announced) return;
    try {
      lease.onChange();
    } catch (error) {
      console.error(`playback: the ${lease.name} lease's onChange failed`, error);
    }
  }

  const service = {
    refreshers,
    playersOf: (lease) => seats.filter((seat) => seat.holder?.lease === lease && seat.holder.active).map((seat) => seat.holder),
    focusChanged(lease) { if (lease === topLease()) applyTop(); },
    prefetchChanged(lease) {
      if (lease === topLease() && engine) engine.prefetch(lease.prefetched);
    },
    released(lease) {
      for (const seat of seats) {
        if (seat.holder?.lease !== lease) continue;
        seat.holder.revoke();
        seat.holder = null;
        seat.player?.unload();
        resetVideo(seat.video);
      }
      leases.splice(leases.indexOf(lease), 1);
      rebalance();
    },
  };

  return {
    /**
     * A claim on `players` of the page's elements. `layer`: LAYER.base (the feed) or
     * LAYER.cover (a screen over it). `onChange()`: the lease lost or got an element (read
     * `lease.players` again); never called for what it got at once. `onError(player, error)`:
     * a PlayerError after a load resolved. `refreshItem(item, { stale })`: fresh URLs for the
     * items this lease loads or prefetches (else the service's).
     */
    lease({ name = 'client', players = 1, layer = LAYER.cover, refreshItem: refresh = null, onChange = () => {}, onError = () => {} } = {}) {
      const lease = new Lease(service, { name, players, layer, refreshItem: refresh, onChange, onError }, order++);
      leases.push(lease);
      rebalance();
      lease.announced = true;   // from now on it hears about changes (it holds the lease object now)
      return lease;
    },

    /**
     * The item that will be on screen first (the feed's first page just arrived): its start is
     * fetched at once, before any player asks (player/quick-start.js).
     */
    startSoon(item) {
      if (engine) engine.startSoon?.(item);
      else startSoon = item;
    },

    /** The engine's stats() (README), once it has loaded. */
    stats: () => engineReady.then((loaded) => loaded.stats()),

    /**
     * Who holds each element now, for the tests and a bug report: the lease's name, the item
     * its engine player holds, whether it plays and sits in the document.
     */
    describe() {
      return seats.map((seat) => ({
        element: seat.index,
        holder: seat.holder?.lease.name ?? null,
        itemId: seat.player?.itemId ?? null,
        playing: !seat.video.paused,
        // The rung of the picture shown and the ladder ({ width, height }s), or null.
        rung: seat.player?.playingRung?.() ?? null,
        inDocument: seat.video.isConnected,
        engineReady: engine !== null,
      }));
    },

    /** Resolves once the engine has loaded (every load waits for it anyway). */
    ready: () => engineReady.then(() => undefined),
  };
}
