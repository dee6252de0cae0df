// Service worker: keeps the app shell (HTML, CSS, ES modules, icons) available offline.
// It never touches /api, /media, /img or /videos: feed data, keys and media always come from
// the network (keys are private, media is large and already cached by HTTP). So it holds no
// media bytes under any name, and never serves a dead (expired or rotated) URL's bytes under a
// fresh URL: the player's in-memory store is the one place media is kept by post + file
// (js/player/media-key.js). A media cache here would also mislead the player's bandwidth
// estimate: a cache hit looks like a very fast network.
const CACHE = 'reelhouse-shell-v1';
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
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
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
