// The feed's players: a lease of the page's three <video> elements from the playback service
// (js/playback/), recycled: each is moved into the item it is assigned to (so the on-screen
// item contains its video) and loaded through the engine. Only the current item's video may
// play or make sound; the others sit paused and muted, warm.
// Items are named by their feed position (`key`), not their API id: after the endless feed
// wraps, one post can appear twice, and each copy is its own place for a player.
//
// The feed is the page's base layer: the story player and the full player, opened over it,
// take elements from this lease (an idle one first, the one on screen last). A slot whose
// element was taken vanishes from `slots` at once; when the element comes back it is a new,
// idle slot; either way `onSeatsChange` lets the feed plan its players again.
import { LAYER } from '../playback/index.js';

export function createPlayerPool({ playback, lookup, onReady, onError, onSeatsChange = () => {} }) {
  const park = document.createElement('div');
  park.hidden = true;
  park.className = 'video-park';
  document.body.append(park);

  let slots = [];   // { player (a LeasedPlayer), video, key, ready, generation, error }
  const lease = playback.lease({
    name: 'feed', players: 3, layer: LAYER.base,
    onChange: () => { if (sync()) onSeatsChange(); },
    onError: (player, error) => {
      const slot = slots.find((candidate) => candidate.player === player);
      const target = slot && slot.key !== null ? lookup(slot.key) : null;
      if (target) onError(slot, target, error);
    },
  });

  function adopt(player) {
    const { video } = player;
    video.loop = true;
    video.muted = true;
    park.append(video);
    return { player, video, key: null, ready: false, generation: 0, error: null };
  }

  /** `slots` follows the lease's players; true when any came or went. */
  function sync() {
    const live = lease.players;
    let changed = false;
    for (const slot of slots) {
      if (live.includes(slot.player)) continue;
      // Taken by a screen over the feed: its item's spinner goes, its late load is ignored.
      if (slot.key !== null) lookup(slot.key)?.element.classList.remove('loading');
      slot.generation += 1;
      changed = true;
    }
    slots = live.map((player) => slots.find((slot) => slot.player === player) ?? (changed = true, adopt(player)));
    return changed;
  }
  sync();

  const slotFor = (key) => slots.find((slot) => slot.key === key) ?? null;

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

  return {
    /** The slots the feed holds now (fewer while a screen over the feed holds elements). */
    get slots() { return slots; },
    /** Current assignment as feed positions (null = idle), in the order of `slots`. */
    assignment: () => slots.map((slot) => slot.key),

    /** Applies a plan from planPool (over `slots`): players whose item changes are reloaded. */
    apply(plan) {
      const open = slots;
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
     * Names the player on screen (`key` null: none), so its downloads go first. While a screen
     * over the feed holds the lease's top place, the service keeps this for when it closes.
     */
    focus(key) {
      lease.focus(key === null ? null : slotFor(key)?.player ?? null);
    },

    /** The items to warm next (the engine's prefetch, while the feed is the screen on top). */
    prefetch(items) { lease.prefetch(items); },

    destroy() {
      slots.forEach((slot) => release(slot));
      slots = [];
      lease.release();
      park.remove();
    },
  };
}
