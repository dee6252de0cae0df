// The library the person chose to look at (docs/catalog-api.md, "Library scope"): kept in
// localStorage per user, sent as `library=` with every listing call (api.js), and held in the
// app's store (`library`, state/store.js) so that every screen reloads in the new scope.

let userKey = 'anonymous';

/** Which user's choice to read and write (called once /me answered). */
export function setLibraryUser(userId) {
  userKey = userId === undefined || userId === null ? 'anonymous' : String(userId);
}

const storageKey = () => `reelhouse.library.${userKey}`;

/** The chosen library's id, or null for "every library granted to me". */
export function currentLibrary() {
  try {
    const value = localStorage.getItem(storageKey());
    return value ? Number(value) || value : null;
  } catch { return null; }
}

/**
 * Stores the choice (null: every library), then puts it in the app's `store`, whose `library`
 * subscribers reload: the listing calls they make already carry the new choice.
 */
export function setLibrary(store, id) {
  try {
    if (id === null || id === undefined || id === '') localStorage.removeItem(storageKey());
    else localStorage.setItem(storageKey(), String(id));
  } catch { /* a private window: the choice lasts for this page only */ }
  store.set('library', currentLibrary());
}
