// An MSE player's item carrying on after a failed download that recovery.js can help with (fresh
// URLs after a 403/410, a wait while the server is away) instead of failing: the failed step runs
// again. After fresh URLs the item is first rebased onto them: the master and the current rung's
// playlist are read again under them (from the store when they are there: it keys by post +
// file, so no download), so the segments and key still to come are requested with the new
// token. The buffer, the rung and the position stay as they are.
import { playerError } from './errors.js';

/**
 * Whether `error` was recovered from (recovery.js), so the failed step can run again: after
 * fresh URLs, `session.media` is re-read from them (rebase) so the next request uses them.
 * `player` is the MsePlayer: its `recovery` and its playlist reads.
 */
export async function recoverItem(player, session, error) {
  let cause = error;
  while (player.recovery && !session.aborted && cause?.code !== 'aborted') {
    const signal = session.controller.signal;
    const how = await player.recovery.attempt(session.item, cause, { stale: session.itemMedia, signal });
    if (!how || session.aborted) return false;
    if (how === 'retry' || !session.media) return true;
    try {
      await rebase(player, session);
      return true;
    } catch (next) {
      cause = next;
    }
  }
  return false;
}

/** Reads the item's playlists again under its fresh URLs; the same segments or it throws. */
async function rebase(player, session) {
  const signal = session.controller.signal;
  const fresh = session.item.media;
  const variants = await player.readMaster(fresh.master, signal);
  const variant = variants[Math.max(0, session.variantIndex)];
  const media = await player.readMedia(variant.uri, signal);
  if (media.segments.length !== session.media.segments.length) {
    throw playerError('decode', 'the refreshed playlist lists other segments');
  }
  session.variants = variants;
  session.media = media;
  session.itemMedia = fresh; // only now: a rebase cut short is tried again with these URLs
  session.keys.clear(); // keys are cached by URL; the new key URL reads the same key
}
