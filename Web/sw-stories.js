// Stories offline (issue 15), loaded into sw.js with importScripts (a service worker cannot
// import ES modules from a classic script). The tray and the stories a person has already
// loaded stay viewable offline; nothing else the service worker sees is stored.
//
// - API: `GET /api/v1/stories` (the tray, every page of it, keyed by its whole URL: cursor,
//   limit and library are part of the answer) and `GET /api/v1/stories/{user}`. Network first:
//   online, every answer comes from the server (and is copied here); only a request that gets
//   no answer at all is served the copy, marked `X-Reelhouse-Offline-Copy: 1`. A copied
//   person's page is served without the items whose story has expired since.
// - Media: only files of posts that a copied person's page lists as story items (and the
//   tray's avatars), and only what the page actually fetched (nothing is fetched ahead here).
//   Network first as well, so online playback and the player's bandwidth estimate never see
//   the cache (a cache hit looks like a very fast network). Signed URLs carry a token that
//   changes every window, so bytes are stored under the token-free name the player's own
//   store uses (js/player/media-key.js: `/media/*/{post}/{file}`, `/img/*/{post}/{hash}/{file}`)
//   and a fresh URL finds them. Only complete 200 answers are stored; a refused URL (403/410) is
//   passed to the player, which asks for fresh URLs, and never served from here.
// - AES keys (`/media/{token}/{post}/key`, sent `no-store`): the key is what makes the stored
//   segments unreadable, so it is kept only as long as the server itself would hand it to
//   anyone holding the URL — until the signed URL's `media.expires_at` of the newest answer
//   that listed the item (≤ 75 min by default) — and then deleted. Offline after that, an
//   encrypted video story shows its poster and the player's offline state, not its picture;
//   a clear video and a photo story play until the story itself expires.
// - Expired stories' files are deleted (a story leaves the tray after its `expires_at`; the
//   server deletes its media too). Everything here is deleted when someone signs in or out
//   (POST/DELETE /api/v1/session) or the server answers 401: one person's stories never show
//   to the next. Media is bounded (STORY_MEDIA_BUDGET); the least recently stored post goes first.
/* global self, caches, Response */

const STORY_API_CACHE = 'reelhouse-stories-api-v1';
const STORY_MEDIA_CACHE = 'reelhouse-stories-media-v1';
const STORY_CACHES = [STORY_API_CACHE, STORY_MEDIA_CACHE];
const STORY_INDEX_URL = '/__reelhouse/story-index.json';
const STORY_MEDIA_BUDGET = 80 * 1024 * 1024;
const TRAY_PATH = '/api/v1/stories';
// `/api/v1/stories/{user}`: not the routes beside it (seen, items/…, archive).
const PERSON_PATH = /^\/api\/v1\/stories\/(?!seen$|archive$|items$)([^/]+)$/;
const TOKENED = /^\/(media|img)\/[^/]+\/(\d+)\/(.+)$/;

/** The token-free name of a media or image URL (as js/player/media-key.js), or null. */
function storyMediaName(url) {
  const match = TOKENED.exec(url.pathname);
  if (!match) return null;
  return { post: match[2], file: match[3], key: `${url.origin}/${match[1]}/*/${match[2]}/${match[3]}${url.search}` };
}

// post id → { user, urlsExpireAt, storyExpiresAt (ms or null), bytes, storedAt }. Kept in memory
// and persisted in the API cache: the worker can be stopped between two events.
let storyIndex = null;
let storyIndexWrite = Promise.resolve();

async function loadStoryIndex() {
  if (storyIndex) return storyIndex;
  const saved = await caches.match(STORY_INDEX_URL, { cacheName: STORY_API_CACHE });
  const loaded = saved ? await saved.json().catch(() => ({})) : {};
  storyIndex ??= loaded;
  return storyIndex;
}

function saveStoryIndex() {
  const body = JSON.stringify(storyIndex ?? {});
  storyIndexWrite = storyIndexWrite.then(() => caches.open(STORY_API_CACHE))
    .then((cache) => cache.put(STORY_INDEX_URL, new Response(body, { headers: { 'content-type': 'application/json' } })))
    .catch(() => {});
  return storyIndexWrite;
}

// Items' `expires_at` is ISO 8601; media's `expires_at` (as in feed items) is Unix seconds.
function time(value) {
  const ms = typeof value === 'number' ? value * 1000 : Date.parse(value ?? '');
  return Number.isFinite(ms) ? ms : null;
}

async function forgetStoryPost(id) {
  delete storyIndex[id];
  const cache = await caches.open(STORY_MEDIA_CACHE);
  const requests = await cache.keys();
  await Promise.all(requests.filter((request) => storyMediaName(new URL(request.url))?.post === String(id))
    .map((request) => cache.delete(request)));
}

async function forgetStoryKey(id) {
  const cache = await caches.open(STORY_MEDIA_CACHE);
  const requests = await cache.keys();
  await Promise.all(requests.filter((request) => {
    const name = storyMediaName(new URL(request.url));
    return name?.post === String(id) && name.file === 'key';
  }).map((request) => cache.delete(request)));
}

/** Drops expired stories' files and keys past their URLs' life, then trims to the budget. */
async function sweepStoryMedia(now = Date.now()) {
  await loadStoryIndex();
  for (const [id, entry] of Object.entries(storyIndex)) {
    if (entry.storyExpiresAt !== null && entry.storyExpiresAt <= now) await forgetStoryPost(id);
    else if (entry.urlsExpireAt <= now && entry.hasKey) { entry.hasKey = false; await forgetStoryKey(id); }
  }
  let total = Object.values(storyIndex).reduce((sum, entry) => sum + (entry.bytes ?? 0), 0);
  const oldestFirst = Object.entries(storyIndex).sort(([, a], [, b]) => (a.storedAt ?? 0) - (b.storedAt ?? 0));
  for (const [id, entry] of oldestFirst) {
    if (total <= STORY_MEDIA_BUDGET) break;
    total -= entry.bytes ?? 0;
    await forgetStoryPost(id);
  }
  await saveStoryIndex();
}

/** A person's page arrived: its items' files may be stored; their items no longer live go. */
async function learnStoryPage(page) {
  if (!storyIndex) await loadStoryIndex();   // loaded already: the index changes before the first await
  const user = page?.user;
  const live = new Set();
  for (const item of page?.items ?? []) {
    const id = String(item.id);
    live.add(id);
    const known = storyIndex[id] ?? { bytes: 0, storedAt: Date.now() };
    storyIndex[id] = {
      ...known, user,
      urlsExpireAt: time(item.media?.expires_at) ?? Date.now(),
      storyExpiresAt: time(item.expires_at),
    };
  }
  for (const [id, entry] of Object.entries(storyIndex)) {
    if (entry.user === user && !live.has(id)) await forgetStoryPost(id);
  }
  await sweepStoryMedia();
}

// A tray answer names each person's newest item only by its avatar (a thumbnail under /img/);
// its own expiry is known once the person's page is read. Until then it is estimated as the
// server's default lifetime after `latest_at`, so a tray seen offline keeps its pictures.
const DEFAULT_LIFETIME_MS = 24 * 3600 * 1000;

/** A tray page arrived: its avatars' files may be stored. */
async function learnTray(tray) {
  if (!storyIndex) await loadStoryIndex();
  for (const entry of tray?.tray ?? []) {
    const name = entry.avatar?.url ? storyMediaName(new URL(entry.avatar.url, self.location.origin)) : null;
    if (!name || storyIndex[name.post]) continue;
    const latest = time(entry.latest_at) ?? Date.now();
    storyIndex[name.post] = {
      user: entry.user, bytes: 0, storedAt: Date.now(), urlsExpireAt: 0, storyExpiresAt: latest + DEFAULT_LIFETIME_MS,
    };
  }
  await sweepStoryMedia();
}

async function clearStoryCaches() {
  storyIndex = {};
  await Promise.all(STORY_CACHES.map((name) => caches.delete(name)));
}

/** The stored answer, marked as a copy; a person's page without the items expired since. */
async function storyApiCopy(request) {
  const hit = await caches.match(request, { cacheName: STORY_API_CACHE });
  if (!hit) return null;
  const headers = new Headers(hit.headers);
  headers.set('X-Reelhouse-Offline-Copy', '1');
  if (!PERSON_PATH.test(new URL(request.url).pathname)) return new Response(hit.body, { status: 200, headers });
  const page = await hit.json();
  const now = Date.now();
  page.items = (page.items ?? []).filter((item) => !item.expires_at || Date.parse(item.expires_at) > now);
  if (page.items.length === 0) return null;
  headers.delete('content-length');
  return new Response(JSON.stringify(page), { status: 200, headers });
}

/** Tells the page a stored copy stood in for the network (its banner says so). */
function toldOffline(event) {
  event.waitUntil(self.clients.get(event.clientId)
    .then((client) => client?.postMessage({ type: 'reelhouse:stories-offline-copy' }))
    .catch(() => {}));
}

async function storyApi(event) {
  const { request } = event;
  let response;
  try {
    response = await fetch(request);
  } catch (offline) {
    const copy = await storyApiCopy(request);
    if (!copy) throw offline;
    toldOffline(event);
    return copy;
  }
  const person = PERSON_PATH.test(new URL(request.url).pathname);
  if (response.ok) {
    // The index learns the answer's posts before the page gets it: the page asks for their
    // media right away, and those requests must already count as stories' (handleStoryFetch).
    const copy = response.clone();
    const answer = await response.clone().json().catch(() => null);
    await loadStoryIndex();
    const learnt = person ? learnStoryPage(answer) : learnTray(answer);
    event.waitUntil(learnt.then(() => caches.open(STORY_API_CACHE)).then((cache) => cache.put(request, copy)));
  } else if (response.status === 401) {
    event.waitUntil(clearStoryCaches());
  } else if (response.status === 404) {
    // That person has nothing live any more: the stored page must not bring it back offline.
    event.waitUntil(caches.open(STORY_API_CACHE).then((cache) => cache.delete(request)));
  }
  return response;
}

async function storyMedia(event, name) {
  const { request } = event;
  let response;
  try {
    response = await fetch(request);
  } catch (offline) {
    await loadStoryIndex();
    const entry = storyIndex[name.post];
    const now = Date.now();
    const usable = entry && (entry.storyExpiresAt === null || entry.storyExpiresAt > now)
      && (name.file !== 'key' || entry.urlsExpireAt > now);
    const hit = usable ? await caches.match(name.key, { cacheName: STORY_MEDIA_CACHE }) : null;
    if (!hit && usable && RUNG_PLAYLIST.test(name.file)) {
      const standIn = await storedRungFor(request.url, name);
      if (standIn) { toldOffline(event); return standIn; }
    }
    if (!hit) throw offline;
    toldOffline(event);
    const headers = new Headers(hit.headers);
    headers.set('X-Reelhouse-Offline-Copy', '1');
    if (name.file.endsWith('master.m3u8')) {
      headers.delete('content-length');
      return new Response(await playableMaster(await hit.text(), name.key), { status: 200, headers });
    }
    return new Response(hit.body, { status: hit.status, statusText: hit.statusText, headers });
  }
  // 200 only: a 206 is part of a file (the Cache API refuses it), anything else is no file.
  if (response.status === 200) {
    const copy = response.clone();
    event.waitUntil((async () => {
      await loadStoryIndex();
      const entry = storyIndex[name.post];
      if (!entry) return;
      const isKey = name.file === 'key';
      if (isKey && entry.urlsExpireAt <= Date.now()) return;
      const bytes = (await copy.clone().arrayBuffer()).byteLength;
      const cache = await caches.open(STORY_MEDIA_CACHE);
      const previous = await cache.match(name.key);
      await cache.put(name.key, copy);
      if (!previous) entry.bytes = (entry.bytes ?? 0) + bytes;
      if (isKey) entry.hasKey = true;
      entry.storedAt = Date.now();
      await sweepStoryMedia();
    })());
  }
  return response;
}

// ---- offline masters -------------------------------------------------------------------
// Offline, the player still picks a rung by the throughput it measured online, and the rung it
// picks may be one it never fetched (a video that climbed, then came back to from the start).
// So a stored master is served listing only the rungs whose playlist and every file it names
// (init, segments, key) are stored; with none complete, those with a stored playlist; with
// none at all, as it was.

const isStored = (url) => caches.match(url, { cacheName: STORY_MEDIA_CACHE }).then(Boolean);

/** The token-free name of `uri` as written in a playlist stored under `base`. */
function storedName(uri, base) {
  const url = new URL(uri, base);
  return TOKENED.test(url.pathname) ? storyMediaName(url).key : url.href;
}

/** 'complete' | 'playlist' | 'missing': how much of a rung's media playlist is stored. */
async function rungStored(playlistKey) {
  const playlist = await caches.match(playlistKey, { cacheName: STORY_MEDIA_CACHE });
  if (!playlist) return 'missing';
  const uris = [];
  for (const line of (await playlist.text()).split('\n').map((text) => text.trim())) {
    if (line && !line.startsWith('#')) uris.push(line);
    const attribute = /^#EXT-X-(?:MAP|KEY):.*URI="([^"]+)"/.exec(line);
    if (attribute) uris.push(attribute[1]);
  }
  const stored = await Promise.all(uris.map((uri) => isStored(storedName(uri, playlistKey))));
  return stored.every(Boolean) ? 'complete' : 'playlist';
}

async function playableMaster(text, masterKey) {
  const lines = text.split('\n');
  const variants = [];   // { at: index of #EXT-X-STREAM-INF, uri }
  lines.forEach((line, at) => {
    if (line.startsWith('#EXT-X-STREAM-INF') && lines[at + 1] && !lines[at + 1].startsWith('#')) {
      variants.push({ at, uri: lines[at + 1].trim() });
    }
  });
  const states = await Promise.all(variants.map((variant) => rungStored(storedName(variant.uri, masterKey))));
  const wanted = states.includes('complete') ? 'complete' : (states.includes('playlist') ? 'playlist' : null);
  if (!wanted) return text;
  const dropped = new Set();
  variants.forEach((variant, index) => {
    if (states[index] !== wanted) dropped.add(variant.at).add(variant.at + 1);
  });
  return lines.filter((_, at) => !dropped.has(at)).join('\n');
}

// The player can also hold a master from before (its memory) and ask for a rung it never
// fetched. Offline, that rung's playlist is answered with a stored rung's, its file names made
// absolute (under the same token), so the player plays the bytes that are here.
const RUNG_PLAYLIST = /^[^/]+\/index\.m3u8$/;

async function storedRungFor(requestURL, name) {
  const masterKey = new URL('../master.m3u8', name.key).href;
  const master = await caches.match(masterKey, { cacheName: STORY_MEDIA_CACHE });
  if (!master) return null;
  const rungs = (await master.text()).split('\n').map((line) => line.trim())
    .filter((line, at, lines) => line && !line.startsWith('#') && lines[at - 1]?.startsWith('#EXT-X-STREAM-INF'));
  const states = await Promise.all(rungs.map((uri) => rungStored(storedName(uri, masterKey))));
  const pick = rungs[states.indexOf('complete')] ?? rungs[states.indexOf('playlist')];
  if (!pick) return null;
  const stored = await caches.match(storedName(pick, masterKey), { cacheName: STORY_MEDIA_CACHE });
  const base = new URL(pick, new URL('..', requestURL)).href;   // the stored rung, under the request's token
  const absolute = (uri) => new URL(uri, base).pathname;
  const text = (await stored.text()).split('\n').map((line) => {
    if (line && !line.startsWith('#')) return absolute(line.trim());
    return line.replace(/^(#EXT-X-(?:MAP|KEY):.*URI=")([^"]+)"/, (_, head, uri) => `${head}${absolute(uri)}"`);
  }).join('\n');
  const headers = new Headers(stored.headers);
  headers.delete('content-length');
  headers.set('X-Reelhouse-Offline-Copy', '1');
  return new Response(text, { status: 200, headers });
}

/**
 * sw.js's fetch handler asks first: true when the request is the stories' business (it has
 * been answered, or the session changed and the stored stories were dropped).
 */
function handleStoryFetch(event) {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin) return false;
  if (url.pathname === '/api/v1/session' && event.request.method !== 'GET') {
    event.waitUntil(clearStoryCaches());
    return false;   // the request itself goes on untouched
  }
  if (event.request.method !== 'GET') return false;
  if (url.pathname === TRAY_PATH || PERSON_PATH.test(url.pathname)) {
    event.respondWith(storyApi(event));
    return true;
  }
  const name = storyMediaName(url);
  // Only a listed story post's files pass through here; the feed's media never does. In the
  // moment before a freshly started worker has read its index, any media request might be a
  // story's: it goes through (network first) and is stored only if the index then lists it.
  const maybeStory = storyIndex === null || Object.hasOwn(storyIndex, name?.post ?? '');
  if (!name || !maybeStory) return false;
  event.respondWith(storyMedia(event, name));
  return true;
}

loadStoryIndex().catch(() => {});
