// How an MSE player gets a stalled playhead moving again. stall.js notices the stall and picks
// the remedy from what is buffered around the playhead; this applies it to the player's item:
// buffered data ahead: nudge the stuck decoder or jump the small hole; nothing ahead: give up
// on the segment download the playhead waits for once it has run too long (the pump asks again,
// a rung lower for a few segments), or, with none under way, refetch from the playhead.
// For that, the pump's downloads run as the item's current request (watchedRequest): the remedy
// can see how long the one under way has run and abort it alone, while the item goes on.
import { abortedError } from './errors.js';
import { StallWatch, stallRemedy, rangesOf } from './stall.js';

// A download the playhead is stuck waiting for is given up on once it has run this long.
const REQUEST_PATIENCE_MS = 1000;
// After such a give-up, the rung stays at most one lower for this many segments.
const STEP_DOWN_SEGMENTS = 2;

/** One player's stall remedies, and its counts of them (for stats). */
export class StallRecovery {
  constructor(video) {
    this.video = video;
    this.stalls = 0;          // stalls seen while playing
    this.recoveries = [];     // ms from each stall's start until the playhead moved again
  }

  /**
   * Watches `session` (an MsePlayer item) while it plays; the caller stops the returned
   * StallWatch. `isCurrent()` says whether the item is still the player's; `refetchFrom(time)`
   * makes its pump fetch from the segment holding `time` on.
   */
  watch(session, { isCurrent, refetchFrom }) {
    return new StallWatch(this.video, {
      onStall: (stall) => { if (isCurrent()) this.remedy(session, stall, refetchFrom); },
      onRecovered: (ms) => this.recoveries.push(Math.round(ms)),
    });
  }

  /**
   * The playhead has not moved for a while though the video plays (StallWatch). Buffered data
   * ahead: nudge or jump over the hole. Nothing ahead: give up on a download that has run too
   * long (the pump asks again a rung lower), or, with none under way, refetch from the playhead.
   */
  remedy(session, { nudges, first }, refetchFrom) {
    if (session.aborted || session.failed || !session.media) return;
    if (first) this.stalls += 1;
    const remedy = stallRemedy(rangesOf(this.video.buffered), this.video.currentTime, { nudges });
    if (remedy.kind !== 'refetch') {
      this.video.currentTime = Math.min(remedy.to, session.media.duration);
      session.watch.nudged();
      return;
    }
    const request = session.request;
    if (request) {
      if (performance.now() - request.startedAt < REQUEST_PATIENCE_MS) return;
      request.stalled = true;
      request.controller.abort();
      return;
    }
    refetchFrom(this.video.currentTime);
  }
}

/**
 * Runs `work(signal)` (downloads of the pump for rung `rung`) as the session's current request,
 * which the stall remedy may give up on: then this rejects with an 'aborted' error marked
 * `stalled` while the item itself goes on. The item's own abort cancels it too.
 */
export async function watchedRequest(session, rung, work) {
  const request = { controller: new AbortController(), startedAt: performance.now(), stalled: false, rung };
  const itemSignal = session.controller.signal;
  const cancel = () => request.controller.abort();
  itemSignal.addEventListener('abort', cancel, { once: true });
  if (itemSignal.aborted) cancel();
  session.request = request;
  try {
    return await work(request.controller.signal);
  } catch (error) {
    if (request.stalled && !itemSignal.aborted) throw Object.assign(abortedError(), { stalled: request });
    throw error;
  } finally {
    itemSignal.removeEventListener('abort', cancel);
    if (session.request === request) session.request = null;
  }
}

/**
 * Whether `error`, which ended the download of segment `index`, was the stall remedy giving up
 * on it. If so, the rung is held at most one below the one given up on for the next few
 * segments (rungFor), and the pump asks again; any other error is not the remedy's.
 */
export function steppedDown(session, error, index) {
  if (!error?.stalled || session.aborted) return false;
  session.ceiling = { index: Math.max(0, error.stalled.rung - 1), until: index + STEP_DOWN_SEGMENTS };
  return true;
}

/** The rung segment `index` is fetched at: `target`, unless a recent give-up caps it. */
export function rungFor(session, index, target) {
  return session.ceiling && index < session.ceiling.until ? Math.min(target, session.ceiling.index) : target;
}
