// What a cover calls a post (docs/catalog-api.md): the server's `title` when it sends one, else
// the first line of the description, else the shortcode, else the folder name.

export function postTitle(item) {
  if (item.title) return item.title;
  const firstLine = (item.description ?? '').split('\n').map((line) => line.trim()).find(Boolean);
  return firstLine || item.shortcode || item.folder_name || `Post ${item.id}`;
}

/** 75 → "1:15", 3725 → "1:02:05"; nothing for an unknown duration. */
export function formatDuration(seconds) {
  if (!Number.isFinite(seconds) || seconds <= 0) return '';
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, '0');
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
