// Watch events for For You (docs/recommendations-api.md, "Events"): `recordEvent(type, postId,
// fields)` queues one (event_id and at are added here); the queue is flushed every 10 s, as
// soon as 25 are waiting, before each feed page (`flushBeforeFeedPage`), and by beacon when the
// page is hidden or left. `onPageLeave(fn)` runs `fn` just before that beacon, so the feed can
// record the view of the item on screen first.
import { createEventQueue } from './queue.js';
import { createEventSender } from './sender.js';
import { newEventId } from './event-id.js';

export const FLUSH_EVERY_MS = 10_000;
export const FLUSH_AT_COUNT = 25;
/** A feed page (or a sign-out) waits this long at most for the events before it. */
const PAGE_WAIT_MS = 1500;

const queue = createEventQueue();
const sender = createEventSender({ queue });
const leaveHandlers = new Set();
let timer = 0;

export function recordEvent(type, postId, fields = {}) {
  if (!Number.isInteger(postId)) return null;
  const event = { event_id: newEventId(), type, post_id: postId, at: new Date().toISOString(), ...fields };
  if (queue.add(event) >= FLUSH_AT_COUNT) sender.flush();
  return event;
}

export function flushEvents() {
  return sender.flush();
}

const flushOrWait = () => Promise.race([sender.flush(), new Promise((resolve) => setTimeout(resolve, PAGE_WAIT_MS))]);

/** Flushes, but lets the page request go on after a short wait if the server is slow. */
export function flushBeforeFeedPage() {
  return queue.size ? flushOrWait() : Promise.resolve();
}

/**
 * Takes an event back if it was not sent yet (an undo made before the flush): true when it
 * never reaches the server, false when it already did (then undo through the API).
 */
export async function withdrawEvent(event) {
  if (!event) return false;
  await sender.flush();   // an event being sent right now is either accepted or still queued after this
  if (!queue.has(event.event_id)) return false;
  queue.remove([event.event_id]);
  return true;
}

export function onPageLeave(handler) {
  leaveHandlers.add(handler);
  return () => leaveHandlers.delete(handler);
}

function pageLeaving() {
  for (const handler of leaveHandlers) {
    try { handler(); } catch (error) { console.error(error); }
  }
  sender.beacon();
}

/** Starts the timer and the page-leave beacon (once, when the app is signed in). */
export function startEvents() {
  if (timer) return;
  timer = setInterval(() => { if (queue.size) sender.flush(); }, FLUSH_EVERY_MS);
  addEventListener('pagehide', pageLeaving);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') pageLeaving();
  });
  if (queue.size) sender.flush();   // what the last visit left behind
}

/** Signing out: the view on screen is recorded and what is queued sent as this person (a slow server is not waited for long). */
export async function finishEvents() {
  for (const handler of leaveHandlers) handler();
  await flushOrWait();
}

/** Signed out: what could not be sent is not someone else's to send. */
export function forgetEvents() {
  queue.clear();
}

/** For tests and bug reports: how many events wait. */
export const pendingEvents = () => queue.size;
