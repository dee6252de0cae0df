// The rung a player's first segment comes from. Prefetch and the early fetch (quick-start.js)
// warm one rung of an item; starting there shows a picture soonest. On a first visit that is
// the lowest, since nothing is known of the link yet; but the early fetch's own downloads are
// a measure of it, and on a fast link the rung the size calls for costs a few milliseconds
// more and spares the first 1–2 s of 240p.
import { chooseVariant, sharpStart, shortEdgeOf } from './abr.js';
import { dataSaverOn } from './data-saver.js';
import { absolute } from './playlist.js';

/**
 * From what is known now: the rung chosen from the estimate when prefetch warmed it too (it
 * warms the rung the link allows), else the one it warmed; the rung climbs later if the
 * network allows.
 */
export function warmStart(player, { item, variants }) {
  const start = chooseVariant(variants, {
    throughputBps: player.estimator.bitsPerSecond, maxShortEdge: shortEdgeOf(player.video), dataSaver: dataSaverOn(),
  });
  const warm = item.media.prefetch ? variants.findIndex((v) => v.uri === absolute(item.media.prefetch.playlist)) : -1;
  const chosenWarm = player.loader.store.has(variants[start].uri);
  if (!chosenWarm && warm >= 0 && !dataSaverOn() && player.loader.store.has(absolute(item.media.prefetch.first_segment))) return warm;
  return start;
}

/**
 * A first visit (nothing measured yet) about to start at the rung the early fetch warmed: once
 * that fetch's first segment is in (needed anyway to start there), its network timings say
 * whether the link affords the rung the size calls for at once (abr.js sharpStart). If so,
 * that rung, and the estimate starts from those timings.
 */
export async function sharpenStart(player, { item, variants }, start, signal) {
  const prefetch = item.media.prefetch;
  if (player.estimator.measured || dataSaverOn() || !prefetch || variants[start].uri !== absolute(prefetch.playlist)) return start;
  await player.loader.settled(absolute(prefetch.first_segment), signal);
  const link = player.estimator.linkTimings;
  const media = await player.readMedia(variants[start].uri, signal);
  const sharp = sharpStart(variants, {
    warm: start, link, maxShortEdge: shortEdgeOf(player.video), firstSegmentSeconds: media.segments[0]?.duration ?? 2,
  });
  if (sharp !== start) player.estimator.seed(link.bps);
  return sharp;
}
