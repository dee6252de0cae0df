// What a cover calls a post (docs/catalog-api.md): the server's `title` when it sends one, else
// the first line of the description, else the shortcode, else the folder name.

export function postTitle(item) {
  if (item.title) return item.title;
  const firstLine = (item.description ?? '').split('\n').map((line) => line.trim()).find(Boolean);
  return firstLine || item.shortcode || item.folder_name || `Post ${item.id}`;
}
