// The app's small state store: named keys with get / set / subscribe. app.js creates one per
// page and hands it to the features that need it (the feed, the screens, the stories, the
// detail sheet, the nav); nothing imports it as a singleton. It replaces the custom window
// events the app used to send itself, a hidden bus: who listened to `reelhouse:library` was
// found only by searching the code, and a misspelt name failed silently. Here every key is declared below,
// and an unknown key throws.
//
// `set` tells the subscribers of a key when its value changes (Object.is); a value that is a
// new object each time (postChanged) always does. The "something happened" keys are counts
// that go up (`bump`), so each time is a change.

export const KEYS = Object.freeze({
  /** The library chosen in Profile (an id), or null for every library granted (state/library.js). */
  library: null,
  /** 'signed-in' | 'signed-out': a 401 on a screen signs the app out (app.js shows the sign-in form). */
  session: null,
  /** `{ item }`: the post last changed (a like, a rating, an edit) in the feed or the detail sheet. */
  postChanged: null,
  /** `{ id }`: the post last deleted from the detail sheet (a grid drops its cover). */
  postDeleted: null,
  /** A count: stories changed (a story player closed or deleted an item, the network came back): trays reload. */
  storiesChanged: 0,
  /** A count: the network came back for the stories (ui/stories-offline.js): the player retries what failed. */
  storiesBackOnline: 0,
});

export function createStore(initial = {}) {
  const values = new Map(Object.entries(KEYS));
  const listeners = new Map(Object.keys(KEYS).map((key) => [key, new Set()]));
  const known = (key) => {
    if (!values.has(key)) throw new Error(`store: no key "${key}" (state/store.js KEYS)`);
  };
  for (const [key, value] of Object.entries(initial)) { known(key); values.set(key, value); }

  const store = {
    get(key) {
      known(key);
      return values.get(key);
    },
    set(key, value) {
      known(key);
      if (Object.is(values.get(key), value)) return;
      values.set(key, value);
      // A copy: a subscriber may unsubscribe (a screen closing) while we call them.
      for (const listener of [...listeners.get(key)]) {
        try { listener(value); } catch (error) { console.error(`store: a "${key}" subscriber failed`, error); }
      }
    },
    /** One more of a counting key (storiesChanged, storiesBackOnline). */
    bump(key) {
      store.set(key, (store.get(key) ?? 0) + 1);
    },
    /** Calls `listener(value)` on every change of `key`; returns the unsubscribe function. */
    subscribe(key, listener) {
      known(key);
      listeners.get(key).add(listener);
      return () => listeners.get(key).delete(listener);
    },
  };
  return store;
}
