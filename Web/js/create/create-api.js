// The create screens' JSON calls (generations, jobs, posts). Same error shape as api.js: every
// failure is an ApiError carrying the server's {code, message} and, for 429, Retry-After.
import { ApiError } from '../api.js';

async function request(method, path, body) {
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

export const createApi = {
  providers: () => request('GET', '/api/v1/generations/providers'),
  generate: (body) => request('POST', '/api/v1/generations', body),
  generation: (id) => request('GET', `/api/v1/generations/${id}`),
  publishGeneration: (id, body) => request('POST', `/api/v1/generations/${id}/publish`, body),
  discardGeneration: (id) => request('POST', `/api/v1/generations/${id}/discard`),
  regenerate: (id, body) => request('POST', `/api/v1/generations/${id}/regenerate`, body),
  job: (id) => request('GET', `/api/v1/jobs/${id}`),
  video: (id) => request('GET', `/api/v1/videos/${id}`),
};
