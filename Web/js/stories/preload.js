// The story player's media: photos through <img> + decode(), videos through the page's player
// pool (feed/video-lease.js). Two of the pool's three elements are borrowed — the item on
// screen and the one after it, loaded ahead so a tap starts from a warm player — and the engine
// prefetches the next person's first video; nothing here ever creates a <video>.
import { borrowPlayer } from '../feed/player-pool.js';
import { storiesEngine } from './engine.js';

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

export function createMediaDeck() {
  const slots = [];            // { lease, itemId, loading: Promise }
  const photos = new Map();    // item id → Promise<HTMLImageElement> (decoded)
  let borrowing = null;
  let released = false;

  function borrowAll() {
    borrowing ??= (async () => {
      while (slots.length < LEASES && !released) {
        const lease = await borrowPlayer({ engine: storiesEngine });
        if (!lease) break;
        if (released) { lease.giveBack(); break; }
        lease.video.loop = false;
        lease.video.classList.add('story-video');
        slots.push({ lease, itemId: null, loading: null });
      }
    })();
    return borrowing;
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
    slot.lease.video.pause();
    slot.lease.player.unload();
    slot.itemId = item.id;
    // Which story the element holds, for the story bench's per-tap diagnostics.
    slot.lease.video.dataset.storyItem = String(item.id);
    slot.loading = slot.lease.player.load(item, { lookahead: ahead });
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
      await borrowAll();
      if (released) return null;
      const slot = slotFor(item, keep);
      if (!slot) return null;
      slot.lease.engine.focus(slot.lease.player);
      return { video: slot.lease.video, player: slot.lease.player, loaded: slot.loading };
    },

    /** Warms what comes next: `next` into the other player (or decoded), `later` prefetched. */
    async preload(next, later, { current }) {
      if (preloadOff()) return;
      if (next?.kind === 'photo') this.photo(next).catch(() => {});
      if (later?.kind === 'photo') this.photo(later).catch(() => {});
      await borrowAll();
      if (released) return;
      if (next?.kind === 'video' && slots.length > 1) slotFor(next, current, { ahead: true });
      const engine = slots[0]?.lease.engine;
      const toPrefetch = [next, later].filter((item) => item?.kind === 'video' && !slotHolding(item.id));
      engine?.prefetch(toPrefetch);
    },

    /** Every element this deck holds (the tests count them against the pool). */
    get videos() { return slots.map((slot) => slot.lease.video); },

    release() {
      released = true;
      slots.splice(0).forEach((slot) => {
        slot.lease.video.classList.remove('story-video');
        delete slot.lease.video.dataset.storyItem;
        slot.lease.engine.focus(null);
        slot.lease.engine.prefetch([]);
        slot.lease.giveBack();
      });
    },
  };
}
