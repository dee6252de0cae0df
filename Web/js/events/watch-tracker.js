// What one person did with the item on screen, as events: `impression` when it becomes the
// current one, and on leaving a video `view` (watched ≥ 2 s) or `skip` (less). Watched time
// is the playhead's forward progress, loops included: small forward steps count, a jump back
// from the end to the start is a loop, and any other jump (a seek) counts nothing.
// `begin(item)` / `sample(video)` (on timeupdate) / `end(video)`; one item at a time.

export const VIEW_AFTER_MS = 2000;
/** A forward step larger than this between two samples is a seek, not watching. */
const MAX_STEP_S = 1.5;
/** The server's bounds (watched_ms ≤ 6 h, watch ratio ≤ 50, loops ≤ 1000). */
const MAX_MS = 21_600_000;
const MAX_RATIO = 50;
const MAX_LOOPS = 1000;

export function createWatchTracker({ record }) {
  let session = null;   // { item, watched (s), loops, last, duration, video }

  function sample(video) {
    if (!session || !video) return;
    const time = video.currentTime;
    if (Number.isFinite(video.duration) && video.duration > 0) session.duration = video.duration;
    if (session.video !== video) { session.video = video; session.last = time; return; }
    const step = time - session.last;
    const nearEnd = session.duration !== null && session.last >= session.duration - MAX_STEP_S;
    if (step > 0 && step <= MAX_STEP_S) session.watched += step;
    else if (step < 0 && nearEnd && time <= MAX_STEP_S) {
      session.watched += session.duration - session.last + time;
      session.loops += 1;
    }
    session.last = time;
  }

  function end(video, { failed = false } = {}) {
    if (!session) return;
    sample(video);
    const { item, watched, loops, duration } = session;
    session = null;
    // Photos and carousels end at their impression (their likes, ratings, shares… are sent as
    // they happen): a `view` must carry `duration_ms`, the post's length, and a photo has none.
    // Any length made up for it would decide the label on its own — the dwell time itself
    // makes every look ≥ 2 s a complete watch, i.e. a long view (WatchLabel.isLongView: ≤ 18 s
    // watched to the end), weighted like a finished video; a fixed length is a threshold no
    // one chose. A dwell-only `skip` without the matching views would only ever count against
    // photos. So no view and no skip for them.
    if (item.kind !== 'video' || failed) return;
    const watchedMs = Math.round(watched * 1000);
    if (watchedMs < VIEW_AFTER_MS) { record('skip', item.id, { watched_ms: watchedMs }); return; }
    const durationMs = Math.max(1, Math.round((duration ?? item.duration ?? watched) * 1000));
    record('view', item.id, {
      watched_ms: Math.min(watchedMs, durationMs * MAX_RATIO, MAX_MS),
      duration_ms: Math.min(durationMs, MAX_MS),
      loops: Math.min(loops, MAX_LOOPS),
    });
  }

  return {
    begin(item) {
      if (session?.item === item) return;
      end(null);
      if (!item) return;
      session = { item, watched: 0, loops: 0, last: 0, duration: null, video: null };
      record('impression', item.id);
    },
    sample,
    end,
    get item() { return session?.item ?? null; },
  };
}
