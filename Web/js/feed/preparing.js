// While the library has no post to show yet but videos are being transcoded (the first
// `serve --demo`, a folder just imported), the feed says so and looks again by itself, instead
// of "Your library is empty" and a button to press.
import { api } from '../api.js';
import { renderState } from './states.js';

const RECHECK_MS = 3000;

/** Transcodes the viewer may see that are queued or running (0 also when they can't be read). */
export async function pendingTranscodes() {
  try {
    const { items } = await api.transcodes();
    return items.filter((job) => job.state === 'queued' || job.state === 'running').length;
  } catch {
    return 0;   // offline, or not allowed: the plain empty state says what to do
  }
}

/**
 * Shows "Preparing your library" in `box` while transcodes are pending, and calls `onReady`
 * once one of them has ended (its post may be published now) or none is left. Returns a
 * function that stops looking, or null, showing nothing, when no transcode is pending or the
 * feed stopped (`active()` false) while it asked.
 */
export async function showPreparing(box, { onReady, active, pending = pendingTranscodes, everyMs = RECHECK_MS }) {
  let count = await pending();
  if (count === 0 || !active()) return null;
  let stopped = false;
  let timer = null;
  renderState(box, { kind: 'preparing', pending: count });
  const look = async () => {
    const now = await pending();
    if (stopped) return;
    if (now < count) { onReady(); return; }
    if (now !== count) renderState(box, { kind: 'preparing', pending: (count = now) });
    timer = setTimeout(look, everyMs);
  };
  timer = setTimeout(look, everyMs);
  return () => { stopped = true; clearTimeout(timer); };
}
