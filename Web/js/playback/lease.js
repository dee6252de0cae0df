// What a client of the playback service (service.js) holds: a Lease, and through it the
// LeasedPlayers it was given, one per <video> element. Both are safe to keep after they end:
// a released lease and a revoked player do nothing (a load rejects as aborted), so a screen
// that closes while the engine is still loading, or whose element went to the screen opened
// over it, can never drive an element someone else holds.
import { abortedError } from '../player/errors.js';

/** One of the page's elements, lent to one lease. */
export class LeasedPlayer {
  /** `seat`: the service's { index, video, player } (player null until the engine arrived). */
  constructor(lease, seat) {
    this.lease = lease;
    this.seat = seat;
    this.active = true;
    this.itemId = null;
    this.pending = null;   // a load asked before the engine arrived: { item, options, resolve, reject }
  }

  /** The element while this lease holds it; null after (the next holder owns it then). */
  get video() { return this.active ? this.seat.video : null; }

  /** Which of the page's elements this is (0–2): stable for the element's life. */
  get index() { return this.seat.index; }

  /**
   * The engine's `player.load(item, options)` (README: the engine contract). Made at once when
   * the engine is here — in the same task, as the engine expects: the player holds the item
   * before the caller's focus and prefetch run (prefetch leaves an item a player holds to that
   * player) — else kept until it arrives (`start`). A load kept and then overtaken (another
   * load, an unload, the element revoked) rejects with code 'aborted' and never reaches it.
   */
  load(item, options) {
    if (!this.active) return Promise.reject(abortedError());
    this.itemId = item.id;
    this.lease.adopt(item);
    this.dropPending();
    if (this.seat.player) return this.seat.player.load(item, options);
    return new Promise((resolve, reject) => { this.pending = { item, options, resolve, reject }; });
  }

  /** The engine arrived (service.js): the load asked meanwhile is made now. */
  start() {
    const pending = this.pending;
    this.pending = null;
    if (pending && this.active) this.seat.player.load(pending.item, pending.options).then(pending.resolve, pending.reject);
  }

  unload() {
    if (!this.active) return;
    this.itemId = null;
    this.dropPending();
    this.seat.player?.unload();
  }

  /** The service took the element back (the holder hears it through its lease's onChange). */
  revoke() {
    this.active = false;
    this.itemId = null;
    this.dropPending();
  }

  dropPending() {
    const pending = this.pending;
    this.pending = null;
    pending?.reject(abortedError());
  }
}

/**
 * A client's claim on the page's elements (service.js `lease()`). `players` are the elements
 * it holds now; it says which one is on screen (`focus`) and what to warm next (`prefetch`),
 * which reach the engine while this lease is the top one (service.js).
 */
export class Lease {
  constructor(service, { name, players, layer, refreshItem, onChange, onError }, order) {
    this.service = service;
    this.name = name;
    this.wanted = players;
    this.layer = layer;
    this.order = order;
    this.refreshItem = refreshItem;
    this.onChange = onChange;
    this.onError = onError;
    this.active = true;
    this.focused = null;     // the LeasedPlayer on screen, or null
    this.prefetched = [];    // the items to warm, as last asked
  }

  /** The LeasedPlayers this lease holds now, in element order (none once released). */
  get players() { return this.active ? this.service.playersOf(this) : []; }

  /** The player whose video is on screen (null: none): its downloads go first. */
  focus(player) {
    if (!this.active) return;
    this.focused = player?.lease === this ? player : null;
    this.service.focusChanged(this);
  }

  /** Warm the starting rung of these items (the engine's prefetch; the newest list wins). */
  prefetch(items) {
    if (!this.active) return;
    this.prefetched = items.filter(Boolean);
    this.prefetched.forEach((item) => this.adopt(item));
    this.service.prefetchChanged(this);
  }

  /** Gives every element back. Safe to call again. */
  release() {
    if (!this.active) return;
    this.active = false;
    this.service.released(this);
  }

  /** The item's expired URLs are renewed by this lease's `refreshItem`, when it has one. */
  adopt(item) {
    if (this.refreshItem && item) this.service.refreshers.set(item, this.refreshItem);
  }

  /** How much `player` is worth keeping when the lease has to give one up (seats.js). */
  worth(player) {
    if (player === this.focused) return 2;
    return player.itemId === null ? 0 : 1;
  }
}
