// Boot: GET /api/v1/me decides between the feed and the sign-in form.
import { api } from './api.js';
import { showLogin, hideLogin } from './auth/login.js';
import { logout } from './auth/logout.js';
import { startFeed } from './feed/feed.js';
import { loadEngine } from './engine-loader.js';
import { prefetchEnabled } from './feed/preferences.js';
import { watchConnectivity } from './ui/offline.js';
import { toggleHelp } from './ui/help.js';
import { showToast } from './ui/toast.js';
import { createMediaRefresher } from './feed/media-refresh.js';

let feed = null;
const connectivity = watchConnectivity({ onOnline: () => { feed ? feed.retry() : boot(); } });
// Expired or rotated media URLs: the post is refetched (once a minute at most) for fresh ones.
const refresher = createMediaRefresher({ fetchItem: (id) => api.video(id) });

const lookAhead = prefetchEnabled();
const enginePromise = loadEngine({
  prefetch: lookAhead, maxPrefetchBytes: 6_000_000,
  refreshItem: (item, options) => refresher.refresh(item, options),
  whenReachable: () => connectivity.whenBack(),
});
// For a bug report (and the tests): `await reelhouse.stats()` in the console shows what the
// player engine did on this page: prefetch hits, rung, failed items, players alive, and how
// often a post was refetched for fresh media URLs.
globalThis.reelhouse = { stats: async () => ({ ...(await enginePromise).stats(), mediaRefetches: refresher.refetches }) };

function currentTag() {
  return new URLSearchParams(location.search).get('tag') || null;
}

function renderFilter(tag) {
  const chip = document.getElementById('filter-chip');
  chip.hidden = !tag;
  chip.querySelector('.filter-name').textContent = tag ? `#${tag}` : '';
  chip.title = tag ? `#${tag}` : '';   // the chip may show it cut short
}

function setFilter(tag) {
  const url = new URL(location.href);
  if (tag) url.searchParams.set('tag', tag); else url.searchParams.delete('tag');
  history.replaceState(null, '', url);
  openFeed();
}

async function openFeed() {
  feed?.stop();
  hideLogin();
  document.getElementById('feed-view').hidden = false;
  const tag = currentTag();
  renderFilter(tag);
  feed = startFeed({
    engine: await enginePromise, lookAhead, tag, connectivity, refresher,
    onUnauthorized: () => openLogin(),
    onFilterChange: setFilter,
  });
}

function openLogin() {
  feed?.stop();
  feed = null;
  document.getElementById('feed-view').hidden = true;
  showLogin({ onSignedIn: openFeed });
}

async function boot() {
  const status = document.getElementById('boot-status');
  status.hidden = false;
  status.querySelector('p').textContent = 'Loading…';
  status.querySelector('button').hidden = true;
  try {
    await api.me();
    status.hidden = true;
    openFeed();
  } catch (error) {
    if (error.isUnauthorized) { status.hidden = true; openLogin(); return; }
    status.querySelector('p').textContent = error.isOffline ? 'You are offline. Reelhouse will retry when the connection is back.' : error.message;
    status.querySelector('button').hidden = false;
    if (error.isOffline) connectivity.showOffline();
  }
}

document.getElementById('boot-retry').addEventListener('click', boot);
document.getElementById('logout').addEventListener('click', async () => {
  try { await logout(); openLogin(); } catch { showToast("Couldn't sign out. Try again.", { kind: 'error' }); }
});
document.getElementById('help-button').addEventListener('click', toggleHelp);
document.getElementById('clear-filter').addEventListener('click', () => setFilter(null));

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js').catch(() => { /* the app works without it */ });
}

boot();
