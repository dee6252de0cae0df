// Exactly three <video> elements, created once and recycled: each is moved into the item it is
// assigned to (so the on-screen item contains its video) and loaded through the engine. Only
// the current item's video may play or make sound; the others sit paused and muted, warm.
// Items are named by their feed position (`key`), not their API id: after the endless feed
// wraps, one post can appear twice, and each copy is its own place for a player.
//
// The three elements belong to the page, not to one feed: a feed started again (a new filter)
// reuses them, and the full player (js/watch/) borrows one through `borrowPlayer` instead of
// creating a fourth. A borrowed slot is invisible to the feed (`slots`, `assignment`, `apply`
// skip it) until it is given back; then the feed plans its players again (`onReturn`).
import { lendVideo, pageVideos, registerPool } from './video-lease.js';

export { borrowPlayer } from './video-lease.js';

export function createPlayerPool({ engine, size = 3, lookup, onReady, onError, onReturn = () => {} }) {
  const park = document.createElement('div');
  park.hidden = true;
  park.className = 'video-park';
  document.body.append(park);

  const slots = pageVideos().slice(0, size).map((video, index) => {
    video.loop = true;
    video.muted = true;
    video.dataset.slot = String(index);
    const lent = lendVideo(video);
    if (!lent) park.append(video);
    const slot = { video, player: lent ? null : engine.attach(video), key: null, ready: false, generation: 0, error: null, borrowed: lent };
    slot.player?.on?.('error', (error) => errorOf(slot, error));
    return slot;
  });

  function errorOf(slot, error) {
    const target = slot.key === null ? null : lookup(slot.key);
    if (target) onError(slot, target, error);
  }

  /** The slots the feed may use: every one not lent to the full player. */
  const available = () => slots.filter((slot) => !slot.borrowed);
  const slotFor = (key) => available().find((slot) => slot.key === key) ?? null;
  let focusedKey = null;

  function release(slot) {
    // A load cut short leaves its item's spinner behind otherwise.
    if (slot.key !== null) lookup(slot.key)?.element.classList.remove('loading');
    slot.generation += 1;
    slot.video.pause();
    slot.video.muted = true;
    slot.player.unload();
    slot.video.classList.remove('ready');
    slot.ready = false;
    slot.error = null;
    slot.key = null;
  }

  function load(slot, key) {
    const target = lookup(key);
    if (!target) { park.append(slot.video); return; }
    const { item, element } = target;
    slot.key = key;
    const generation = slot.generation;
    const stage = element.querySelector('.stage');
    stage.insertBefore(slot.video, stage.querySelector('.poster')?.nextSibling ?? stage.firstChild);
    element.classList.add('loading');
    slot.player.load(item).then(() => {
      if (generation !== slot.generation) return;
      slot.ready = true;
      slot.video.classList.add('ready');
      element.classList.remove('loading');
      onReady(slot, target);
    }, (error) => {
      if (generation !== slot.generation || error?.code === 'aborted') return;
      element.classList.remove('loading');
      slot.error = error;
      onError(slot, target, error);
    });
  }

  const pool = {
    get slots() { return available(); },
    /** Current assignment as feed positions (null = idle), in the order of `slots`. */
    assignment: () => available().map((slot) => slot.key),

    /** Applies a plan from planPool (over `slots`): players whose item changes are reloaded. */
    apply(plan) {
      const open = available();
      plan.forEach((key, index) => {
        const slot = open[index];
        if (!slot) return;
        if (slot.key === key) return;
        if (slot.key !== null || slot.generation > 0) release(slot);
        if (key === null) park.append(slot.video);
        else load(slot, key);
      });
    },

    /** Loads the item again in its player (the retry button). */
    reload(key) {
      const slot = slotFor(key);
      if (!slot) return;
      release(slot);
      load(slot, key);
    },

    slotFor,

    /**
     * Tells the engine which player is on screen (`key` null: none), so it downloads first.
     * While a borrower (stories, the full player) holds one of our elements, its screen covers
     * the feed and it names the player on screen: the feed replanning behind it (a page of
     * items arriving) must not hand the link back to a video nobody sees. takeBack replans.
     */
    focus(key) {
      focusedKey = key;
      if (!pool.lending) engine.focus(key === null ? null : slotFor(key)?.player ?? null);
    },

    /** Whether a borrower holds one of our elements (its screen is over the feed). */
    get lending() { return slots.some((slot) => slot.borrowed); },

    releaseAll() {
      available().forEach((slot) => { release(slot); park.append(slot.video); });
    },

    /**
     * Lends a player to the full player: an idle slot first, else one not on screen, else the
     * one on screen (the feed is hidden behind the full player then). Null if all are lent.
     */
    lend() {
      const open = available();
      const slot = open.find((candidate) => candidate.key === null)
        ?? open.find((candidate) => candidate.key !== focusedKey) ?? open[0];
      if (!slot) return null;
      if (slot.key !== null || slot.generation > 0) release(slot);
      // The borrower's screen covers the feed: until it names its own player on screen, no
      // feed video behind it holds the link (`focus` leaves the engine alone while lending).
      engine.focus(null);
      slot.borrowed = true;
      slot.video.loop = false;
      return { video: slot.video, player: slot.player, engine };
    },

    /** The full player is done with `video`: the feed may use it again. */
    takeBack(video, player) {
      const slot = slots.find((candidate) => candidate.video === video);
      if (!slot || !slot.borrowed) return;
      slot.borrowed = false;
      if (!slot.player || slot.player !== player) {   // lent by an earlier pool, or none: attach ours
        slot.player = engine.attach(video);
        slot.player.on?.('error', (error) => errorOf(slot, error));
      }
      slot.player.unload();
      slot.video.loop = true;
      slot.video.muted = true;
      park.append(slot.video);
      onReturn();
    },

    destroy() {
      engine.focus(null);
      registerPool(null, pool);
      // A lent slot keeps playing in the full player; the borrower detaches it when done.
      available().forEach((slot) => { release(slot); engine.detach(slot.player); });
      park.remove();
    },
  };
  registerPool(pool);
  return pool;
}
