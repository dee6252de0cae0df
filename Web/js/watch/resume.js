// Resume: whether a stored position is restored, and a saver that sends the position batched
// (on pause, on leaving, every few seconds while playing, only when it changed) and clears it
// at the end. Pure of the DOM: the player (index.js) feeds it times and events.

export const DEFAULT_RESUME_RULE = Object.freeze({ min_duration: 60, min_fraction: 0.05, max_fraction: 0.9 });

/** The rule from `GET /api/v1/me`'s `resume`; each missing field takes the default. */
export function resumeRule(me) {
  const rule = me?.resume ?? {};
  const number = (value, fallback) => (Number.isFinite(value) ? value : fallback);
  return {
    min_duration: number(rule.min_duration, DEFAULT_RESUME_RULE.min_duration),
    min_fraction: number(rule.min_fraction, DEFAULT_RESUME_RULE.min_fraction),
    max_fraction: number(rule.max_fraction, DEFAULT_RESUME_RULE.max_fraction),
  };
}

/** The second to start at: the stored position when the rule allows it, else 0. */
export function resumeAt(position, duration, rule = DEFAULT_RESUME_RULE) {
  if (!Number.isFinite(position) || !Number.isFinite(duration) || duration <= 0) return 0;
  if (duration < rule.min_duration) return 0;
  const fraction = position / duration;
  return fraction >= rule.min_fraction && fraction <= rule.max_fraction ? position : 0;
}

export const SAVE_INTERVAL_MS = 5000;
const SAME_WITHIN_SECONDS = 0.5;

/**
 * `send(seconds | null, { keepalive })` writes the position. `update(t)` records the playhead;
 * `flush({ keepalive })` sends it if it moved since the last write; `clear()` sends null once.
 */
export function createPositionSaver({ send, initial = null }) {
  let latest = initial;
  let saved = initial;
  let pending = Promise.resolve();

  function write(value, options = {}) {
    saved = value;
    pending = pending.then(() => send(value, options)).catch(() => { saved = undefined; /* try again next time */ });
    return pending;
  }

  return {
    update(seconds) {
      if (Number.isFinite(seconds)) latest = Math.max(0, seconds);
    },
    /** Whether a write is due: the playhead moved since the last one. */
    get dirty() {
      if (latest === null) return false;
      return saved === null || saved === undefined || Math.abs(latest - saved) >= SAME_WITHIN_SECONDS;
    },
    flush(options = {}) {
      return this.dirty ? write(latest, options) : pending;
    },
    clear(options = {}) {
      latest = null;
      return saved === null ? pending : write(null, options);
    },
    get saved() { return saved; },
  };
}
