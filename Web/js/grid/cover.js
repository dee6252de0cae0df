// One cover: a link to the post (/p/{id}), so Enter, a middle click and "copy link" work, that
// opens the detail sheet in place. The picture is the post's content-hashed thumbnail or
// poster (a changed cover has a new URL, so it always shows), chosen by `srcset` for the size
// drawn; the box keeps a 9:16 shape whatever the picture, so grids never go ragged.
import { postTitle } from './post-title.js';
import { formatDuration } from '../ui/format.js';

/** `srcset` candidates from the small thumbnail up to the full poster (or an image's variants). */
export function coverSources(item) {
  const media = item.media ?? {};
  const candidates = [media.thumbnail, media.poster, ...(item.kind === 'video' ? [] : media.images?.[0] ?? [])]
    .filter((image) => image?.url && image.width > 0);
  const byWidth = new Map();
  for (const image of candidates) if (!byWidth.has(image.width)) byWidth.set(image.width, image);
  const sorted = [...byWidth.values()].sort((a, b) => a.width - b.width);
  return {
    src: sorted[0]?.url ?? media.thumbnail?.url ?? media.poster?.url ?? '',
    srcset: sorted.map((image) => `${image.url} ${image.width}w`).join(', '),
  };
}

/**
 * A cover for `item`. `decorateTitle(element, text)` may fill the title (search highlights);
 * `onOpen(item)` is called on a plain click or Enter instead of following the link.
 */
export function createCover(item, { sizes, onOpen, decorateTitle, tag = 'li' }) {
  const cell = document.createElement(tag);
  cell.className = 'cover-cell';
  const link = document.createElement('a');
  link.className = `cover kind-${item.kind}`;
  link.href = `/p/${item.id}`;
  link.dataset.itemId = String(item.id);
  const title = postTitle(item);

  const image = document.createElement('img');
  const { src, srcset } = coverSources(item);
  image.alt = '';
  image.loading = 'lazy';
  image.decoding = 'async';
  if (srcset) { image.srcset = srcset; image.sizes = sizes; }
  if (src) image.src = src;
  image.addEventListener('load', () => link.classList.add('loaded'), { once: true });
  link.append(image);

  const caption = document.createElement('span');
  caption.className = 'cover-title';
  if (decorateTitle) decorateTitle(caption, title); else caption.textContent = title;
  link.append(caption);

  const badge = item.duration > 0 ? formatDuration(item.duration) : null;   // no badge for an unknown length
  if (badge && item.kind === 'video') {
    const duration = document.createElement('span');
    duration.className = 'cover-duration';
    duration.textContent = badge;
    link.append(duration);
  } else if (item.kind === 'carousel') {
    const count = document.createElement('span');
    count.className = 'cover-duration';
    count.textContent = `1/${item.media?.images?.length ?? 1}`;
    link.append(count);
  }
  link.setAttribute('aria-label', badge ? `${title}, ${badge}` : title);
  link.addEventListener('click', (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onOpen?.(item);
  });
  cell.append(link);
  return cell;
}

/** A placeholder of the same size, shown while a page loads (so nothing jumps when it lands). */
export function createSkeleton(tag = 'li') {
  const cell = document.createElement(tag);
  cell.className = 'cover-cell';
  cell.setAttribute('aria-hidden', 'true');
  const box = document.createElement('span');
  box.className = 'cover skeleton';
  cell.append(box);
  return cell;
}
