// Seen marks, batched: an item becomes seen when its timer starts (it was actually shown), and
// the ids go to `POST /api/v1/stories/seen` together — a second after the last mark, on close,
// and when the page is hidden or left (keepalive). A failed send keeps its ids for the next
// occasion (the route is idempotent and ignores ids it cannot place, so a replay never fails).
import { sendSeenKeepalive } from './stories-api.js';

const BATCH_DELAY_MS = 1000;
const MAX_BATCH = 500;

export function createSeenQueue({ send }) {
  const pending = new Set();
  let timer = 0;
  let inFlight = null;

  async function flush() {
    clearTimeout(timer);
    if (inFlight) await inFlight.catch(() => {});
    if (pending.size === 0) return;
    const ids = [...pending].slice(0, MAX_BATCH);
    ids.forEach((id) => pending.delete(id));
    inFlight = send(ids);
    try {
      await inFlight;
    } catch {
      ids.forEach((id) => pending.add(id));
    } finally {
      inFlight = null;
    }
    if (pending.size) schedule();
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(flush, BATCH_DELAY_MS);
  }

  function flushOnLeave() {
    if (pending.size === 0) return;
    clearTimeout(timer);
    sendSeenKeepalive([...pending].slice(0, MAX_BATCH));
    pending.clear();
  }
  const onHidden = () => { if (document.visibilityState === 'hidden') flushOnLeave(); };
  window.addEventListener('pagehide', flushOnLeave);
  document.addEventListener('visibilitychange', onHidden);

  return {
    mark(id) { pending.add(id); schedule(); },
    flush,
    get pending() { return [...pending]; },
    destroy() {
      window.removeEventListener('pagehide', flushOnLeave);
      document.removeEventListener('visibilitychange', onHidden);
      clearTimeout(timer);
    },
  };
}
