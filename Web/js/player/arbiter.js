// Who may use the network now. On a slow link every download shares the same bytes per second,
// so a neighbour player or a prefetch started at the wrong moment delays the segment the video
// on screen is about to need, and it stalls. The feed names the player on screen (the
// foreground); everyone else waits for a turn until that player has a cushion buffered ahead
// (or has everything it needs). Downloads already under way finish; only new ones wait.
import { abortedError } from './errors.js';

// Two of our 2 s segments; a little under 4, because the buffered range (audio and video
// intersected) ends just short of the segment boundary.
const CUSHION_SECONDS = 3.5;
// A player loading the item a tap shows next (a story's look-ahead: `startingAhead`, see
// MsePlayer.load's `lookahead`) needs only its first segment in before that tap. Held behind
// the full cushion, it started ~2.4 s after a 1 Mbit/s story came on screen (two heavy segments
// to fetch first on 1.6 Mbit/s), and the story bench's taps 2.5 s apart waited ~1 s for its
// first frame. So its first segment may go once the video on screen has one segment and a
// margin ahead, and its playlists, key and init section (a few hundred bytes each, nothing the
// video on screen would feel, but a round trip each) go at once.
const AHEAD_CUSHION_SECONDS = 2.5;
const RECHECK_MS = 250;    // a backstop: the playhead moving (or a seek) changes the cushion too

export class LinkArbiter {
  constructor({ cushionSeconds = CUSHION_SECONDS, aheadCushionSeconds = AHEAD_CUSHION_SECONDS } = {}) {
    this.cushionSeconds = cushionSeconds;
    this.aheadCushionSeconds = aheadCushionSeconds;
    this.foreground = null;
    this.waiting = new Set(); // { player, resolve }
    this.timer = null;
    this.held = 0;            // turns that had to wait, for stats
  }

  /** The player whose video is on screen, or null (an image, an empty feed). */
  focus(player) {
    this.foreground = player ?? null;
    this.changed();
  }

  /**
   * Whether `player` (null for prefetch) may start a download now; `light`: a playlist, key or
   * init section rather than a media segment.
   */
  mayDownload(player, { light = false } = {}) {
    const foreground = this.foreground;
    if (foreground === null || player === foreground) return true;
    // The small files of a look-ahead and of the prefetch go at once. Held behind the cushion
    // with the prefetch's segments, a heavy clip on screen left the next item's four round trips
    // (master, playlist, key, init) for the last second before the swipe, and its first segment
    // missed it (swipe bench p95).
    if (light && (player === null || player.startingAhead)) return true;
    if (player?.startingAhead) return foreground.hasCushion(this.aheadCushionSeconds);
    return foreground.hasCushion(this.cushionSeconds);
  }

  /** Resolves when `player` may start a download; rejects with the signal's abort. */
  turn(player, signal, { light = false } = {}) {
    if (this.mayDownload(player, { light })) return Promise.resolve();
    this.held += 1;
    return new Promise((resolve, reject) => {
      const waiter = { player, light, resolve: () => { cleanup(); resolve(); } };
      const aborted = () => { cleanup(); reject(abortedError()); };
      const cleanup = () => { this.waiting.delete(waiter); signal?.removeEventListener('abort', aborted); };
      if (signal?.aborted) { aborted(); return; }
      signal?.addEventListener('abort', aborted, { once: true });
      this.waiting.add(waiter);
      this.schedule();
    });
  }

  /** Something moved (an append, an unload, a new foreground): let through whoever may go now. */
  changed() {
    for (const waiter of [...this.waiting]) {
      if (this.mayDownload(waiter.player, waiter)) waiter.resolve();
    }
    this.schedule();
  }

  schedule() {
    if (this.waiting.size === 0) { clearTimeout(this.timer); this.timer = null; return; }
    if (this.timer === null) this.timer = setTimeout(() => { this.timer = null; this.changed(); }, RECHECK_MS);
  }
}
