// The story player's media: photos through <img> + decode(), videos through a lease of two of
// the page's three elements from the playback service (js/playback/) — the item on screen and
// the one after it, loaded ahead so a tap starts from a warm player — and the engine prefetches
// the next person's first video; nothing here ever creates a <video>. The lease is taken when
// the player first shows a video or looks ahead, and sits over the feed (LAYER.cover): the feed
// plays on with the element left to it, and gets the two back when the player closes.
import { LAYER } from '../playback/index.js';

const LEASES = 2;
const PHOTO_CACHE = 8;
/** `localStorage[PRELOAD_KEY] = 'off'` turns the look-ahead off (the story bench's baseline). */
export const PRELOAD_KEY = 'reelhouse.stories.preload';

function preloadOff() {
  try { return localStorage.getItem(PRELOAD_KEY) === 'off'; } catch { return false; }
}

/** The photo variant to show: the smallest at least as wide as the screen needs, else the largest. */
export function photoURL(item, cssWidth = window.innerWidth) {
  const variants = [...(item.media?.images?.[0] ?? [])].sort((a, b) => a.width - b.width);
  const needed = cssWidth * Math.min(window.devicePixelRatio || 1, 2);
  const pick = variants.find((variant) => variant.width >= needed) ?? variants.at(-1);
  return pick?.url ?? item.media?.poster?.url ?? null;
}

/**
 * `playback`: the page's playback service; `refreshItem`: fresh URLs for a story item
 * (media-refresh.js); `onLost(itemIds)`: elements holding these items were taken by a screen
 * opened over the stories (the player shows its item again, or says no player is free).
 */
export function createMediaDeck({ playback, refreshItem = null, onLost = () => {} }) {
  let slots = [];              // { player (a LeasedPlayer), video, itemId, loading: Promise }
  const photos = new Map();    // item id → Promise<HTMLImageElement> (decoded)
  let lease = null;
  let released = false;

  function takeLease() {
    if (lease || released) return;
    lease = playback.lease({ name: 'stories', players: LEASES, layer: LAYER.cover, refreshItem, onChange: sync });
    slots = lease.players.map(adopt);
  }

  function adopt(player) {
    player.video.loop = false;
    player.video.classList.add('story-video');
    return { player, video: player.video, itemId: null, loading: null };
  }

  /**
   * The element goes back: the attribute set here goes (the service resets the rest). Also when
   * the lease lost it: its onChange comes while the element is still as the deck left it.
   */
  function letGo(slot) {
    delete slot.video.dataset.storyItem;
  }

  /** The lease's players changed: drop the slots it lost (and say which items), adopt new ones. */
  function sync() {
    const live = lease.players;
    const gone = slots.filter((slot) => !live.includes(slot.player));
    gone.forEach(letGo);
    const lost = gone.map((slot) => slot.itemId).filter((id) => id !== null);
    slots = live.map((player) => slots.find((slot) => slot.player === player) ?? adopt(player));
    if (lost.length) onLost(lost);
  }

  function slotHolding(id) {
    return slots.find((slot) => slot.itemId === id) ?? null;
  }

  /**
   * A slot for `item`: the one holding it, else one not holding `keep` (the other item in use).
   * `ahead`: loaded for later, while another item plays (the engine lets its first segment in sooner).
   */
  function slotFor(item, keep, { ahead = false } = {}) {
    const holding = slotHolding(item.id);
    if (holding) return holding;
    const slot = slots.find((candidate) => candidate.itemId === null)
      ?? slots.find((candidate) => candidate.itemId !== keep) ?? null;
    if (!slot) return null;
    const { video } = slot.player;
    video.pause();
    slot.player.unload();
    slot.itemId = item.id;
    // Which story the element holds, for the story bench's per-tap diagnostics.
    video.dataset.storyItem = String(item.id);
    slot.loading = slot.player.load(item, { lookahead: ahead });
    slot.loading.catch(() => {});
    return slot;
  }

  return {
    /** Decoded <img> for a photo item (cached, so coming back is instant). */
    photo(item) {
      let promise = photos.get(item.id);
      if (!promise) {
        const image = new Image();
        image.className = 'story-photo';
        image.alt = item.caption ?? '';
        image.decoding = 'async';
        image.draggable = false;   // a mouse drag is a swipe, not an image drag (which cancels the pointer)
        image.src = photoURL(item) ?? '';
        promise = image.decode().then(() => image);
        promise.catch(() => photos.delete(item.id));
        photos.set(item.id, promise);
        while (photos.size > PHOTO_CACHE) photos.delete(photos.keys().next().value);
      }
      return promise;
    },

    /**
     * `{ video, player, loaded }` for the video item on screen; `keep` is the id of the item
     * preloaded next (its slot is left alone when another is free). Null when no element is free.
     */
    async video(item, { keep = null } = {}) {
      takeLease();
      if (released) return null;
      const slot = slotFor(item, keep);
      if (!slot) return null;
      lease.focus(slot.player);
      return { video: slot.player.video, loaded: slot.loading };
    },

    /** Warms what comes next: `next` into the other player (or decoded), `later` prefetched. */
    async preload(next, later, { current }) {
      if (preloadOff()) return;
      if (next?.kind === 'photo') this.photo(next).catch(() => {});
      if (later?.kind === 'photo') this.photo(later).catch(() => {});
      takeLease();
      if (released) return;
      if (next?.kind === 'video' && slots.length > 1) slotFor(next, current, { ahead: true });
      lease.prefetch([next, later].filter((item) => item?.kind === 'video' && !slotHolding(item.id)));
    },

    /** Every element this deck holds (the tests count them against the pool). */
    get videos() { return slots.map((slot) => slot.player.video); },

    /** The elements go back (the service resets them: class, sound, loop, playing). */
    release() {
      released = true;
      slots.forEach(letGo);
      slots = [];
      lease?.release();
    },
  };
}
