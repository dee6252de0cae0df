// The events the server has not accepted yet, kept in localStorage so a reload, a crash or a
// closed tab loses none of them: they go out with the next flush. Sending one twice is
// harmless (the server counts a resent event_id once); losing one is not. Every change reads
// the stored list again first, so two tabs of the app add to one queue instead of overwriting
// each other's. Without storage (private mode, full quota) the queue lives in memory.

export const QUEUE_KEY = 'reelhouse.events.queue';
/** Beyond this many (a long time offline) the oldest are dropped first. */
const MAX_EVENTS = 2000;
/** Older events are dropped: the server refuses what is older than its retention anyway. */
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;

export function createEventQueue({ storage = globalThis.localStorage, key = QUEUE_KEY } = {}) {
  let memory = [];

  function read() {
    try {
      const stored = JSON.parse(storage?.getItem(key) ?? '[]');
      if (Array.isArray(stored)) memory = stored;
    } catch { /* no storage or a damaged entry: keep what is in memory */ }
    return memory;
  }

  function write(events) {
    const oldest = Date.now() - MAX_AGE_MS;
    memory = events.filter((event) => Date.parse(event.at) >= oldest).slice(-MAX_EVENTS);
    try {
      if (memory.length) storage?.setItem(key, JSON.stringify(memory));
      else storage?.removeItem(key);
    } catch { /* quota or no storage: memory still holds them for this visit */ }
  }

  return {
    add(event) { write([...read(), event]); return memory.length; },
    /** The first `count` queued events (oldest first), still queued. */
    peek(count = Infinity) { return read().slice(0, count); },
    /** Forgets the events with these ids (accepted, or refused for good). */
    remove(ids) {
      const gone = new Set(ids);
      write(read().filter((event) => !gone.has(event.event_id)));
    },
    /** Whether the event is still waiting to be sent. */
    has(id) { return read().some((event) => event.event_id === id); },
    get size() { return read().length; },
    clear() { write([]); },
  };
}
