// The stories routes (docs/stories-api.md) on the app's JSON helper. `storiesApiFrom(api)`
// lets a caller hand in its own implementation (`api.stories`), else these are used.
import { request, withQuery } from '../api.js';

const enc = encodeURIComponent;

export const storiesApi = {
  /** `{ tray:[entry], next_cursor }`: one entry per person, unseen first. */
  tray: ({ cursor, limit, signal } = {}) => request('GET', withQuery('/api/v1/stories', { cursor, limit }), undefined, { signal }),
  /** `{ user, is_me, first_unseen, items:[item] }`, oldest first; 404 when nothing is live. */
  person: (username, { signal } = {}) => request('GET', `/api/v1/stories/${enc(username)}`, undefined, { signal }),
  /** `{ accepted, ignored }`; idempotent. */
  seen: (ids) => request('POST', '/api/v1/stories/seen', { items: ids }),
  /** `{ id, liked }`. */
  like: (id, liked) => request(liked ? 'POST' : 'DELETE', `/api/v1/stories/items/${enc(id)}/like`),
};

export function storiesApiFrom(api) {
  return api?.stories ?? storiesApi;
}

/** Leaving the page: a keepalive request outlives it (the JSON body needs fetch, not a beacon). */
export function sendSeenKeepalive(ids) {
  return fetch('/api/v1/stories/seen', {
    method: 'POST', keepalive: true, credentials: 'same-origin',
    headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: ids }),
  }).catch(() => {});
}
