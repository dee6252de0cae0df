// Carousels: a sideways scroll-snap track of images with dots. Native horizontal scrolling
// gives touch swipes and trackpads; arrow buttons and ←/→ cover mouse and keyboard.
import { escapeHTML, srcset } from '../ui/format.js';
import { icon } from '../ui/icons.js';

/** `sizes` is the stage's (see frame.js). */
export function carouselHTML(item, sizes) {
  const images = item.media?.images ?? [];
  const slides = images.map((variants, index) => {
    const largest = variants[variants.length - 1] ?? {};
    return `<li class="slide" data-index="${index}"><img alt="Image ${index + 1} of ${images.length}" decoding="async"
      loading="${index === 0 ? 'eager' : 'lazy'}" data-src="${escapeHTML(largest.url ?? '')}"
      data-srcset="${escapeHTML(srcset(variants))}" sizes="${sizes}"></li>`;
  }).join('');
  const dots = images.map((_, index) => `<span class="dot" data-index="${index}"${index === 0 ? ' data-active="true"' : ''}></span>`).join('');
  return `
    <ul class="carousel" aria-label="Carousel, ${images.length} images">${slides}</ul>
    <button type="button" class="carousel-step prev" data-action="carousel-prev" aria-label="Previous image">${icon('chevronLeft')}</button>
    <button type="button" class="carousel-step next" data-action="carousel-next" aria-label="Next image">${icon('chevronRight')}</button>
    <div class="dots" aria-hidden="true">${dots}</div>`;
}

function currentIndex(track) {
  return Math.round(track.scrollLeft / Math.max(1, track.clientWidth));
}

/** Keeps the dots in step with the track; call once per carousel element. */
export function wireCarousel(element) {
  const track = element.querySelector('.carousel');
  if (!track) return;
  const dots = [...element.querySelectorAll('.dot')];
  const update = () => {
    const index = currentIndex(track);
    // data-active, not aria-current: aria-current="true" marks the reel on screen (the markup contract).
    dots.forEach((dot, i) => (i === index ? dot.setAttribute('data-active', 'true') : dot.removeAttribute('data-active')));
    element.dataset.slide = String(index);
    element.querySelector('.carousel-step.prev').disabled = index === 0;
    element.querySelector('.carousel-step.next').disabled = index >= dots.length - 1;
  };
  track.addEventListener('scroll', () => requestAnimationFrame(update), { passive: true });
  update();
}

/** Moves a carousel by `step` images; returns false when it is not a carousel. */
export function stepCarousel(element, step, smooth = true) {
  const track = element?.querySelector('.carousel');
  if (!track) return false;
  const count = track.children.length;
  const target = Math.max(0, Math.min(count - 1, currentIndex(track) + step));
  track.scrollTo({ left: target * track.clientWidth, behavior: smooth ? 'smooth' : 'auto' });
  return true;
}
