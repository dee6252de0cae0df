// The engine the full player uses when no feed runs on the page (a deep link to /p/{id}):
// created once, on first Play. With a feed running, the borrowed slot brings the feed's engine.
import { api } from '../api.js';
import { loadEngine } from '../playback/engine-loader.js';
import { createMediaRefresher } from '../feed/media-refresh.js';

let enginePromise = null;

export function watchEngine() {
  enginePromise ??= (() => {
    const refresher = createMediaRefresher({ fetchItem: (id) => api.video(id) });
    return loadEngine({ prefetch: false, refreshItem: (item, options) => refresher.refresh(item, options) });
  })();
  return enginePromise;
}
