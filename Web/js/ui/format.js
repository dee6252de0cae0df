// Text helpers shared by the feed's overlay, the detail sheet, the full player, the grids and
// Profile: dates, durations, names, srcset, escaping.

const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

export function formatDate(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : dateFormat.format(date);
}

/** `srcset` for a list of image variants ({url, width}). */
export function srcset(variants) {
  return variants.map((variant) => `${variant.url} ${variant.width}w`).join(', ');
}

/** Text → safe HTML text (the overlay is built from strings). */
export function escapeHTML(text) {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/**
 * Who posted `item`, as the feed, its label and the lock screen say it: "@handle" for an
 * account (the username, else the uploader); a post imported without either is named by its
 * folder, without the "@" that would pass a folder off as an account.
 */
export function byline(item) {
  const account = (item.username || item.uploader || '').replace(/^@/, '');
  return account ? `@${account}` : (item.folder_name || 'unknown');
}

/** "3:07", "1:02:03"; null for no duration. */
export function formatDuration(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) return null;
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * "0:07 / 0:08": the time played (whole seconds gone by, as every player counts them) over the
 * length. Rounded, 7.6 s of an 8-s clip read "0:08 / 0:08" as if it had ended.
 */
export function formatElapsed(current, total) {
  const played = Number.isFinite(current) && current > 0 ? Math.floor(current) : 0;
  return `${formatDuration(played) ?? '0:00'} / ${formatDuration(total) ?? '0:00'}`;
}
