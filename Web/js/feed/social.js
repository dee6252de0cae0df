// Like and rating: applied at once (optimistic), sent to the server, and rolled back with a
// toast if the server says no. Once saved, each is a watch event too (favorite / unfavorite /
// rating): the state changes through its own route, For You learns from the event.
import { api } from '../api.js';
import { recordEvent } from '../events/index.js';
import { showToast } from '../ui/toast.js';
import { renderSocial } from './overlay.js';

async function commit(item, element, change, send, failure, event) {
  const before = { is_favorited: item.is_favorited, rating: item.rating };
  Object.assign(item, change);
  renderSocial(element, item);
  try {
    await send();
    recordEvent(event.type, item.id, event.fields);
    // The rest of the app follows (the Favorites tab appears with the first like).
    window.dispatchEvent(new CustomEvent('reelhouse:post-changed', { detail: { item } }));
  } catch (error) {
    Object.assign(item, before);
    renderSocial(element, item);
    showToast(error?.isOffline ? `${failure} You seem to be offline.` : failure, { kind: 'error' });
  }
}

export function setLiked(item, element, liked) {
  if (Boolean(item.is_favorited) === liked) return Promise.resolve();
  return commit(item, element, { is_favorited: liked }, () => api.setFavorite(item.id, liked),
    liked ? "Couldn't save your like." : "Couldn't remove your like.", { type: liked ? 'favorite' : 'unfavorite' });
}

export function setRating(item, element, rating) {
  return commit(item, element, { rating }, () => api.setRating(item.id, rating), "Couldn't save your rating.",
    { type: 'rating', fields: { value: rating } });
}
