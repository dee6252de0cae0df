// The full player's watch events (js/events/, docs/recommendations-api.md "Events"): an
// impression when playback starts, and a view (watched time with loops and replays, the
// post's length, the loop count) or a skip (left within 2 s) when the player is closed or the
// page is hidden or left (then before the beacon, as the feed does). Coming back to the page
// with the player still open starts a new impression, as coming back to the feed does.
//
// Which watch counts what: the feed and the full player each count only the time their own
// element played. The detail sheet never shows over a running feed — opening /p/{id} from the
// feed (a link, back/forward) puts the sheet over Discover or a grid, so the feed is hidden
// first and its `setWatching(false)` ends the feed's view of its item right then. The full
// player's view of the same post starts at Play and is a watch of its own; when the person
// returns to the feed, the feed starts a new impression. So one stretch of watching is never
// in two views.
import { recordEvent, onPageLeave } from '../events/index.js';
import { createWatchTracker } from '../events/watch-tracker.js';

const PROGRESS = ['timeupdate', 'playing', 'pause', 'ended'];

/** Starts at once (call when `video` begins playing `item`); `stop()` ends the watch. */
export function startPlayerWatchEvents(item, video) {
  const tracker = createWatchTracker({ record: recordEvent });
  let stopped = false;

  const end = () => tracker.end(video);
  function begin() {
    if (stopped || document.hidden) return;
    tracker.begin(item);
    tracker.sample(video);
  }
  const onProgress = () => tracker.sample(video);
  const onVisibility = () => { if (!document.hidden) begin(); };

  for (const type of PROGRESS) video.addEventListener(type, onProgress);
  const stopLeave = onPageLeave(end);
  document.addEventListener('visibilitychange', onVisibility);
  begin();

  return {
    /** The player closes: call while `video` is still this player's (before giving it back). */
    stop() {
      if (stopped) return;
      stopped = true;
      end();
      for (const type of PROGRESS) video.removeEventListener(type, onProgress);
      stopLeave();
      document.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
