// The engine stories use when no feed runs on the page (a deep link to /stories/{user} over
// Discover): created once. With a feed, a borrowed slot brings the feed's own engine. Expired
// media URLs are renewed from the person's page (GET /api/v1/stories/{user}).
import { loadEngine } from '../playback/engine-loader.js';
import { storiesApi } from './stories-api.js';

let enginePromise = null;
const owners = new Map();   // item id → username, for refreshing an item's URLs

export function rememberOwner(itemId, username) {
  owners.set(itemId, username);
}

async function refreshItem(item) {
  const username = owners.get(item.id);
  if (!username) throw Object.assign(new Error('Unknown story item.'), { code: 'expired' });
  const page = await storiesApi.person(username);
  const fresh = page.items.find((candidate) => candidate.id === item.id);
  if (!fresh) throw Object.assign(new Error('This story is gone.'), { code: 'expired' });
  item.media = fresh.media;
  return item;
}

export function storiesEngine() {
  enginePromise ??= loadEngine({ prefetch: true, maxPrefetchBytes: 6_000_000, refreshItem });
  return enginePromise;
}
