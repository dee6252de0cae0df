// The feed's watch events (js/events/): an impression when an item becomes the current one,
// and its view or skip when the person leaves it — for another item, for another screen of
// the app (the feed is hidden), or by hiding or leaving the page (then before the beacon).
// Playback progress comes from the current pooled <video>'s timeupdate events.
import { recordEvent, onPageLeave } from '../events/index.js';
import { createWatchTracker } from '../events/watch-tracker.js';

/** `currentEntry()` → { item, element } on screen; `currentVideo()` → its pooled <video> or null. */
export function createFeedWatchEvents({ scroller, currentEntry, currentVideo }) {
  const tracker = createWatchTracker({ record: recordEvent });
  let watching = true;   // false while the feed is hidden or the page is in the background
  let shown = null;      // the entry being watched

  // Called while the pooled player still belongs to the item being left.
  function end() {
    if (!shown) return;
    tracker.end(currentVideo(), { failed: shown.element.classList.contains('failed') });
    shown = null;
  }

  function begin() {
    const entry = currentEntry();
    if (!watching || !entry || document.hidden) return;
    shown = entry;
    tracker.begin(entry.item);
    tracker.sample(currentVideo());
  }

  const onProgress = (event) => {
    if (event.target instanceof HTMLVideoElement && event.target === currentVideo()) tracker.sample(event.target);
  };
  // timeupdate and playing do not bubble: listen in the capture phase for the pooled videos.
  for (const type of ['timeupdate', 'playing', 'ended']) scroller.addEventListener(type, onProgress, true);
  const stopLeave = onPageLeave(end);
  const onVisibility = () => { if (!document.hidden) begin(); };
  document.addEventListener('visibilitychange', onVisibility);

  return {
    /** Call before the current item changes: ends the view of the one being left. */
    leaving: end,
    /** Call once the new current item (and its player) is in place. */
    arrived: begin,
    setWatching(on) {
      if (on === watching) return;
      if (!on) end();
      watching = on;
      if (on) begin();
    },
    stop() {
      end();
      stopLeave();
      document.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
