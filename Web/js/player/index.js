// The player engine the feed talks to (contract in Web/README.md): one Player per pooled
// <video>, a shared throughput estimate, prefetch into a bounded in-memory store, and an
// arbiter that gives the video on screen the network first.
import { playerError } from './errors.js';
import { ByteStore, createLoader } from './loader.js';
import { ThroughputEstimator, shortEdgeOf } from './abr.js';
import { Prefetcher } from './prefetch.js';
import { rememberedThroughput, throughputRecorder } from './link-memory.js';
import { LinkArbiter } from './arbiter.js';
import { MsePlayer, mediaSourceClass } from './mse-player.js';
import { NativePlayer, playsHlsNatively } from './native-player.js';
import { createRecovery } from './recovery.js';
import { fetchStart } from './quick-start.js';

class UnsupportedPlayer {
  constructor() { this.itemId = null; }
  on() {}
  load(item) {
    this.itemId = item.id;
    return Promise.reject(playerError('unsupported', 'this browser can play neither Media Source Extensions nor HLS'));
  }
  unload() { this.itemId = null; }
  destroy() { this.unload(); }
}

/**
 * `refreshItem(item, { stale })` swaps fresh media URLs into `item` (the feed refetches the
 * post) and `whenReachable()` resolves once the server answers again: with them a player
 * survives expired URLs, a rotated secret and a server restart (recovery.js). Both optional.
 * `quickStart` ({ early, parallel }, or false for neither) is what makes a first picture
 * sooner: `early`, startSoon (quick-start.js); `parallel`, a player's first segment and key
 * fetched beside its init section. Off: the swipe bench's "today's path".
 */
export function createEngine({ prefetch = true, maxPrefetchBytes = 6_000_000, prefetchSeconds = 2, refreshItem = null, whenReachable = null, quickStart = true } = {}) {
  // Playlists and keys the players read are kept here too, so the store is never tiny.
  const quick = typeof quickStart === 'object' ? { early: true, parallel: true, ...quickStart } : { early: quickStart, parallel: quickStart };
  const store = new ByteStore(Math.max(maxPrefetchBytes, 1_000_000));
  // Starts from the last visit's measure, so the first video need not start at the lowest rung.
  const estimator = new ThroughputEstimator({ initial: rememberedThroughput(), onChange: throughputRecorder() });
  const arbiter = new LinkArbiter();
  const loader = createLoader({ store, estimator, arbiter });
  const recovery = createRecovery({ refreshItem, whenReachable });
  const players = [];
  // Counters of players already detached, so stats() stays a total over the page's life.
  const retired = { mediaSourcesCreated: 0, sourceBufferReuses: 0, failedLoads: 0, stalls: 0, stallsRecovered: 0 };
  const total = (name) => players.reduce((sum, player) => sum + (player.stats?.[name] ?? 0), retired[name]);
  const held = (item) => players.some((player) => player.itemId === item.id);
  // The size the feed shows videos at: any pooled element's (they all fill the same stage).
  const shortEdge = () => {
    const video = players.find((player) => player.video?.isConnected)?.video;
    return video ? shortEdgeOf(video) : Infinity;
  };
  const prefetcher = new Prefetcher({ store, loader, estimator, seconds: prefetchSeconds, arbiter, held, recovery, shortEdge });
  let lastRendition = null;

  return {
    attach(video) {
      let player;
      if (mediaSourceClass()) player = new MsePlayer(video, { loader, estimator, arbiter, recovery, quickStart: quick.parallel });
      else if (playsHlsNatively(video)) player = new NativePlayer(video, { recovery });
      else player = new UnsupportedPlayer();
      player.on('level', (level) => { lastRendition = `${level.width}x${level.height}`; });
      players.push(player);
      return player;
    },
    /** Releases the player's element and forgets the player; its counters stay in stats(). */
    detach(player) {
      const index = players.indexOf(player);
      if (index < 0) return;
      player.destroy();
      for (const name of Object.keys(retired)) retired[name] += player.stats?.[name] ?? 0;
      players.splice(index, 1);
    },
    /** The player whose video is on screen (null for none): its downloads go first. */
    focus(player) {
      arbiter.focus(player?.hasCushion ? player : null);
    },
    prefetch(items) {
      if (prefetch) prefetcher.prefetch(items.filter(Boolean));
    },
    /**
     * The item about to go on screen first (the feed's first page just arrived): its start is
     * fetched at once, all of it together (quick-start.js), before a player asks for it.
     */
    startSoon(item) {
      if (quick.early && mediaSourceClass()) fetchStart(item, { store, estimator });
    },
    stats() {
      return {
        prefetchHits: store.hits,
        prefetchMisses: store.misses,
        bytesInMemory: store.bytes,
        throughputBps: estimator.bitsPerSecond,
        rendition: lastRendition,
        // Downloads that waited for the video on screen to have a cushion first.
        turnsHeld: arbiter.held,
        prefetchEnabled: prefetch,
        players: players.length,
        // Summed over every player the page had: a MediaSource per element, then reused per swipe.
        mediaSourcesCreated: total('mediaSourcesCreated'),
        sourceBufferReuses: total('sourceBufferReuses'),
        // Items that failed to load or to keep playing (a bad key, a decode error, a 404 …).
        failedLoads: total('failedLoads'),
        // Media downloads tried again after a transient failure (a drop, a 5xx, a 429).
        retries: loader.retries,
        // Stalls while playing (the playhead stuck, not at the end), and those it got out of.
        stalls: total('stalls'),
        stallsRecovered: total('stallsRecovered'),
      };
    },
  };
}
