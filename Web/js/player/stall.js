// Stalls: a playing video whose playhead has not moved for a while, although it is not at its
// end. The remedy depends on what is buffered around the playhead, in the manner of hls.js's
// gap controller: a small hole before the next buffered range is jumped over, a decoder stuck
// inside buffered data is nudged forward a little more on each try, and a playhead with
// nothing buffered ahead (or a hole as long as a segment: a segment is missing) needs its
// missing segment (asked again, a rung lower when its download hangs).

export const STALL_MS = 1500;       // no progress for this long while playing is a stall
const MAX_HOLE_SECONDS = 1;          // a gap up to this long is skipped; a longer one is refetched
const EDGE_SECONDS = 0.5;            // a playhead this close to a range's end has nothing to play
const NUDGE_STEP_SECONDS = 0.1;      // each nudge inside buffered data goes a little further
const RANGE_START_MARGIN = 0.05;     // land just inside the next range, not on its very edge

/** A TimeRanges as [[start, end], …]. */
export function rangesOf(timeRanges) {
  return Array.from({ length: timeRanges.length }, (_, index) => [timeRanges.start(index), timeRanges.end(index)]);
}

/**
 * What to do about a stall at `time` given the buffered `ranges` and how many nudges were
 * already tried since the playhead last moved:
 * - `{ kind: 'nudge', to }`: buffered data lies ahead of the playhead but the decoder is stuck;
 * - `{ kind: 'jump', to }`: the playhead sits in (or at the edge of) a small hole;
 * - `{ kind: 'refetch' }`: nothing is buffered ahead, or a hole too long to skip: the missing
 *   segment must come again.
 */
export function stallRemedy(ranges, time, { nudges = 0 } = {}) {
  const containing = ranges.find(([start, end]) => start <= time + 0.01 && time < end);
  if (containing && containing[1] - time > EDGE_SECONDS) {
    return { kind: 'nudge', to: time + NUDGE_STEP_SECONDS * (nudges + 1) };
  }
  const next = ranges.find(([start]) => start > time + 0.01);
  if (next && next[0] - time <= MAX_HOLE_SECONDS) return { kind: 'jump', to: next[0] + RANGE_START_MARGIN };
  return { kind: 'refetch' };
}

/**
 * Watches one <video> while an item plays: `onStall({ stalledMs, nudges, first })` when the playhead has
 * not moved for `stallMs` while playing (again every `stallMs` while it stays stuck), and
 * `onRecovered(ms)` once it moves again. Paused, ended or at the very end is never a stall: a
 * paused neighbour or a loop about to restart is not stuck. A seek under way is waited for.
 */
export class StallWatch {
  constructor(video, { onStall, onRecovered, stallMs = STALL_MS, intervalMs = 250 }) {
    this.video = video;
    this.onStall = onStall;
    this.onRecovered = onRecovered;
    this.stallMs = stallMs;
    this.reset(performance.now());
    this.timer = setInterval(() => this.check(), intervalMs);
  }

  reset(now) {
    this.lastTime = this.video.currentTime;
    this.stillSince = now;   // when the playhead was last seen moving (or last reported)
    this.stalledAt = null;   // when the current stall began
    this.nudges = 0;
  }

  check() {
    const video = this.video;
    const now = performance.now();
    const atEnd = Number.isFinite(video.duration) && video.currentTime >= video.duration - 0.25;
    if (video.paused || video.ended || atEnd) { this.reset(now); return; }
    if (video.seeking) return;
    if (video.currentTime !== this.lastTime) {
      if (this.stalledAt !== null) this.onRecovered?.(now - this.stalledAt);
      this.reset(now);
      return;
    }
    if (now - this.stillSince < this.stallMs) return;
    const first = this.stalledAt === null;
    this.stalledAt ??= this.stillSince;
    this.stillSince = now;
    this.onStall?.({ stalledMs: now - this.stalledAt, nudges: this.nudges, first });
  }

  /** The caller moved the playhead itself (a nudge or a jump): that is not progress. */
  nudged() {
    this.nudges += 1;
    this.lastTime = this.video.currentTime;
    this.stillSince = performance.now();
  }

  stop() { clearInterval(this.timer); this.timer = null; }
}
