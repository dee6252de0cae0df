// Seen marks, batched: an item becomes seen when its timer starts (it was actually shown), and
// the ids go to `POST /api/v1/stories/seen` together — a second after the last mark, when the
// player closes, and when the page is hidden or left (keepalive). One queue for the page's
// life (`pageSeenQueue`), so marks a closed player could not send (offline) go with the next
// attempt: a failed send keeps its ids and tries again with a growing pause, and at once when
// the browser says it is online. The route is idempotent and ignores ids it cannot place, so
// a replay never fails.
import { sendSeenKeepalive } from './stories-api.js';

const BATCH_DELAY_MS = 1000;
const MAX_RETRY_DELAY_MS = 30_000;
const MAX_BATCH = 500;

export function createSeenQueue({ send }) {
  const pending = new Set();
  let timer = 0;
  let inFlight = null;
  let failures = 0;

  function schedule(delay = BATCH_DELAY_MS) {
    clearTimeout(timer);
    timer = setTimeout(flush, delay);
  }

  async function flush() {
    clearTimeout(timer);
    if (inFlight) await inFlight.catch(() => {});
    if (pending.size === 0) return;
    const ids = [...pending].slice(0, MAX_BATCH);
    ids.forEach((id) => pending.delete(id));
    inFlight = send(ids);
    try {
      await inFlight;
      failures = 0;
    } catch {
      ids.forEach((id) => pending.add(id));
      failures += 1;
    } finally {
      inFlight = null;
    }
    if (pending.size) schedule(failures ? Math.min(MAX_RETRY_DELAY_MS, BATCH_DELAY_MS * 2 ** failures) : 0);
  }

  function flushOnLeave() {
    if (pending.size === 0) return;
    clearTimeout(timer);
    sendSeenKeepalive([...pending].slice(0, MAX_BATCH));
    pending.clear();
  }
  const onHidden = () => { if (document.visibilityState === 'hidden') flushOnLeave(); };
  const onOnline = () => { if (pending.size) flush(); };
  window.addEventListener('pagehide', flushOnLeave);
  document.addEventListener('visibilitychange', onHidden);
  window.addEventListener('online', onOnline);

  return {
    mark(id) { pending.add(id); schedule(); },
    flush,
    get pending() { return [...pending]; },
    destroy() {
      window.removeEventListener('pagehide', flushOnLeave);
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('online', onOnline);
      clearTimeout(timer);
    },
  };
}

let shared = null;

/** The page's queue (one for every player the page opens). */
export function pageSeenQueue(send) {
  shared ??= createSeenQueue({ send });
  return shared;
}
