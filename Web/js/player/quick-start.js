// The first video of a visit, fetched at once: as soon as the feed's answer names it, its master
// playlist and, while the link is unknown (a first visit) or data saver is on, the start rung's
// playlist, key, init section and first segment go out together, from the URLs the feed item
// carries (`item.media.prefetch`: the lowest rung, where the player starts on an unknown link).
// Fetched one after another by the player (master → playlist → init → segment) that was four
// round trips before the first picture; together it is one. The player then finds them in the
// store, or joins the downloads still under way (loader.js), as it would a prefetch's.
// With a remembered throughput the player may start higher, so only the master goes early.
// Only their network timings are measured: the time they take to resolve is mostly the page's
// own loading on the main thread (127.0.0.1 looked like a 1 Mbit/s link); the player judges
// its start from those timings (start-rung.js).
import { fetchBytes } from './loader.js';
import { dataSaverOn } from './data-saver.js';
import { absolute } from './playlist.js';

/** Starts the downloads for `item` (a feed item) into `store`; does nothing for a non-video. */
export function fetchStart(item, { store, estimator }) {
  const prefetch = item?.kind === 'video' ? item.media?.prefetch : null;
  if (!prefetch || !item.media.master) return;
  const unknownLink = estimator.bitsPerSecond === null || dataSaverOn();
  const names = unknownLink
    ? [item.media.master, prefetch.playlist, prefetch.key, prefetch.init_segment, prefetch.first_segment]
    : [item.media.master];
  for (const name of names.filter(Boolean)) {
    const url = absolute(name);
    if (store.has(url) || store.pending.has(url)) continue;
    // A failure (an expired URL …) leaves nothing: the player fetches it itself and recovers.
    store.track(url, fetchBytes(url, { priority: 'high', onSample: (bytes, _seconds, link) => estimator.sampleLink(bytes, link) }).catch(() => null));
  }
}
