// Which lease holds which of the page's <video> elements: pure, so the rules are unit-tested
// (Tests/web/engine_unit/playback.test.js) apart from the elements and the engine.
//
// The rules, in the words the screens would use:
// - What covers the page comes first. Leases arrive in precedence order (service.js: the
//   higher layer first, then the newer): the story player or the full player opened over the
//   feed gets the elements it asks for, and the feed plays on with what is left.
// - Nobody gives up an element it does not have to: a lease keeps what it holds, up to its
//   share. When it must give some up, the least valuable go first: an idle element, then one
//   loaded with an item that is not on screen, the one on screen last (`value`, 2/1/0).
// - Free elements go to the leases still short of their share, the top one first.

/**
 * `leases`: `[{ id, wanted, held: [{ seat, value }] }]`, top first; `seatCount`: how many
 * elements the page has. Returns a Map id → the seat indices that lease holds, ascending.
 */
export function allocateSeats(leases, seatCount) {
  let left = seatCount;
  const share = new Map();
  for (const lease of leases) {
    const quota = Math.max(0, Math.min(lease.wanted, left));
    share.set(lease.id, quota);
    left -= quota;
  }
  const taken = new Set();
  const result = new Map();
  for (const lease of leases) {
    const kept = [...lease.held]
      .sort((a, b) => b.value - a.value || a.seat - b.seat)
      .slice(0, share.get(lease.id))
      .map((held) => held.seat);
    kept.forEach((seat) => taken.add(seat));
    result.set(lease.id, kept);
  }
  const free = Array.from({ length: seatCount }, (_, seat) => seat).filter((seat) => !taken.has(seat));
  for (const lease of leases) {
    const mine = result.get(lease.id);
    while (mine.length < share.get(lease.id) && free.length) mine.push(free.shift());
    mine.sort((a, b) => a - b);
  }
  return result;
}
