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
