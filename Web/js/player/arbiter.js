// Who may use the network now. On a slow link every download shares the same bytes per second,
// so a neighbour player or a prefetch started at the wrong moment delays the segment the video
// on screen is about to need, and it stalls. The feed names the player on screen (the
// foreground); everyone else waits for a turn until that player has a cushion buffered ahead
// (or has everything it needs). Downloads already under way finish; only new ones wait.
import { abortedError } from './errors.js';

// Two of our 2 s segments; a little under 4, because the buffered range (audio and video
// intersected) ends just short of the segment boundary.
const CUSHION_SECONDS = 3.5;
const RECHECK_MS = 250;    // a backstop: the playhead moving (or a seek) changes the cushion too

export class LinkArbiter {
  constructor({ cushionSeconds = CUSHION_SECONDS } = {}) {
    this.cushionSeconds = cushionSeconds;
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

  /** Whether `player` (null for prefetch) may start a download now. */
  mayDownload(player) {
    const foreground = this.foreground;
    return foreground === null || player === foreground || foreground.hasCushion(this.cushionSeconds);
  }

  /** Resolves when `player` may start a download; rejects with the signal's abort. */
  turn(player, signal) {
    if (this.mayDownload(player)) return Promise.resolve();
    this.held += 1;
    return new Promise((resolve, reject) => {
      const waiter = { player, resolve: () => { cleanup(); resolve(); } };
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
      if (this.mayDownload(waiter.player)) waiter.resolve();
    }
    this.schedule();
  }

  schedule() {
    if (this.waiting.size === 0) { clearTimeout(this.timer); this.timer = null; return; }
    if (this.timer === null) this.timer = setTimeout(() => { this.timer = null; this.changed(); }, RECHECK_MS);
  }
}
