// The owner's routes of stories (docs/stories-api.md): who saw an item, keep it as a post,
// delete it, and the archive of one's own items (live and expired).
import { request, withQuery } from '../api.js';

const enc = encodeURIComponent;

export const storiesOwnerApi = {
  /** `{ viewers:[{ user, seen_at, liked }], next_cursor }`, newest first; 403 unless yours. */
  viewers: (id, { cursor, limit, signal } = {}) =>
    request('GET', withQuery(`/api/v1/stories/items/${enc(id)}/viewers`, { cursor, limit }), undefined, { signal }),
  /** The item, `kept: true`: it is a post in the library from now on. */
  keep: (id) => request('POST', `/api/v1/stories/items/${enc(id)}/keep`),
  /** 204; the post and its media go. */
  remove: (id) => request('DELETE', `/api/v1/stories/items/${enc(id)}`),
  /** `{ items:[item], next_cursor }`: your own items, newest first. */
  archive: ({ cursor, limit, signal } = {}) => request('GET', withQuery('/api/v1/stories/archive', { cursor, limit }), undefined, { signal }),
};

/** An item is expired once its `expires_at` has passed (the archive holds both kinds). */
export function isExpired(item, now = Date.now()) {
  const end = Date.parse(item?.expires_at ?? '');
  return Number.isFinite(end) && end <= now;
}
