// The one place the web client talks to the server's JSON API. Same-origin fetches carry the
// HttpOnly session cookie; every failure becomes an ApiError with the server's {code, message}.
import { currentLibrary } from './state/library.js';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.name = 'ApiError';
    this.status = status;   // 0 when the request never reached the server
    this.code = code;
  }
  get isOffline() { return this.status === 0; }
  get isUnauthorized() { return this.status === 401; }
}

/** A JSON request; failures are ApiErrors (with `retryAfter` seconds when the server sent one). */
export async function request(method, path, body, { signal } = {}) {
  const init = { method, credentials: 'same-origin', headers: { accept: 'application/json' }, signal };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error?.name === 'AbortError') throw error;   // the caller cancelled it: not "offline"
    throw new ApiError(0, 'offline', 'The server could not be reached.');
  }
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { /* not JSON: handled below */ }
  if (!response.ok) {
    const error = json?.error ?? {};
    const failure = new ApiError(response.status, error.code ?? `http_${response.status}`, error.message ?? `Request failed (${response.status}).`);
    failure.retryAfter = Number(response.headers.get('retry-after')) || null;
    throw failure;
  }
  return json;
}

/** `path?query` with the empty values left out (null, undefined, ''). */
export function withQuery(path, params = {}) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** A listing call: the chosen library (state/library.js) goes with it, and the abort signal. */
function list(path, params, signal) {
  return request('GET', withQuery(path, { ...params, library: currentLibrary() ?? undefined }), undefined, { signal });
}

export const api = {
  me: () => request('GET', '/api/v1/me'),
  login: (username, password) => request('POST', '/api/v1/session', { username, password }),
  logout: () => request('DELETE', '/api/v1/session'),
  tags: () => request('GET', '/api/v1/tags'),
  /** Transcode jobs the viewer may see, newest first (the feed's "preparing" state). */
  transcodes: () => request('GET', '/api/v1/jobs?kind=transcode&limit=50'),

  /**
   * One page of the endless feed; `filter` holds tags / kind / favorites / min_rating, `mode`
   * is for_you / shuffle / latest (none: the server chooses and says which in `mode`).
   */
  feed({ cursor, limit, filter = {}, mode = null }) {
    return list('/api/v1/feed', { ...filter, mode, cursor, limit });
  },

  // Catalog listings (docs/catalog-api.md): each answers {items, next_cursor} (discover: shelves).
  discover: ({ signal } = {}) => list('/api/v1/discover', {}, signal),
  shelf: (id, { cursor, limit, signal } = {}) => list(`/api/v1/shelves/${encodeURIComponent(id)}`, { cursor, limit }, signal),
  /** `params`: sort, order, tags, exclude_tags, uploader, kind, min/max_duration, favorites, min_rating, seen. */
  browse: (params, { cursor, limit, signal } = {}) => list('/api/v1/browse', { ...params, cursor, limit }, signal),
  search: (q, { cursor, limit, signal } = {}) => list('/api/v1/search', { q, cursor, limit }, signal),
  favorites: ({ cursor, limit, signal } = {}) => list('/api/v1/favorites', { cursor, limit }, signal),
  collections: ({ signal } = {}) => list('/api/v1/collections', {}, signal),
  collection: (id, { cursor, limit, signal } = {}) => list(`/api/v1/collections/${encodeURIComponent(id)}`, { cursor, limit }, signal),
  libraries: () => request('GET', '/api/v1/libraries'),
  recentSearches: () => request('GET', '/api/v1/me/searches'),
  recordSearch: (query) => request('POST', '/api/v1/me/searches', { query }),
  clearSearches: () => request('DELETE', '/api/v1/me/searches'),

  /** One post with freshly signed media URLs (the feed's item shape). */
  video: (id) => request('GET', `/api/v1/videos/${id}`),

  setFavorite: (id, favorited) => request(favorited ? 'POST' : 'DELETE', `/api/v1/videos/${id}/favorite`),
  setRating: (id, rating) => request('PUT', `/api/v1/videos/${id}/rating`, { rating }),
  markSeen: (id) => request('POST', `/api/v1/videos/${id}/seen`),
};
