// Fresh media URLs for a post whose signed URLs stopped working (a 403/410: the token expired,
// or the server's secret was rotated). GET /api/v1/videos/{id} answers with the post and new
// URLs, which are swapped into the feed's item object in place, so the player, prefetch and the
// item's images all see them. At most two refetches per post per minute: a URL that still fails
// after that is the item's real failure, shown with its retry button (which forces a refetch).
// Two, not one: URLs refreshed because their window ended can be refused again seconds later
// when the server restarts with a new secret, and that second refusal is no fault of the post.

export const REFRESH_INTERVAL_MS = 60_000;
export const REFRESHES_PER_INTERVAL = 2;

/** The refetch was not made: the post was refreshed twice in the last minute. */
export class RefreshRefused extends Error {
  constructor(id) {
    super(`post ${id} was refreshed twice in the last minute`);
    this.code = 'expired';
  }
}

export function createMediaRefresher({ fetchItem, now = () => Date.now(), intervalMs = REFRESH_INTERVAL_MS, perInterval = REFRESHES_PER_INTERVAL }) {
  const last = new Map();      // post id → { at, media } of the last refetch that succeeded
  const recent = new Map();    // post id → times of its refetches within the last interval
  const inFlight = new Map();  // post id → Promise<media> of a refetch under way
  let refetches = 0;

  /** Swaps fresh URLs in; the rest of the item (likes, rating the user changed) stays. */
  function adopt(item, media) {
    if (item.media !== media) item.media = media;
    return item;
  }

  /**
   * Gives `item` fresh media URLs. `stale` is the `item.media` the failing request used: when
   * the item already holds others (someone refreshed it meanwhile) nothing is fetched.
   * `force` (the retry button) ignores the once-a-minute limit. Rejects with RefreshRefused,
   * or with the ApiError of the refetch (status 0 when the server could not be reached).
   */
  async function refresh(item, { stale = item.media, force = false } = {}) {
    if (item.media !== stale) return item;
    const running = inFlight.get(item.id);
    if (running) return adopt(item, await running);
    const previous = last.get(item.id);
    if (previous && previous.media !== stale && now() - previous.at < intervalMs) {
      return adopt(item, previous.media); // another copy of this post (the feed wrapped) was refreshed
    }
    const times = (recent.get(item.id) ?? []).filter((at) => now() - at < intervalMs);
    if (!force && times.length >= perInterval) throw new RefreshRefused(item.id);
    const fetching = fetchItem(item.id).then((fresh) => {
      if (!fresh?.media) throw new Error(`post ${item.id} came back without media`);
      last.set(item.id, { at: now(), media: fresh.media });
      recent.set(item.id, [...times, now()]);
      refetches += 1;
      return fresh.media;
    });
    inFlight.set(item.id, fetching);
    try {
      return adopt(item, await fetching);
    } finally {
      inFlight.delete(item.id);
    }
  }

  return {
    refresh,
    /** How many refetches succeeded on this page (for stats and tests). */
    get refetches() { return refetches; },
  };
}
