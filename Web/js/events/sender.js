// Sends the queue to POST /api/v1/events (docs/recommendations-api.md, "Events").
// - accepted (200): those events leave the queue.
// - unreachable, 5xx, 408, 401: they stay and go with a later flush (resent ids count once).
// - 429: nothing is sent again before its Retry-After has passed.
// - 400 naming one event (`events[3] …`): that event is dropped (logged) and the rest is sent
//   again; a 400 naming none, or another refusal (a server without this route), drops the
//   batch (logged) — a batch the server refuses would be refused forever.
// - the page going away: navigator.sendBeacon carries what is queued (the session cookie
//   authenticates it). The events stay queued until a fetch flush sees them accepted, so a
//   beacon lost on the way costs nothing; the next visit sends them again.
import { request } from '../api.js';

export const EVENTS_PATH = '/api/v1/events';
const BATCH_SIZE = 100;
/** sendBeacon refuses bodies over 64 KiB; an event is about 200 bytes. */
const BEACON_EVENTS = 250;

const KEPT = (status) => status === 0 || status === 401 || status === 408 || status >= 500;

export function createEventSender({ queue, log = console }) {
  let running = null;
  let pausedUntil = 0;
  let lastBeacon = '';   // visibilitychange and pagehide both come when a page is left: one beacon

  function drop(events, error) {
    log.warn?.(`Reelhouse: the server refused ${events.length} event(s) (${error.status} ${error.code}): ${error.message}`, events);
    queue.remove(events.map((event) => event.event_id));
  }

  async function sendAll() {
    for (;;) {
      if (Date.now() < pausedUntil) return;
      const batch = queue.peek(BATCH_SIZE);
      if (!batch.length) return;
      try {
        await request('POST', EVENTS_PATH, { events: batch });
        queue.remove(batch.map((event) => event.event_id));
      } catch (error) {
        const status = error?.status ?? 0;
        if (status === 429) { pausedUntil = Date.now() + (error.retryAfter ?? 60) * 1000; return; }
        if (KEPT(status)) return;
        const index = status === 400 ? Number(/events\[(\d+)\]/.exec(error.message ?? '')?.[1]) : NaN;
        drop(Number.isInteger(index) && batch[index] ? [batch[index]] : batch, error);
      }
    }
  }

  return {
    /** Sends everything queued (one run at a time; a second call joins the running one). */
    flush() {
      running ??= sendAll().finally(() => { running = null; });
      return running;
    },
    /** The page is going away: hand what is queued to the browser to deliver. */
    beacon() {
      const events = queue.peek(BEACON_EVENTS);
      if (!events.length || Date.now() < pausedUntil) return false;
      const signature = events.map((event) => event.event_id).join();
      if (signature === lastBeacon) return false;
      lastBeacon = signature;
      const body = new Blob([JSON.stringify({ events })], { type: 'application/json' });
      if (navigator.sendBeacon?.(EVENTS_PATH, body)) return true;
      // No beacon (or its queue is full): a keepalive fetch outlives the page too.
      fetch(EVENTS_PATH, { method: 'POST', body, keepalive: true, credentials: 'same-origin', headers: { 'content-type': 'application/json' } }).catch(() => {});
      return true;
    },
    /** Seconds until a 429's Retry-After allows sending again (0: now). */
    get pausedFor() { return Math.max(0, Math.ceil((pausedUntil - Date.now()) / 1000)); },
  };
}
