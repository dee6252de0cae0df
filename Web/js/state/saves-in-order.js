// Likes, favorites and ratings are applied at once and sent at once; a few taps in a quick row
// are in flight together, and under load the server's answers can cross. What follows a save
// (its watch event, the app store's news, or the rollback of a refusal) runs in the order the
// saves were made: For You reads the event log as the order of what the person did.
let settled = Promise.resolve();

/** `sent`: the save's request, already started. `saved()` or `failed(error)` runs after every
 * earlier save's own has. Resolves when this one's has run. */
export function afterEarlierSaves(sent, saved, failed) {
  sent.catch(() => {});   // handled in its turn, not reported as unhandled meanwhile
  settled = settled
    .then(() => sent.then(saved, failed))
    .catch((error) => console.error(error));   // one outcome's bug never stops the later ones
  return settled;
}

// A refused save cannot simply put back what the post showed before it: other saves of the same
// post may have been made since (a second tap on the heart, a rating), and each of those is
// either saved or still on its way. So each post with saves in flight keeps what the server has
// confirmed and the changes not yet answered, in order; a refusal shows the confirmed fields
// with the changes still on their way applied on top. Keyed by post id: the feed and the detail
// sheet hold their own copies of a post.
const unsettled = new Map();   // post id → { confirmed: {field: value}, pending: [change, …] }

/** Sends one change to post `id`'s fields (already shown). `before`: those fields' values as
 * shown before it. `saved()` or `failed(error, shown)` runs in the order of the saves (see
 * `afterEarlierSaves`); `shown` is what the post's fields are to show after the refusal. */
export function saveChange(id, { before, change }, sent, saved, failed) {
  const post = unsettled.get(id) ?? { confirmed: {}, pending: [] };
  unsettled.set(id, post);
  // A field no save in flight has touched is shown as the server has it.
  for (const [field, value] of Object.entries(before)) if (!(field in post.confirmed)) post.confirmed[field] = value;
  post.pending.push(change);
  const settle = () => {
    post.pending.shift();   // outcomes run in order: this one is the oldest in flight
    if (!post.pending.length) unsettled.delete(id);
  };
  return afterEarlierSaves(sent, () => {
    Object.assign(post.confirmed, change);
    settle();
    saved();
  }, (error) => {
    settle();
    failed(error, Object.assign({}, post.confirmed, ...post.pending));
  });
}
