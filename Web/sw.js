// Service worker: keeps the app shell (HTML, CSS, ES modules, icons) available offline, and
// the stories a person has already loaded (sw-stories.js: the stories API answers and those
// stories' media, network first, with the rules for keys and expiry written there).
// Everything else under /api, /media, /img or /videos always comes from the network: feed
// data, keys and media are never stored here (keys are private, media is large and already
// cached by HTTP), and a dead (expired or rotated) URL's bytes are never served under a fresh
// URL: for the feed the player's in-memory store is the one place media is kept by post + file
// (js/player/media-key.js). A media cache would also mislead the player's bandwidth
// estimate (a cache hit looks like a very fast network), hence network first for stories.
importScripts('/sw-stories.js');

const CACHE = 'reelhouse-shell-v1';
const KEEP = new Set([CACHE, ...STORY_CACHES]);
const SHELL = [
  '/', '/index.html', '/manifest.webmanifest',
  '/css/base.css', '/css/login.css', '/css/feed.css', '/css/overlay.css', '/css/nav.css', '/css/screens.css',
  '/js/app.js', '/js/api.js', '/icons/icon-192.png',
];
const NEVER = ['/api/', '/media/', '/img/', '/videos/', '/health', '/metrics', '/openapi.json'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => !KEEP.has(key)).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  if (handleStoryFetch(event)) return;
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== location.origin) return;
  if (NEVER.some((prefix) => url.pathname.startsWith(prefix))) return;
  // Network first, so a deployed change shows on the next load; the cache is the offline copy.
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(event.request, copy));
    }
    return response;
  }).catch(() => caches.match(event.request).then((hit) => hit ?? caches.match('/index.html'))));
});
