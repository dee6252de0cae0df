// Profile's own calls (docs/catalog-api.md: Me, Library scope).
import { request } from '../api.js';

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
