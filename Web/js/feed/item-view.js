// Builds the element for one feed item: a stage (poster, then the pooled <video>, or the
// photo / carousel) and the overlay. Markup contract: data-item-id is the API id.
import { escapeHTML, byline, srcset } from '../ui/format.js';
import { overlayHTML, renderSocial } from './overlay.js';
import { carouselHTML } from './carousel.js';
import { applyFrame, frameFor, imageSizes } from './frame.js';
import { icon } from '../ui/icons.js';
import { tapWord } from '../ui/pointer-words.js';

function mediaHTML(item, frame) {
  const media = item.media ?? {};
  if (item.kind === 'carousel') return carouselHTML(item, imageSizes(frame));
  if (item.kind === 'image') {
    const variants = media.images?.[0] ?? [];
    return `<img class="photo" alt="" decoding="async" data-src="${escapeHTML(media.poster?.url ?? '')}"
      data-srcset="${escapeHTML(srcset(variants))}" sizes="${imageSizes(frame)}">`;
  }
  // The poster only covers the wait for the first frame (a fraction of a second when prefetched),
  // so the small thumbnail does: a full-size poster can outweigh the first video segment.
  return `<img class="poster" alt="" decoding="async" data-src="${escapeHTML(media.thumbnail?.url ?? media.poster?.url ?? '')}">
    <div class="spinner" aria-hidden="true"></div>
    <input class="scrub" type="range" min="0" max="1000" value="0" step="1" aria-label="Seek" tabindex="-1">`;
}

export function createItemElement(item) {
  const frame = frameFor(item);
  const element = document.createElement('article');
  element.className = `reel kind-${item.kind}`;
  element.dataset.itemId = String(item.id);
  element.setAttribute('aria-roledescription', 'reel');
  element.setAttribute('aria-label', `${byline(item)}${item.description ? `: ${item.description}` : ''}`);
  element.innerHTML = `
    <div class="stage">
      ${mediaHTML(item, frame)}
      <div class="item-error" role="alert" hidden>
        <p class="item-error-text">This video can't be played.</p>
        <button type="button" data-action="retry">Try again</button>
      </div>
      <div class="play-indicator" aria-hidden="true">${icon('play', 'icon play')}${icon('pause', 'icon pause')}</div>
      <div class="heart-burst" aria-hidden="true">${icon('heart')}</div>
      ${item.kind === 'video' ? `<button type="button" class="unmute-hint" data-action="unmute" hidden>${tapWord()} to unmute</button>` : ''}
      ${item.captions?.length ? '<p class="captions-line" aria-live="off" hidden></p>' : ''}
    </div>
    ${overlayHTML(item)}`;
  applyFrame(element.querySelector('.stage'), frame);
  renderSocial(element, item);
  element.imagesMedia = item.media; // which URLs the images name (refreshImages compares)
  return element;
}

/** The URLs one of an item's images should have under `item.media`, or null for none of ours. */
function imageSourcesFor(item, image) {
  const media = item.media ?? {};
  if (image.classList.contains('poster')) return { src: media.thumbnail?.url ?? media.poster?.url ?? '' };
  if (image.classList.contains('photo')) return { src: media.poster?.url ?? '', srcset: srcset(media.images?.[0] ?? []) };
  const slide = image.closest('.slide');
  if (!slide) return null;
  const variants = media.images?.[Number(slide.dataset.index)] ?? [];
  return { src: variants[variants.length - 1]?.url ?? '', srcset: srcset(variants) };
}

/**
 * Points the item's images at its current `item.media` (fresh URLs after a refresh). An image
 * not yet near the screen only gets new `data-` names; a loaded one loads again.
 */
export function refreshImages(element, item) {
  element.imagesMedia = item.media;
  for (const image of element.querySelectorAll('img')) {
    const sources = imageSourcesFor(item, image);
    if (!sources) continue;
    const pending = 'src' in image.dataset;
    if (sources.srcset !== undefined) {
      if (pending) image.dataset.srcset = sources.srcset; else image.srcset = sources.srcset;
    }
    if (pending) image.dataset.src = sources.src; else image.src = sources.src;
  }
}

/**
 * Images are named in `data-src`/`data-srcset` and fetched only once their item comes near the
 * screen (`behind` before the current position to `ahead` after it): a page of posters fetched
 * at once would share a slow link with the first video's segments. The current item's go first.
 */
export function loadImagesNear(elements, current, { behind = 1, ahead = 3 } = {}) {
  const first = Math.max(0, current - behind);
  elements.slice(first, current + ahead + 1).forEach((element, offset) => {
    for (const image of element.querySelectorAll('img[data-src]')) {
      image.fetchPriority = first + offset === current ? 'high' : 'low';
      if (image.dataset.srcset) image.srcset = image.dataset.srcset;
      image.src = image.dataset.src;
      delete image.dataset.src;
      delete image.dataset.srcset;
    }
  });
}

export function showItemError(element, message) {
  const box = element.querySelector('.item-error');
  box.querySelector('.item-error-text').textContent = message;
  box.hidden = false;
  element.classList.add('failed');
}

export function clearItemError(element) {
  element.querySelector('.item-error').hidden = true;
  element.classList.remove('failed');
}

/** The play/pause indicator flashes briefly after a tap. */
export function flashIndicator(element, paused) {
  const indicator = element.querySelector('.play-indicator');
  indicator.dataset.state = paused ? 'paused' : 'playing';
  indicator.classList.remove('show');
  void indicator.offsetWidth; // restart the animation
  indicator.classList.add('show');
}

export function burstHeart(element) {
  const heart = element.querySelector('.heart-burst');
  heart.classList.remove('show');
  void heart.offsetWidth;
  heart.classList.add('show');
}
