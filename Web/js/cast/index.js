// The cast button of the full player. It exists in the DOM but stays hidden until the browser
// reports a device: Remote Playback API `watchAvailability` (Chrome → Chromecast), or Safari's
// `webkitplaybacktargetavailabilitychanged` (AirPlay). Casting hands the device the signed
// master URL: the element is switched from its MediaSource to a plain `src` of the master
// first (`switchToMaster`, the player's job), then the browser's device picker opens.
import { castKind, castButtonVisible, castUrl, needsPlainSource } from './cast-logic.js';

/**
 * `button` is shown/hidden here. `switchToMaster(url)` makes `video` play `url` natively from
 * where it was. Returns `{ destroy() }`.
 */
export function wireCast(video, button, { item, switchToMaster }) {
  const kind = castKind(video);
  let available = false;
  let watchId = null;
  let destroyed = false;
  const render = () => { button.hidden = !castButtonVisible({ kind, available, item }); };
  const onAirPlay = (event) => { available = event.availability === 'available'; render(); };
  render();

  if (kind === 'remote') {
    video.remote.watchAvailability((isAvailable) => { available = isAvailable; if (!destroyed) render(); })
      .then((id) => { watchId = id; if (destroyed) video.remote.cancelWatchAvailability?.(id).catch(() => {}); })
      .catch(() => { available = false; render(); });   // NotSupportedError: no button
  } else if (kind === 'airplay') {
    video.setAttribute('x-webkit-airplay', 'allow');
    video.addEventListener('webkitplaybacktargetavailabilitychanged', onAirPlay);
  }

  async function cast() {
    const url = castUrl(item);
    if (!url) return;
    // Synchronously, inside the click: the prompt needs the user's gesture.
    if (needsPlainSource(video, url)) switchToMaster(url);
    button.dataset.castUrl = url;   // what the device gets (the tests read it)
    try {
      if (kind === 'remote') await video.remote.prompt();
      else video.webkitShowPlaybackTargetPicker();
    } catch { /* the person closed the picker, or no device after all */ }
  }
  button.addEventListener('click', cast);

  return {
    destroy() {
      destroyed = true;
      button.removeEventListener('click', cast);
      if (watchId !== null) video.remote.cancelWatchAvailability?.(watchId).catch(() => {});
      video.removeEventListener('webkitplaybacktargetavailabilitychanged', onAirPlay);
    },
  };
}
