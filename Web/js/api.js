// The one place the web client talks to the server's JSON API. Same-origin fetches carry the
// HttpOnly session cookie; every failure becomes an ApiError with the server's {code, message}.

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
export async function request(method, path, body) {
  const init = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
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

export const api = {
  me: () => request('GET', '/api/v1/me'),
  login: (username, password) => request('POST', '/api/v1/session', { username, password }),
  logout: () => request('DELETE', '/api/v1/session'),
  tags: () => request('GET', '/api/v1/tags'),

  /** One page of the endless feed; `filter` holds tags / kind / favorites / min_rating. */
  feed({ cursor, limit, filter = {} }) {
    const query = new URLSearchParams();
    if (cursor) query.set('cursor', cursor);
    if (limit) query.set('limit', String(limit));
    for (const [key, value] of Object.entries(filter)) {
      if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
    }
    return request('GET', `/api/v1/feed?${query}`);
  },

  /** One post with freshly signed media URLs (the feed's item shape). */
  video: (id) => request('GET', `/api/v1/videos/${id}`),

  setFavorite: (id, favorited) => request(favorited ? 'POST' : 'DELETE', `/api/v1/videos/${id}/favorite`),
  setRating: (id, rating) => request('PUT', `/api/v1/videos/${id}/rating`, { rating }),
  markSeen: (id) => request('POST', `/api/v1/videos/${id}/seen`),
};
