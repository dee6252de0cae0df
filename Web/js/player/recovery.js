// What a player does when a download fails in a way that waiting or fresh URLs can fix, instead
// of failing the item:
// - 403/410 (MediaExpiredError): the item's URLs expired or the secret was rotated. Ask the
//   feed for fresh ones (`refreshItem`, which refetches the post at most once per item per
//   minute and swaps the new URLs into the item object), then carry on from where it stopped.
// - No answer at all (status 0: the server restarting, the link down): wait until the server
//   answers again (`whenReachable`), then retry the same request. When the server answered
//   all along, only this request fails: a few retries a minute per item, then it is a failure.
// Anything else (a 404, a bad key, a decode error) is the item's failure, as before.
import { isExpired } from './loader.js';

const unreachable = (error) => error?.code === 'network' && error.status === 0;

/** Resolves when `signal` aborts; never rejects. */
const abortOf = (signal) => new Promise((resolve) => {
  if (signal.aborted) resolve();
  else signal.addEventListener('abort', () => resolve(), { once: true });
});

const QUICK_RETRIES_PER_MINUTE = 3;
const QUICK_RETRY_DELAY_MS = 1000;

export function createRecovery({ refreshItem = null, whenReachable = null, now = () => Date.now() } = {}) {
  const quickRetries = new Map(); // post id → times of retries while the server answered

  function mayRetryQuickly(id) {
    const recent = (quickRetries.get(id) ?? []).filter((at) => now() - at < 60_000);
    if (recent.length >= QUICK_RETRIES_PER_MINUTE) return false;
    quickRetries.set(id, [...recent, now()]);
    return true;
  }

  /**
   * 'refreshed' (the item now holds fresh URLs), 'retry' (the server answers again: repeat the
   * request) or null (give up: the caller fails the item). Never throws; null once `signal`
   * aborts. `stale` is the `item.media` the failed request was built from.
   */
  async function attempt(item, error, { stale, signal }) {
    let cause = error;
    while (!signal.aborted) {
      if (unreachable(cause)) {
        if (!whenReachable) return null;
        const waited = await Promise.race([whenReachable(), abortOf(signal).then(() => false)]);
        if (signal.aborted) return null;
        if (!waited) {
          if (!mayRetryQuickly(item.id)) return null;
          await Promise.race([new Promise((resolve) => setTimeout(resolve, QUICK_RETRY_DELAY_MS)), abortOf(signal)]);
          if (signal.aborted) return null;
        }
        if (cause !== error) { cause = error; continue; } // the refresh itself failed: try it again
        return 'retry';
      }
      if (!isExpired(cause) || !refreshItem) return null;
      const refreshing = Promise.resolve().then(() => refreshItem(item, { stale }));
      refreshing.catch(() => {}); // still settles after an abort; nobody listens then
      try {
        await Promise.race([refreshing, abortOf(signal)]);
        return signal.aborted ? null : 'refreshed';
      } catch (refreshError) {
        // The post request could not reach the server: wait for it and ask again; refused
        // (too soon since the last refresh, the post is gone, signed out): give up.
        if (refreshError?.status !== 0) return null;
        cause = { code: 'network', status: 0 };
      }
    }
    return null;
  }

  /** Whether `error` is one attempt() may recover from (so it must reach it unwrapped). */
  const canTry = (error) => (isExpired(error) && refreshItem !== null) || (unreachable(error) && whenReachable !== null);

  return { attempt, canTry };
}
