// Like and rating: applied at once (optimistic), sent to the server, and rolled back with a
// toast if the server says no (to what the server has, with the saves still in flight on top:
// state/saves-in-order.js). Once saved, each is a watch event too (favorite / unfavorite /
// rating), in the order they were made: the state changes through its own route, For You
// learns from the event.
import { api } from '../api.js';
import { recordEvent } from '../events/index.js';
import { saveChange } from '../state/saves-in-order.js';
import { showToast } from '../ui/toast.js';
import { renderSocial } from './overlay.js';

function commit(item, element, change, send, failure, event, store) {
  const before = Object.fromEntries(Object.keys(change).map((field) => [field, item[field]]));
  Object.assign(item, change);
  renderSocial(element, item);
  return saveChange(item.id, { before, change }, send(), () => {
    recordEvent(event.type, item.id, event.fields);
    // The rest of the app follows (the Favorites tab appears with the first like).
    store.set('postChanged', { item });
  }, (error, shown) => {
    Object.assign(item, shown);
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
