// Vertical paging: a scroll-snap container with one item per screen. Native scrolling gives
// touch swipes, wheels and trackpads; an IntersectionObserver says which item is on screen.
// Programmatic moves (keyboard) announce the new item at once instead of after the scroll.
import { prefersReducedMotion } from './preferences.js';

export function createPager({ scroller, onCurrentChange }) {
  const elements = [];
  let current = -1;

  function setCurrent(index) {
    if (index === current || index < 0 || index >= elements.length) return;
    elements[current]?.removeAttribute('aria-current');
    current = index;
    elements[current].setAttribute('aria-current', 'true');
    onCurrentChange(index);
  }

  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting && entry.intersectionRatio >= 0.6) setCurrent(Number(entry.target.dataset.index));
    }
  }, { root: scroller, threshold: [0.6] });

  return {
    elements,
    get current() { return current; },
    append(element) {
      element.dataset.index = String(elements.length);
      elements.push(element);
      scroller.append(element);
      observer.observe(element);
      if (current === -1) setCurrent(0);
    },
    goTo(index) {
      if (index < 0 || index >= elements.length) return false;
      setCurrent(index);
      elements[index].scrollIntoView({ behavior: prefersReducedMotion() ? 'instant' : 'smooth', block: 'start' });
      return true;
    },
    clear() {
      observer.disconnect();
      elements.splice(0).forEach((element) => element.remove());
      current = -1;
    },
  };
}
