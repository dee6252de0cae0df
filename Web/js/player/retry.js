// Transient failures of media requests: a dropped connection, a 5xx, a 429 or 408 is tried
// again after an exponentially growing, jittered wait (so a hundred tabs that lost the same
// server do not come back in step), and never sooner than the server's Retry-After. Anything
// else (a 404, an expired or forged URL) fails at once: waiting does not change the answer.
// Every wait ends early when the caller's signal aborts (the user swiped away).
import { abortedError } from './errors.js';

export const RETRY_POLICY = Object.freeze({
  tries: 4,             // the first try and three more
  baseMs: 400,          // the wait before the first retry, doubled for each one after
  capMs: 5000,          // no backoff wait is longer than this …
  maxRetryAfterMs: 20_000, // … and a server asking for more than this is a failure now, not later
});

/** Whether a failed request may succeed when simply asked again. */
export function isTransient(error) {
  if (error?.code !== 'network') return false;
  const status = error.status ?? 0;
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

/**
 * A Retry-After header (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) as milliseconds from
 * `now`; null when absent or unreadable. A date in the past means "now".
 */
export function retryAfterMs(header, now = Date.now()) {
  if (header === null || header === undefined) return null;
  const text = String(header).trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names its day and month; Date.parse alone would also take '-3' as a year.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/**
 * The wait before retry number `retry` (1 for the first): base × 2^(retry−1), capped, with
 * "equal jitter" (a random half of it added to the other half), so it never drops to zero.
 */
export function backoffMs(retry, { baseMs = RETRY_POLICY.baseMs, capMs = RETRY_POLICY.capMs, random = Math.random } = {}) {
  const full = Math.min(capMs, baseMs * 2 ** (retry - 1));
  return full / 2 + random() * (full / 2);
}

/** Resolves after `ms`, or rejects with the engine's 'aborted' error as soon as `signal` fires. */
export function abortableDelay(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(abortedError()); return; }
    const onAbort = () => { clearTimeout(timer); reject(abortedError()); };
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `attempt()` until it succeeds, fails for good, or the tries are spent; the last error is
 * thrown. `onRetry({ retry, waitMs, error })` is told before each wait (for stats and tests);
 * `delay` is injectable so the schedule can be tested without waiting.
 */
export async function withRetries(attempt, { signal, policy = RETRY_POLICY, onRetry, delay = abortableDelay, random = Math.random } = {}) {
  for (let retry = 0; ; retry += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (signal?.aborted || error?.code === 'aborted') throw error.code === 'aborted' ? error : abortedError();
      if (!isTransient(error) || retry + 1 >= policy.tries) throw error;
      const asked = error.retryAfterMs ?? null;
      if (asked !== null && asked > policy.maxRetryAfterMs) throw error;
      const waitMs = Math.max(asked ?? 0, backoffMs(retry + 1, { ...policy, random }));
      onRetry?.({ retry: retry + 1, waitMs, error });
      await delay(waitMs, signal);
    }
  }
}
