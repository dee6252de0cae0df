// A description as text pieces, links and #tags — pure (no DOM), so it is unit-tested in the
// browser. Only http(s) URLs become links: a `javascript:` URL in a sidecar stays text. A #tag
// is linked where the server makes it a tag (`findHashtags`), so every tag link leads to a tag
// the post has; not inside a URL, nor after an `&`, where it is an HTML entity (`&#39;`).
import { findHashtags } from '../ui/hashtags.js';

const URL_PATTERN = /https?:\/\/[^\s<>"']+/gu;
const TRAILING = /[.,;:!?)\]}'"]+$/;   // "see https://x.org/a." — the full stop is prose

/** [{ kind: 'text'|'link'|'tag', text, href?, tag? }] in order; joined texts give the input. */
export function linkify(text) {
  const source = String(text ?? '');
  const urls = [...source.matchAll(URL_PATTERN)].map((match) => ({
    kind: 'link', start: match.index, end: match.index + match[0].length, url: match[0].replace(TRAILING, ''),
  }));
  const tags = findHashtags(source)
    .filter((tag) => source[tag.start - 1] !== '&' && !urls.some((url) => tag.start < url.end && url.start < tag.end))
    .map((tag) => ({ kind: 'tag', ...tag }));
  const parts = [];
  let last = 0;
  const push = (part) => { if (part.text) parts.push(part); };
  for (const span of [...urls, ...tags].sort((a, b) => a.start - b.start)) {
    push({ kind: 'text', text: source.slice(last, span.start) });
    if (span.kind === 'link') {
      parts.push({ kind: 'link', text: span.url, href: span.url });
      last = span.start + span.url.length;
    } else {
      parts.push({ kind: 'tag', text: source.slice(span.start, span.end), tag: span.tag });
      last = span.end;
    }
  }
  push({ kind: 'text', text: source.slice(last) });
  return parts;
}

/** Where a tag leads: the Browse grid filtered on it. */
export function tagHref(tag) {
  return `/browse?${new URLSearchParams({ tags: tag })}`;
}

/** Where an uploader leads: their posts in Browse. */
export function uploaderHref(name) {
  return `/browse?${new URLSearchParams({ uploader: name })}`;
}

/**
 * "Play in feed from here": the feed scoped to the grid the sheet was opened from, starting at
 * this post. The feed (webshell) reads `from`, the grid's own query, and `start`.
 */
export function feedFromHereHref(postId, context) {
  const query = new URLSearchParams(context?.query ?? '');
  query.delete('from');
  query.delete('start');
  const parts = new URLSearchParams();
  if (context?.kind) parts.set('from', context.kind);
  for (const [key, value] of query) parts.append(key, value);
  parts.set('start', String(postId));
  return `/?${parts}`;
}

/** Tags typed as "cats, #dogs  sea" → ["cats", "dogs", "sea"] (no duplicates, no empties). */
export function parseTags(text) {
  const tags = String(text ?? '').split(/[\s,]+/).map((tag) => tag.replace(/^#+/, '').trim().toLowerCase()).filter(Boolean);
  return [...new Set(tags)];
}
