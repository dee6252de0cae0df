// Pure planning for the pool of three <video> elements: which item each player should hold
// for a given on-screen position. No DOM here, so the rules are easy to test.
//
// The wanted items, in priority order, are the current item, the next one, the previous one,
// then further ahead; only video items need a player. A player that already holds a wanted
// item keeps it (its buffer is warm), and the free players take the missing wanted items.

export const POOL_SIZE = 3;

/** Indices of the video items that should have a player, most important first. */
export function wantedIndices(kinds, current, size = POOL_SIZE) {
  const order = [current, current + 1, current - 1, current + 2, current + 3, current - 2];
  const wanted = [];
  for (const index of order) {
    if (index < 0 || index >= kinds.length || kinds[index] !== 'video') continue;
    if (!wanted.includes(index)) wanted.push(index);
    if (wanted.length === size) break;
  }
  return wanted;
}

/**
 * `slots` is what each player holds now (item ids or null); returns the new assignment, same
 * length. `ids[i]` and `kinds[i]` describe the feed. Never puts one item in two players.
 */
export function planPool({ ids, kinds, current, slots, reach = slots.length }) {
  // `reach` below the pool size keeps players idle: reach 1 loads only the current item (the
  // benchmark's no-look-ahead baseline).
  const wantedIds = wantedIndices(kinds, current, Math.min(reach, slots.length)).map((index) => ids[index]);
  const next = slots.map((id) => (wantedIds.includes(id) ? id : null));
  // A duplicate can only come from a caller bug, but keep the invariant regardless.
  next.forEach((id, slot) => { if (id !== null && next.indexOf(id) !== slot) next[slot] = null; });
  for (const id of wantedIds) {
    if (next.includes(id)) continue;
    const free = next.indexOf(null);
    if (free === -1) break;
    next[free] = id;
  }
  return next;
}

/** The ids of the next `count` items after `current` that are videos (for engine.prefetch). */
export function prefetchTargets(kinds, current, count = 2) {
  const targets = [];
  for (let index = current + 1; index < kinds.length && targets.length < count; index += 1) {
    if (kinds[index] === 'video') targets.push(index);
  }
  return targets;
}
