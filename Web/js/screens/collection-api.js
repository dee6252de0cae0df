// The collection screen's owner calls (docs/catalog-api.md, "Collections"). Reads go through
// api.js (with the chosen library); these writes name the collection by id only.
import { request } from '../api.js';

export const collectionApi = {
  rename: (id, name) => request('PUT', `/api/v1/collections/${id}`, { name }),
  /** Reorder (and membership) in one call: the server keeps exactly this order. */
  setOrder: (id, postIds) => request('PUT', `/api/v1/collections/${id}`, { post_ids: postIds }),
  removeItem: (id, postId) => request('DELETE', `/api/v1/collections/${id}/items/${postId}`),
  remove: (id) => request('DELETE', `/api/v1/collections/${id}`),
};

/** Every item of a collection, page after page (the editor reorders the whole list). */
export async function allItems(api, id, { signal } = {}) {
  const items = [];
  let cursor = null;
  let first = null;
  do {
    const page = await api.collection(id, { cursor, limit: 60, signal });
    first ??= page;
    items.push(...(page.items ?? []));
    cursor = page.next_cursor ?? null;
  } while (cursor);
  return { collection: first, items };
}
