// The offline banner, and a hook for whatever should retry once the network is back. "Back"
// is either the browser going online again or, when a request found no server although the
// browser is online (the server restarting), /health answering again: a probe with backoff
// runs while anyone waits for that, so the page recovers by itself, without a reload.

const FIRST_PROBE_MS = 500;
const MAX_PROBE_MS = 4000;

export function watchConnectivity({ onOnline, probeUrl = '/health' }) {
  const banner = document.getElementById('offline-banner');
  let probing = null; // Promise<boolean> of the probe loop under way
  let retryQueued = false;
  const update = () => { banner.hidden = navigator.onLine; };
  const online = () => { update(); onOnline(); };
  window.addEventListener('offline', update);
  window.addEventListener('online', online);
  update();

  async function answers() {
    try {
      const response = await fetch(probeUrl, { cache: 'no-store', credentials: 'same-origin' });
      return response.ok;
    } catch {
      return false;
    }
  }

  /** Probes until the server answers; true when it had to wait (the server was away). */
  function probe() {
    probing ??= (async () => {
      let delay = FIRST_PROBE_MS;
      let waited = false;
      while (!(await answers())) {
        waited = true;
        banner.hidden = false;
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(MAX_PROBE_MS, delay * 1.5);
      }
      probing = null;
      if (waited) update();
      return waited;
    })();
    return probing;
  }

  return {
    /** A request failed for lack of a network even though the browser thinks it is online. */
    showOffline() {
      banner.hidden = false;
      if (retryQueued) return;
      retryQueued = true;
      probe().then(() => { retryQueued = false; update(); onOnline(); });
    },
    /** Resolves when the server answers again: true if it was away, false if it answered at once. */
    whenBack: probe,
    hide() { banner.hidden = true; },
    stop() {
      window.removeEventListener('offline', update);
      window.removeEventListener('online', online);
      banner.hidden = true;
    },
  };
}
