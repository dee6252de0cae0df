// Profile's own calls (docs/catalog-api.md: Me, Library scope).
import { request, withQuery } from '../api.js';

export const profileApi = {
  me: () => request('GET', '/api/v1/me'),
  changePassword: (current, next) => request('PUT', '/api/v1/me/password', { current_password: current, new_password: next }),
  keys: () => request('GET', '/api/v1/me/keys'),
  createKey: (name) => request('POST', '/api/v1/me/keys', { name }),
  revokeKey: (id) => request('DELETE', `/api/v1/me/keys/${id}`),
  libraries: () => request('GET', '/api/v1/libraries'),
  health: () => request('GET', '/health'),
  openapi: () => request('GET', '/openapi.json'),
};

// For You's history and hidden lists (docs/recommendations-api.md, "History and hidden").
export const historyApi = {
  history: ({ cursor, limit } = {}) => request('GET', withQuery('/api/v1/me/history', { cursor, limit })),
  clearHistory: () => request('DELETE', '/api/v1/me/history'),
  forget: (postId) => request('DELETE', `/api/v1/me/history/${postId}`),
  notInterested: ({ cursor, limit } = {}) => request('GET', withQuery('/api/v1/me/not-interested', { cursor, limit })),
  undoNotInterested: (postId) => request('DELETE', `/api/v1/me/not-interested/${postId}`),
  hiddenUploaders: () => request('GET', '/api/v1/me/hidden-uploaders'),
  unhideUploader: (name) => request('DELETE', `/api/v1/me/hidden-uploaders/${encodeURIComponent(name)}`),
};
