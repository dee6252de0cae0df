// The detail sheet's own calls (docs/catalog-api.md: Videos, Collections, Resume).
import { request, api } from '../api.js';

export const detailApi = {
  video: (id) => request('GET', `/api/v1/videos/${id}`),
  edit: (id, change) => request('PUT', `/api/v1/videos/${id}`, change),
  remove: (id) => request('DELETE', `/api/v1/videos/${id}`),
  setFavorite: (id, favorited) => api.setFavorite(id, favorited),
  setRating: (id, rating) => api.setRating(id, rating),
  collections: () => request('GET', '/api/v1/collections'),
  createCollection: (name, postIds = []) => request('POST', '/api/v1/collections', { name, post_ids: postIds }),
  addToCollection: (collectionId, postId) => request('POST', `/api/v1/collections/${collectionId}/items`, { post_id: postId }),
  me: () => request('GET', '/api/v1/me'),
  savePosition: (id, seconds) => request('PUT', `/api/v1/videos/${id}/position`, { seconds }),
};
