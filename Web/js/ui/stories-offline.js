// The stories' offline banner, and their way back online. While the browser is offline (or a
// stories request found no server although the browser thinks it is online), a banner says
// "You're offline — showing stories already loaded": the tray and the stories already fetched
// keep playing from the service worker's copies (sw-stories.js) and the engine's memory.
// When the network comes back (the `online` event, or /health answering again after a
// request found no server) every registered `onBack` runs — the tray refreshes, the player
// loads what it could not — and is tried again with backoff while it keeps failing.
//
// For the tray and the player (Web/js/stories/): call `watchStoriesOffline({ onBack })` when
// they mount and `.stop()` when they go; call `.noServer()` when a request fails with status
// 0 while `navigator.onLine` is true. A window event `reelhouse:stories-online` is also
// dispatched on the way back, for anything that would rather listen than register.

const TEXT = "You're offline — showing stories already loaded";
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 8000;

const watchers = new Set();   // { onBack } of every mounted stories view
let banner = null;
let serverAway = false;
let probing = null;
let listening = false;

function bannerElement() {
  if (banner?.isConnected) return banner;
  banner = document.createElement('div');
  banner.id = 'stories-offline-banner';
  banner.className = 'offline-banner stories-offline-banner';
  banner.setAttribute('role', 'status');
  banner.textContent = TEXT;
  banner.hidden = true;
  document.body.append(banner);
  return banner;
}

function update() {
  const offline = !navigator.onLine || serverAway;
  bannerElement().hidden = !(offline && watchers.size > 0);
  // The page's general banner says the same thing less precisely; one banner at a time.
  const general = document.getElementById('offline-banner');
  if (general && offline && watchers.size > 0) general.hidden = true;
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `onBack` until it succeeds, backing off, while the network stays up. */
async function resume(watcher) {
  let delay = FIRST_RETRY_MS;
  while (watchers.has(watcher) && navigator.onLine && !serverAway) {
    try {
      await watcher.onBack();
      return;
    } catch {
      await wait(delay);
      delay = Math.min(MAX_RETRY_MS, delay * 2);
    }
  }
}

function back() {
  update();
  window.dispatchEvent(new CustomEvent('reelhouse:stories-online'));
  for (const watcher of watchers) resume(watcher);
}

async function serverAnswers() {
  try {
    return (await fetch('/health', { cache: 'no-store', credentials: 'same-origin' })).ok;
  } catch {
    return false;
  }
}

/** Probes /health with backoff until the server answers, then resumes everyone. */
function probeUntilBack() {
  probing ??= (async () => {
    let delay = FIRST_RETRY_MS;
    while (!(await serverAnswers())) {
      await wait(delay);
      delay = Math.min(MAX_RETRY_MS, delay * 1.5);
    }
    probing = null;
    serverAway = false;
    if (navigator.onLine) back();
  })();
  return probing;
}

function listen() {
  if (listening) return;
  listening = true;
  window.addEventListener('offline', update);
  window.addEventListener('online', () => { serverAway = false; back(); });
}

/**
 * Registers a stories view. `onBack()` (may return a promise; a rejection is retried) runs each
 * time the network comes back. Returns { noServer(), stop(), get offline() }.
 */
export function watchStoriesOffline({ onBack = () => {} } = {}) {
  listen();
  const watcher = { onBack };
  watchers.add(watcher);
  update();
  return {
    /** A request found no server while the browser says it is online. */
    noServer() {
      serverAway = true;
      update();
      probeUntilBack();
    },
    get offline() { return !navigator.onLine || serverAway; },
    stop() {
      watchers.delete(watcher);
      update();
    },
  };
}
