// The library the person chose to look at (docs/catalog-api.md, "Library scope"): kept in
// localStorage per user, sent as `library=` with every listing call (api.js), and announced
// with a `reelhouse:library` window event so that every screen reloads in the new scope.

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

/** Stores the choice (null: every library) and tells the screens. */
export function setLibrary(id) {
  try {
    if (id === null || id === undefined || id === '') localStorage.removeItem(storageKey());
    else localStorage.setItem(storageKey(), String(id));
  } catch { /* a private window: the choice lasts for this page only */ }
  window.dispatchEvent(new CustomEvent('reelhouse:library', { detail: { id: currentLibrary() } }));
}
