// The offline banner, and a hook for whatever should retry once the network is back.

export function watchConnectivity({ onOnline }) {
  const banner = document.getElementById('offline-banner');
  const update = () => { banner.hidden = navigator.onLine; };
  const online = () => { update(); onOnline(); };
  window.addEventListener('offline', update);
  window.addEventListener('online', online);
  update();
  return {
    /** A request failed for lack of a network even though the browser thinks it is online. */
    showOffline() { banner.hidden = false; },
    hide() { banner.hidden = true; },
    stop() {
      window.removeEventListener('offline', update);
      window.removeEventListener('online', online);
      banner.hidden = true;
    },
  };
}
