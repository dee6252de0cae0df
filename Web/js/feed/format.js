// Text helpers for the overlay.

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

export function displayName(item) {
  return item.username || item.uploader || item.folder_name || 'unknown';
}
