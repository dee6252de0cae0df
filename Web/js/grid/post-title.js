// What a post is called where it is read (docs/catalog-api.md; the server's PostTitle.shown):
// the server's `title` when it sends one, else the first line of the description without the
// hashtags it ends with (those show as tags), else the shortcode, else the folder name.

import { findHashtags } from '../ui/hashtags.js';

/** Whether `word` is a #tag word: it starts with `#` and the server finds a tag in it. */
const isHashtagWord = (word) => word.startsWith('#') && findHashtags(word).length > 0;

/** `line` without its trailing run of #tags (and the separators before them). */
export function withoutTrailingHashtags(line) {
  const words = line.split(/\s+/).filter(Boolean);
  while (words.length && isHashtagWord(words.at(-1))) words.pop();
  return words.join(' ').replace(/^[\s·|:,–—-]+|[\s·|:,–—-]+$/g, '');
}

export function postTitle(item) {
  if (item.title) return item.title;
  const lines = String(item.description ?? '').split('\n').map((line) => line.trim()).filter(Boolean);
  const shown = lines.map(withoutTrailingHashtags).find(Boolean);
  return shown || item.shortcode || lines[0] || item.folder_name || `Post ${item.id}`;
}
