// How much of a video an MSE player keeps in its SourceBuffer, read off the element's buffered
// ranges: it fetches BUFFER_GOAL seconds ahead of the playhead, keeps a short video whole (so it
// loops without downloading again) and, for a long one, drops what is well behind the playhead.
// Pure functions of a TimeRanges (`video.buffered`) and times in seconds.

export const BUFFER_GOAL = 10;   // seconds fetched ahead of the playhead
const MAX_BUFFERED = 90;         // beyond this much in total, evict what is behind
const KEEP_BEHIND = 10;

/** Seconds buffered from `time` on, to the end of the range holding it; 0 when none does. */
export function bufferedAhead(buffered, time) {
  for (let index = 0; index < buffered.length; index += 1) {
    if (buffered.start(index) <= time + 0.25 && time < buffered.end(index)) return buffered.end(index) - time;
  }
  return 0;
}

/** Whether `time` is buffered (a seek there needs no download). */
export function isBuffered(buffered, time) {
  for (let index = 0; index < buffered.length; index += 1) {
    if (buffered.start(index) <= time + 0.1 && time < buffered.end(index)) return true;
  }
  return false;
}

/** Whether the buffer already covers `segment` (its edges aside, which audio and video round). */
export function holds(buffered, segment) {
  for (let index = 0; index < buffered.length; index += 1) {
    if (buffered.start(index) <= segment.start + 0.1 && segment.start + segment.duration - 0.1 <= buffered.end(index)) return true;
  }
  return false;
}

/**
 * A short video keeps every segment buffered and loops over them, so segments fetched while
 * the rung was still climbing would come round at their low rung on every loop. Once all are
 * buffered, the first such segment the playhead (at `time`) has passed is to be fetched again
 * at the `current` rung (appending over it replaces it); -1 when there is none. `rungs` holds
 * the rung each segment was appended at.
 */
export function staleSegment(media, rungs, current, time) {
  if (media.duration > MAX_BUFFERED) return -1;
  return media.segments.findIndex((segment, index) =>
    (rungs[index] ?? current) < current && time > segment.start + segment.duration + 0.25);
}

/**
 * Long videos only: where to cut what is well behind the playhead once the total is large
 * (remove [0, cut)); `force` (the buffer is full) cuts below that total too. Null: keep all.
 */
export function evictionCut(buffered, time, force) {
  if (buffered.length === 0) return null;
  const total = buffered.end(buffered.length - 1) - buffered.start(0);
  const cut = time - KEEP_BEHIND;
  if ((!force && total < MAX_BUFFERED) || cut <= buffered.start(0)) return null;
  return cut;
}
