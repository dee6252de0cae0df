// Like and rating: applied at once (optimistic), sent to the server, and rolled back with a
// toast if the server says no. Once saved, each is a watch event too (favorite / unfavorite /
// rating), in the order they were made (state/saves-in-order.js): the state changes through
// its own route, For You learns from the event.
import { api } from '../api.js';
import { recordEvent } from '../events/index.js';
import { afterEarlierSaves } from '../state/saves-in-order.js';
import { showToast } from '../ui/toast.js';
import { renderSocial } from './overlay.js';

function commit(item, element, change, send, failure, event, store) {
  const before = { is_favorited: item.is_favorited, rating: item.rating };
  Object.assign(item, change);
  renderSocial(element, item);
  return afterEarlierSaves(send(), () => {
    recordEvent(event.type, item.id, event.fields);
    // The rest of the app follows (the Favorites tab appears with the first like).
    store.set('postChanged', { item });
  }, (error) => {
    Object.assign(item, before);
    renderSocial(element, item);
    showToast(error?.isOffline ? `${failure} You seem to be offline.` : failure, { kind: 'error' });
  });
}

/** `store`: the app's (state/store.js), told `postChanged` once the server saved it. */
export function setLiked(item, element, liked, { store }) {
  if (Boolean(item.is_favorited) === liked) return Promise.resolve();
  return commit(item, element, { is_favorited: liked }, () => api.setFavorite(item.id, liked),
    liked ? "Couldn't save your like." : "Couldn't remove your like.", { type: liked ? 'favorite' : 'unfavorite' }, store);
}

export function setRating(item, element, rating, { store }) {
  return commit(item, element, { rating }, () => api.setRating(item.id, rating), "Couldn't save your rating.",
    { type: 'rating', fields: { value: rating } }, store);
}
