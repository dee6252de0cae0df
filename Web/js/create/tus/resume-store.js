// Where each unfinished upload lives on the server, keyed by a fingerprint of the file, so a
// reload (or picking the same file again) resumes it instead of starting over.
const PREFIX = 'reelhouse.tus.';
const MAX_AGE_MS = 24 * 3600 * 1000;   // the server expires incomplete uploads long before this

/** name + size + mtime + type: the same file picked again gives the same fingerprint. */
export function fingerprint(file, endpoint) {
  return [endpoint, file.name, file.size, file.lastModified, file.type].join('|');
}

export function rememberUpload(key, url) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify({ url, savedAt: Date.now() }));
  } catch { /* private mode or full storage: uploads still work, only without resume */ }
}

export function recallUpload(key) {
  try {
    const entry = JSON.parse(localStorage.getItem(PREFIX + key) ?? 'null');
    if (!entry || typeof entry.url !== 'string' || Date.now() - entry.savedAt > MAX_AGE_MS) return null;
    // Only same-origin upload URLs: a tampered entry must not send the file elsewhere.
    const url = new URL(entry.url, location.origin);
    return url.origin === location.origin ? url.href : null;
  } catch {
    return null;
  }
}

export function forgetUpload(key) {
  try { localStorage.removeItem(PREFIX + key); } catch { /* nothing stored */ }
}

/** Fingerprints of uploads that were still running when the page went away. */
export function pendingUploads() {
  const keys = [];
  try {
    for (let index = 0; index < localStorage.length; index += 1) {
      const name = localStorage.key(index);
      if (name?.startsWith(PREFIX)) keys.push(name.slice(PREFIX.length));
    }
  } catch { /* no storage */ }
  return keys;
}
