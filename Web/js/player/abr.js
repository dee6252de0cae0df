// Bitrate selection: which variant to play from measured throughput, the buffer, and the size
// the video is shown at. Pure, so it is unit-tested without a network.

/** Exponentially weighted throughput in bits per second; unknown until a real sample. */
export class ThroughputEstimator {
  constructor({ halfLife = 3 } = {}) {
    this.alpha = 1 - Math.pow(0.5, 1 / halfLife);
    this.estimate = null;
  }

  /** A download of `bytes` that took `seconds`; tiny or instant ones say nothing. */
  sample(bytes, seconds) {
    if (bytes < 16_000 || seconds <= 0.001) return;
    const bps = (bytes * 8) / seconds;
    this.estimate = this.estimate === null ? bps : this.estimate + this.alpha * (bps - this.estimate);
  }

  get bitsPerSecond() { return this.estimate; }
}

/**
 * Index of the variant to play.
 * - Unknown network: start at the lowest variant (the one prefetch warms).
 * - Never above the element's pixel size × devicePixelRatio (short edge against short edge,
 *   so portrait and landscape compare alike); the lowest is always allowed.
 * - Up only when throughput × safety covers the variant's average bandwidth and the buffer
 *   holds a few seconds; down at once when throughput or the buffer falls short.
 */
export function chooseVariant(variants, { throughputBps = null, maxShortEdge = Infinity, bufferAhead = 0, current = null, safety = 0.7 } = {}) {
  const allowed = variants
    .map((variant, index) => ({ variant, index }))
    .filter(({ variant, index }) => index === 0 || Math.min(variant.width, variant.height) <= maxShortEdge * 1.05);
  if (throughputBps === null) return current ?? 0;
  const budget = throughputBps * safety;
  let best = 0;
  for (const { variant, index } of allowed) {
    if ((variant.averageBandwidth || variant.bandwidth) <= budget) best = index;
  }
  if (current === null) return best;
  if (bufferAhead < 1.5 && current > 0) return Math.min(best, current - 1); // starving: step down
  if (best > current && bufferAhead < 4) return current;      // climb only with some cushion
  return best;
}

/** The short edge, in device pixels, a video element is shown at. */
export function shortEdgeOf(element) {
  const ratio = globalThis.devicePixelRatio || 1;
  const width = element.clientWidth || 360;
  const height = element.clientHeight || 640;
  return Math.ceil(Math.min(width, height) * ratio);
}
