// Builds the element for one feed item: a stage (poster, then the pooled <video>, or the
// photo / carousel) and the overlay. Markup contract: data-item-id is the API id.
import { escapeHTML, displayName, srcset } from './format.js';
import { overlayHTML, renderSocial } from './overlay.js';
import { carouselHTML } from './carousel.js';
import { icon } from '../ui/icons.js';

function fitFor(item) {
  // Portrait fills the column (cropping a little); anything wider is shown whole.
  return item.width && item.height && item.width / item.height > 0.7 ? 'contain' : 'cover';
}

function mediaHTML(item) {
  const media = item.media ?? {};
  if (item.kind === 'carousel') return carouselHTML(item);
  if (item.kind === 'image') {
    const variants = media.images?.[0] ?? [];
    return `<img class="photo" alt="" decoding="async" src="${escapeHTML(media.poster?.url ?? '')}"
      srcset="${escapeHTML(srcset(variants))}" sizes="(min-width: 900px) 56vh, 100vw">`;
  }
  return `<img class="poster" alt="" decoding="async" src="${escapeHTML(media.poster?.url ?? media.thumbnail?.url ?? '')}">
    <div class="spinner" aria-hidden="true"></div>
    <input class="scrub" type="range" min="0" max="1000" value="0" step="1" aria-label="Seek" tabindex="-1">`;
}

export function createItemElement(item) {
  const element = document.createElement('article');
  element.className = `reel kind-${item.kind}`;
  element.dataset.itemId = String(item.id);
  element.setAttribute('aria-roledescription', 'reel');
  element.setAttribute('aria-label', `@${displayName(item)}${item.description ? `: ${item.description}` : ''}`);
  element.innerHTML = `
    <div class="stage" data-fit="${fitFor(item)}">
      ${mediaHTML(item)}
      <div class="item-error" role="alert" hidden>
        <p class="item-error-text">This video can't be played.</p>
        <button type="button" data-action="retry">Try again</button>
      </div>
      <div class="play-indicator" aria-hidden="true">${icon('play', 'icon play')}${icon('pause', 'icon pause')}</div>
      <div class="heart-burst" aria-hidden="true">${icon('heart')}</div>
      ${item.kind === 'video' ? '<button type="button" class="unmute-hint" data-action="unmute" hidden>Tap to unmute</button>' : ''}
    </div>
    ${overlayHTML(item)}`;
  renderSocial(element, item);
  return element;
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
