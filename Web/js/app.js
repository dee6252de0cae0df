// Boot: GET /api/v1/me decides between the app and the sign-in form. The app is the feed at
// `/` plus the screens of the router (router.js, screen-host.js); the URL the person opened
// is kept through the sign-in form, so a deep link lands where it points after signing in.
import { api } from './api.js';
import { showLogin, hideLogin } from './auth/login.js';
import { startFeed } from './feed/feed.js';
import { listFromQuery, listLabel } from './feed/list-source.js';
import { createPlaybackService } from './playback/index.js';
import { prefetchEnabled, quickStartLevers } from './ui/preferences.js';
import { watchConnectivity } from './ui/offline.js';
import { startStoriesOffline } from './ui/stories-offline.js';
import { toggleHelp } from './ui/help.js';
import { createMediaRefresher } from './feed/media-refresh.js';
import { createRouter } from './router.js';
import { createScreenHost } from './screen-host.js';
import { createNav } from './nav/nav.js';
import { setLibraryUser, currentLibrary } from './state/library.js';
import { createStore } from './state/store.js';
import { mountTray } from './stories/index.js';
import { startEvents, pendingEvents } from './events/index.js';
import { storedMode, wireModeSwitch } from './feed/feed-mode.js';

let feed = null;
let feedKey = null;     // the feed's query (tag, or the list it plays): the same one is kept
let user = null;
let signedIn = false;
let feedTray = null;    // the stories tray over the feed (js/stories/tray.js)
// The app's state (state/store.js): the chosen library, the session, posts changed or deleted,
// stories changed; handed to every feature that reads or changes it.
const store = createStore();
startStoriesOffline({ store });   // the player's offline banner and the stories' way back online
const connectivity = watchConnectivity({ onOnline: () => { feed ? feed.retry() : (signedIn ? null : boot()); } });
// Expired or rotated media URLs: the post is refetched (once a minute at most) for fresh ones.
const refresher = createMediaRefresher({ fetchItem: (id) => api.video(id) });

const lookAhead = prefetchEnabled();
const quickStart = quickStartLevers();
// The page's one owner of playback (js/playback/): the engine, loaded once, and the three
// <video> elements. The feed, the story player and the full player lease their players from it.
// Items whose lease brings no refresher of its own (the feed's, the full player's) get fresh
// URLs by refetching the post.
const playback = createPlaybackService({
  engineOptions: { prefetch: lookAhead, maxPrefetchBytes: 6_000_000, whenReachable: () => connectivity.whenBack(), quickStart },
  refreshItem: (item, options) => refresher.refresh(item, options),
});
// For a bug report (and the tests): `await reelhouse.stats()` in the console shows what the
// player engine did on this page: prefetch hits, rung, failed items, players alive, and how
// often a post was refetched for fresh media URLs, and how many watch events wait to be sent;
// `reelhouse.playback()` who holds each of the three elements and what it plays.
globalThis.reelhouse = {
  stats: async () => ({ ...(await playback.stats()), mediaRefetches: refresher.refetches, pendingEvents: pendingEvents() }),
  playback: () => playback.describe(),
  store,
};

const router = createRouter({ onRoute: (route) => showRoute(route) });
const nav = createNav(document.getElementById('app-nav'), { api, store });
// For You · Shuffle · Latest: picking one plays the feed again in that order (same filter,
// same three players).
const modeSwitch = wireModeSwitch(document.getElementById('feed-modes'), { onChange: () => restartFeed() });

function renderChip(label) {
  const chip = document.getElementById('filter-chip');
  chip.hidden = !label;
  chip.querySelector('.filter-name').textContent = label ?? '';
  chip.title = label ?? '';   // the chip may show it cut short
}

function setFilter(tag) {
  router.navigate(tag ? `/?tag=${encodeURIComponent(tag)}` : '/', { replace: true });
}

/** The feed's part of a `/` URL: the same key means the same feed (kept where it was). */
function feedKeyOf(query) {
  const key = new URLSearchParams(query);
  key.delete('prefetch');
  key.delete('quickstart');
  key.sort();
  return key.toString();
}

let feedVisible = false;
const feedScreen = {
  show(query) {
    feedVisible = true;
    document.getElementById('feed-view').hidden = false;
    const key = feedKeyOf(query);
    // The same feed (stories opened from the tray show the feed under them again): kept where
    // it was, with its pages and its lease of the players.
    if (feed && key === feedKey) { feed.setActive(true); return; }
    feed?.stop();
    feedKey = key;
    const list = listFromQuery(query);
    // `?tags=` as Browse spells it works too (the feed's chip holds one tag: the first).
    const tag = list ? null : query.get('tag') || query.get('tags')?.split(',').map((t) => t.trim()).find(Boolean) || null;
    renderChip(list ? listLabel(list) : tag ? `#${tag}` : null);
    const mode = list ? null : storedMode();
    modeSwitch.setVisible(!list);
    modeSwitch.show(mode);
    // Started at once, the engine or not: its players' loads wait for the engine (js/playback/).
    feed = startFeed({
      playback, store, lookAhead, tag, list, connectivity, refresher, mode, holdImages: quickStart.posters,
      onMode: (played) => { if (feedKey === key) modeSwitch.show(played); },
      onUnauthorized: () => openLogin(),
      onFilterChange: setFilter,
      onRestart: restartFeed,
    });
  },
  hide() {
    feedVisible = false;
    document.getElementById('feed-view').hidden = true;
    feed?.setActive(false);
  },
};

/** The feed again from its first page (another mode): kept where the person is. */
function restartFeed() {
  if (!feed) return;
  feed.stop();
  feed = null;
  feedKey = null;
  if (feedVisible) feedScreen.show(new URLSearchParams(location.search));
}

const host = createScreenHost({ api, navigate: router.navigate, feed: feedScreen, nav, getUser: () => user, playback, store });

function showRoute(route) {
  if (!signedIn) return;
  if (route.name === 'create') {
    // Create is a page of its own (its camera and previews stay off the shell's three players).
    location.replace(`/create.html${location.hash}`);
    return;
  }
  host.show(route);
}

function openApp() {
  signedIn = true;
  store.set('session', 'signed-in');
  hideLogin();
  document.body.classList.add('signed-in');
  feedTray ??= mountTray(document.getElementById('feed-stories'), { api, navigate: router.navigate, store });
  startEvents();
  router.start();
}

function openLogin() {
  signedIn = false;
  store.set('session', 'signed-out');
  feed?.stop();
  feed = null;
  feedKey = null;
  feedTray?.destroy();
  feedTray = null;
  host.clear();
  document.body.classList.remove('signed-in');
  document.getElementById('feed-view').hidden = true;
  // The URL stays as it is: after signing in, the app opens exactly there.
  showLogin({ onSignedIn: () => boot() });
}

async function boot() {
  const status = document.getElementById('boot-status');
  status.hidden = false;
  status.querySelector('p').textContent = 'Loading…';
  status.querySelector('button').hidden = true;
  try {
    user = await api.me();
    setLibraryUser(user?.id);
    store.set('library', currentLibrary());   // this person's choice (a change of user is no change of library to reload for)
    status.hidden = true;
    openApp();
  } catch (error) {
    if (error.isUnauthorized) { status.hidden = true; openLogin(); return; }
    status.querySelector('p').textContent = error.isOffline ? 'You are offline. Reelhouse will retry when the connection is back.' : error.message;
    status.querySelector('button').hidden = false;
    if (error.isOffline) connectivity.showOffline();
  }
}

document.getElementById('boot-retry').addEventListener('click', boot);
// A 401 on a screen (grid/lazy-grid.js) signs the app out.
store.subscribe('session', (session) => { if (session === 'signed-out' && signedIn) openLogin(); });
store.subscribe('library', () => {
  // The endless feed is scoped too: a hidden one starts again in the new library when shown.
  if (!feed) return;
  const query = new URLSearchParams(location.search);
  const onFeed = !document.getElementById('feed-view').hidden;
  feed.stop();
  feed = null;
  feedKey = null;
  if (onFeed) feedScreen.show(query);
});
document.getElementById('help-button').addEventListener('click', toggleHelp);
document.getElementById('clear-filter').addEventListener('click', () => setFilter(null));

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js').catch(() => { /* the app works without it */ });
}

boot();
