// The link's measured throughput, remembered across visits: the first video of the next visit
// starts at the rung the link allowed last time instead of the lowest (and climbing from there
// on every visit). Discounted and forgotten after a day, since a phone moves between links;
// a wrong guess costs one step down (abr.js steps down at once when the buffer runs short).

const KEY = 'reelhouse.throughput';
const LIFETIME_MS = 24 * 3600 * 1000;
const DISCOUNT = 0.8;
const WRITE_EVERY_MS = 5000;

/** The remembered estimate in bits per second, discounted; null when none or too old. */
export function rememberedThroughput(now = Date.now()) {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (!saved || !Number.isFinite(saved.bps) || saved.bps <= 0 || !(now - saved.at < LIFETIME_MS) || saved.at > now) return null;
    return saved.bps * DISCOUNT;
  } catch { return null; }
}

/** A writer for the estimator's changes: at most one write per few seconds. */
export function throughputRecorder(now = () => Date.now()) {
  let lastWrite = -Infinity;
  return (bps) => {
    const at = now();
    if (!Number.isFinite(bps) || bps <= 0 || at - lastWrite < WRITE_EVERY_MS) return;
    lastWrite = at;
    try { localStorage.setItem(KEY, JSON.stringify({ bps: Math.round(bps), at })); } catch { /* this visit only */ }
  };
}
