// Bitrate selection: which variant to play from measured throughput, the buffer, and the size
// the video is shown at. Pure, so it is unit-tested without a network.

const SMALL_TRANSFER_BYTES = 16_000;
const FLOOR_MIN_BYTES = 4_000;
// Below this many bytes with network timings, the link is not judged at all.
const LINK_MIN_BYTES = 8_000;
// How much later a first visit's first frame may come to be sharp instead of at the lowest rung.
const SHARP_START_BUDGET_S = 0.15;

/**
 * Exponentially weighted throughput in bits per second. A small transfer's time is mostly
 * latency, so it does not move the estimate; but bytes ÷ time of the small ones together is
 * still a floor (the link is at least that fast), which stands in until a real sample comes.
 * Without it a library of small segments (a low rung of a simple picture is a few kB) left the
 * estimate unknown for good, and the first video never left its lowest rung.
 */
export class ThroughputEstimator {
  /** `initial`: a remembered estimate to start from (link-memory.js); `onChange(bps)` hears each new estimate. */
  constructor({ halfLife = 3, initial = null, onChange = null } = {}) {
    this.alpha = 1 - Math.pow(0.5, 1 / halfLife);
    this.estimate = Number.isFinite(initial) && initial > 0 ? initial : null;
    this.onChange = onChange;
    this.small = { bytes: 0, seconds: 0 };
    this.link = { bytes: 0, transfer: 0, wait: Infinity };
  }

  /**
   * A download of `bytes` that took `seconds`; `link` ({ wait, transfer } in seconds, from
   * Resource Timing, loader.js) when the browser gave the network's part of it.
   */
  sample(bytes, seconds, link = null) {
    this.sampleLink(bytes, link);
    if (seconds <= 0) return;
    if (bytes < SMALL_TRANSFER_BYTES) {
      this.small.bytes += bytes;
      this.small.seconds += seconds;
      return;
    }
    if (seconds <= 0.001) return;
    const bps = (bytes * 8) / seconds;
    this.estimate = this.estimate === null ? bps : this.estimate + this.alpha * (bps - this.estimate);
    this.onChange?.(this.estimate);
  }

  /**
   * Only the network timings of a download (null: none): for the early fetch, whose time to
   * resolve is mostly the page's own loading on the main thread, so not a throughput sample.
   */
  sampleLink(bytes, link) {
    if (!link) return;
    this.link.bytes += bytes;
    this.link.transfer += link.transfer;
    this.link.wait = Math.min(this.link.wait, link.wait);
  }

  /** Whether a real sample (or a remembered one) stands behind the estimate: not on a first visit's first downloads. */
  get measured() { return this.estimate !== null; }

  /**
   * The link as its downloads' network timings show it, or null under a few kB of them:
   * `bps`, bytes over the time from first to last byte (the page's busy main thread and the
   * round trip left out), and `rtt`, the shortest wait for a first byte.
   */
  get linkTimings() {
    if (this.link.bytes < LINK_MIN_BYTES) return null;
    return { bps: (this.link.bytes * 8) / Math.max(this.link.transfer, 0.001), rtt: this.link.wait };
  }

  /** Starts the estimate at `bps` when nothing was measured yet (a sharp start's choice, start-rung.js). */
  seed(bps) {
    if (this.estimate === null && Number.isFinite(bps) && bps > 0) this.estimate = bps;
  }

  /** The estimate; else the small transfers' floor once there are a few kB of them; else null. */
  get bitsPerSecond() {
    if (this.estimate !== null) return this.estimate;
    if (this.small.bytes < FLOOR_MIN_BYTES) return null;
    return (this.small.bytes * 8) / Math.max(this.small.seconds, 0.001);
  }
}

/**
 * Index of the variant to play.
 * - Data saver on: always the lowest.
 * - Unknown network: start at the lowest variant (the one prefetch warms).
 * - Never above the smallest rung that covers the element's pixel size × devicePixelRatio
 *   (short edge against short edge, so portrait and landscape compare alike): a 484-px-wide
 *   box gets 540p, not the 360p below it; the lowest is always allowed.
 * - `segmentSeconds`: the next segment's duration (the quick climb and starving are relative to it).
 * - Up only when throughput × safety covers the variant's average bandwidth and the buffer
 *   holds a few seconds, or sooner when the next segment at the higher rung would download in
 *   under half of what is buffered (a fast link at the start: climb at the next segment, not
 *   after a buffer of low-rung video); down at once when throughput or the buffer falls short.
 */
export function chooseVariant(variants, { throughputBps = null, maxShortEdge = Infinity, bufferAhead = 0, current = null, safety = 0.7, segmentSeconds = 2, dataSaver = false } = {}) {
  if (dataSaver) return 0;                                     // the person asked for the lowest rung
  const edge = (variant) => Math.min(variant.width, variant.height);
  // Within 5 % counts as covering: 1080p covers a 1134-px box, not only a 1080-px one.
  const covering = variants.map(edge).filter((short) => short * 1.05 >= maxShortEdge);
  const cap = covering.length > 0 ? Math.min(...covering) : Infinity;
  const allowed = variants
    .map((variant, index) => ({ variant, index }))
    .filter(({ variant, index }) => index === 0 || edge(variant) <= cap);
  if (throughputBps === null) return current ?? 0;
  const budget = throughputBps * safety;
  let best = 0;
  for (const { variant, index } of allowed) {
    if ((variant.averageBandwidth || variant.bandwidth) <= budget) best = index;
  }
  if (current === null) return best;
  // Starving (less than three quarters of the next segment buffered): step down. Relative to the
  // segment, since a video opens with short ones (0.5 s, 0.5 s, 1 s): 1 s ahead of a 1 s segment
  // is plenty, and stepping down there took a fast link from 540p back to 360p for a segment.
  if (bufferAhead < 0.75 * segmentSeconds && current > 0) return Math.min(best, current - 1);
  if (best > current && bufferAhead < 4) {                     // climb only with some cushion …
    const downloadSeconds = (variant) => ((variant.averageBandwidth || variant.bandwidth) * segmentSeconds) / budget;
    let quick = current;                                       // … or when the next one comes quickly
    for (let index = current + 1; index <= best; index += 1) {
      if (downloadSeconds(variants[index]) <= bufferAhead / 2) quick = index;
    }
    return quick;
  }
  return best;
}

/**
 * A first visit's start rung. The lowest rung (`warm`, which the early fetch brought) shows a
 * picture soonest; a higher one costs its playlist, then its init section and first segment
 * (two round trips and the segment's transfer). Start at the sharpest rung, up to the one the
 * link and the size call for, whose cost the link's timings put within `budget` seconds: sharp
 * from the first frame instead of 1–2 s of 240p. Unknown timings, or a slow link: `warm`.
 */
export function sharpStart(variants, { warm, link, maxShortEdge = Infinity, firstSegmentSeconds = 2, budget = SHARP_START_BUDGET_S, safety = 0.7 }) {
  if (!link) return warm;
  const cost = (variant) => 2 * link.rtt + ((variant.averageBandwidth || variant.bandwidth) * firstSegmentSeconds) / link.bps;
  for (let index = chooseVariant(variants, { throughputBps: link.bps, maxShortEdge, safety }); index > warm; index -= 1) {
    if (cost(variants[index]) <= budget) return index;
  }
  return warm;
}

/** The short edge, in device pixels, a video element is shown at. */
export function shortEdgeOf(element) {
  const ratio = globalThis.devicePixelRatio || 1;
  const width = element.clientWidth || 360;
  const height = element.clientHeight || 640;
  return Math.ceil(Math.min(width, height) * ratio);
}
