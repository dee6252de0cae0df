// The detail sheet's content for one post: poster header, title, uploader, description with
// links and #tags, tags, facts (duration, dates, source), favorite and rating, and the action
// row. Buttons carry `data-action`; the sheet (index.js) decides what they do.
import { h } from '../ui/dom.js';
import { icon } from '../ui/icons.js';
import { formatDate, formatDuration } from '../ui/format.js';
import { linkify, tagHref, uploaderHref } from './linkify.js';
import { postTitle } from '../grid/post-title.js';

function descriptionNodes(text) {
  return linkify(text).map((part) => {
    if (part.kind === 'link') return h('a', { href: part.href, target: '_blank', rel: 'noopener noreferrer' }, part.text);
    if (part.kind === 'tag') return h('a', { href: tagHref(part.tag), 'data-internal': '' }, part.text);
    return part.text;
  });
}

function safeHref(url) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch { return null; }
}

function poster(item) {
  const image = item.media?.poster ?? item.media?.thumbnail ?? item.media?.images?.[0]?.at(-1) ?? null;
  const ratio = item.width && item.height ? `${item.width} / ${item.height}` : '9 / 16';
  return h('div', { class: 'detail-hero', style: `--ratio: ${ratio}` },
    image ? h('img', { class: 'detail-poster', src: image.url, alt: '', decoding: 'async' }) : null,
    item.kind === 'video'
      ? h('button', { type: 'button', class: 'detail-hero-play', 'data-action': 'play', 'aria-label': `Play ${postTitle(item)}` }, h('span', { innerHTML: icon('play') }))
      : null);
}

function ratingControl(item) {
  return h('div', { class: 'detail-rating', role: 'group', 'aria-label': 'Your rating' },
    [1, 2, 3, 4, 5].map((value) => h('button', {
      type: 'button', class: 'detail-star', 'data-action': 'rate', 'data-value': String(value),
      'aria-pressed': String(item.rating >= value), 'aria-label': `${value} star${value > 1 ? 's' : ''}`,
      innerHTML: icon('star'),
    })));
}

function facts(item) {
  const rows = [];
  const duration = formatDuration(item.duration);
  if (duration) rows.push(['Duration', duration]);
  rows.push(['Kind', item.kind]);
  if (item.date_posted) rows.push(['Posted', formatDate(item.date_posted)]);
  if (item.date_added) rows.push(['Added', formatDate(item.date_added)]);
  const source = safeHref(item.source_url);
  if (source) rows.push(['Source', h('a', { href: source, target: '_blank', rel: 'noopener noreferrer', class: 'detail-source' }, source)]);
  return h('dl', { class: 'detail-facts' }, rows.map(([term, value]) => [h('dt', {}, term), h('dd', { 'data-fact': term.toLowerCase() }, value)]));
}

/**
 * "by <uploader> @username", the uploader linked to their posts; a post imported without an
 * uploader or username says which folder it came from, linked nowhere: a folder is not an
 * account, and a link would open an empty grid.
 */
function uploaderLine(item) {
  const uploader = item.uploader || item.username;
  if (!uploader) return h('p', { class: 'detail-byline' }, 'from the folder ', h('span', { class: 'detail-folder' }, item.folder_name));
  return h('p', { class: 'detail-byline' }, 'by ',
    h('a', { href: uploaderHref(uploader), 'data-internal': '', class: 'detail-uploader' }, uploader),
    item.uploader && item.username ? h('span', { class: 'detail-username' }, ` @${item.username.replace(/^@/, '')}`) : null);
}

/** The whole sheet body for `item`; `isOwner` adds the owner's tools. */
export function renderDetail(item, { isOwner }) {
  const tags = item.tags ?? [];
  const actions = h('div', { class: 'detail-actions' },
    item.kind === 'video' ? h('button', { type: 'button', class: 'primary', 'data-action': 'play' }, 'Play') : null,
    h('button', { type: 'button', 'data-action': 'feed-from-here' }, 'Play in feed from here'),
    h('button', { type: 'button', 'data-action': 'favorite', 'aria-pressed': String(Boolean(item.is_favorited)),
      class: 'detail-favorite', innerHTML: `${icon('heart')}<span>${item.is_favorited ? 'Favorited' : 'Favorite'}</span>` }),
    item.media?.download ? h('a', { class: 'button', href: item.media.download, download: '', 'data-action': 'download' }, 'Download') : null,
    h('button', { type: 'button', 'data-action': 'copy-link' }, 'Copy link'),
    isOwner ? h('button', { type: 'button', 'data-action': 'collections', 'aria-expanded': 'false' }, 'Add to collection') : null,
    isOwner ? h('button', { type: 'button', 'data-action': 'edit' }, 'Edit') : null,
    isOwner ? h('button', { type: 'button', class: 'danger', 'data-action': 'delete' }, 'Delete') : null);

  return h('article', { class: 'detail', 'data-post-id': String(item.id) },
    poster(item),
    h('div', { class: 'detail-body' },
      h('h2', { class: 'detail-title', id: `detail-title-${item.id}` }, postTitle(item)),
      uploaderLine(item),
      h('div', { class: 'detail-social' }, ratingControl(item)),
      actions,
      h('div', { class: 'detail-panel', hidden: true }),
      item.description ? h('p', { class: 'detail-description' }, descriptionNodes(item.description)) : null,
      tags.length ? h('ul', { class: 'detail-tags', 'aria-label': 'Tags' },
        tags.map((tag) => h('li', {}, h('a', { href: tagHref(tag.name), 'data-internal': '', class: 'chip' }, `#${tag.name}`)))) : null,
      facts(item)));
}
