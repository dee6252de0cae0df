// A description as text pieces, links and #tags — pure (no DOM), so it is unit-tested in the
// browser. Only http(s) URLs become links: a `javascript:` URL in a sidecar stays text.

const PATTERN = /(https?:\/\/[^\s<>"']+)|(^|[^\p{L}\p{N}_&])#([\p{L}\p{N}_][\p{L}\p{N}_-]*)/gu;
const TRAILING = /[.,;:!?)\]}'"]+$/;   // "see https://x.org/a." — the full stop is prose

/** [{ kind: 'text'|'link'|'tag', text, href?, tag? }] in order; joined texts give the input. */
export function linkify(text) {
  const source = String(text ?? '');
  const parts = [];
  let last = 0;
  const push = (part) => { if (part.text) parts.push(part); };
  for (const match of source.matchAll(PATTERN)) {
    if (match[1]) {
      const url = match[1].replace(TRAILING, '');
      push({ kind: 'text', text: source.slice(last, match.index) });
      parts.push({ kind: 'link', text: url, href: url });
      last = match.index + url.length;
    } else {
      const start = match.index + match[2].length;
      push({ kind: 'text', text: source.slice(last, start) });
      parts.push({ kind: 'tag', text: `#${match[3]}`, tag: match[3].toLowerCase() });
      last = start + 1 + match[3].length;
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
