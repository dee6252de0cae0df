// The stories' offline banner, and their way back online. Started once by the app
// (`startStoriesOffline({ store })`); it needs nothing from the tray or the player.
//
// While the story player is open and the page has no network — the browser is offline, or the
// service worker answered a stories request with its stored copy because the server did not
// answer (sw-stories.js posts `reelhouse:stories-offline-copy`) — a banner inside the player
// says "You're offline — showing stories already loaded": what was loaded before keeps
// playing from the service worker's copies and the engine's memory.
//
// When the network comes back (the `online` event, then /health answering — tried again with
// backoff, as a link that just came up often drops the first requests) the banner goes and
// the stories load again by themselves: the app's store (state/store.js) counts it in
// `storiesChanged` (every tray reloads) and `storiesBackOnline` (the player retries what it
// could not load).

const TEXT = "You're offline — showing stories already loaded";
const PLAYER = 'dialog.stories-player[open]';
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 8000;

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function serverAnswers() {
  try {
    return (await fetch('/health', { cache: 'no-store', credentials: 'same-origin' })).ok;
  } catch {
    return false;
  }
}

/** Watches the network for the stories from now on; `store`: the app's state store. */
export function startStoriesOffline({ store }) {
  const banner = Object.assign(document.createElement('div'), {
    id: 'stories-offline-banner', className: 'stories-offline-banner', textContent: TEXT, hidden: true,
  });
  banner.setAttribute('role', 'status');
  let noServer = false;   // the service worker served a copy while the browser thought it was online
  let probing = null;

  const offline = () => !navigator.onLine || noServer;

  /** Shown inside the open player (a modal dialog sits in the top layer, above anything else). */
  function update() {
    const player = document.querySelector(PLAYER);
    const show = Boolean(player) && offline();
    if (show && banner.parentElement !== player) player.append(banner);
    banner.hidden = !show;
  }

  /** Once the server answers again: the banner goes and everything stories loads again. */
  function resumeWhenReachable() {
    probing ??= (async () => {
      let delay = FIRST_RETRY_MS;
      while (!(await serverAnswers())) {
        await wait(delay);
        delay = Math.min(MAX_RETRY_MS, delay * 2);
      }
      probing = null;
      noServer = false;
      if (!navigator.onLine) return;   // went offline again meanwhile: the next `online` resumes
      update();
      store.bump('storiesChanged');
      store.bump('storiesBackOnline');
    })();
    return probing;
  }

  window.addEventListener('offline', update);
  window.addEventListener('online', () => { update(); resumeWhenReachable(); });
  navigator.serviceWorker?.addEventListener('message', (event) => {
    if (event.data?.type !== 'reelhouse:stories-offline-copy' || !navigator.onLine) return;
    noServer = true;
    update();
    resumeWhenReachable();
  });
  // The player is a <dialog> added to <body> when it opens (also while offline).
  new MutationObserver(update).observe(document.body, { childList: true });
  update();
}
