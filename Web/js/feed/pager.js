// Vertical paging: a scroll-snap container with one item per screen. Native scrolling gives
// touch swipes, wheels and trackpads; an IntersectionObserver says which item is on screen.
// Programmatic moves (keyboard) announce the new item at once instead of after the scroll.
// Items hidden in place ("Not interested") take no room and are stepped over.
import { prefersReducedMotion } from '../ui/preferences.js';

export function createPager({ scroller, onCurrentChange }) {
  const elements = [];
  let current = -1;
  // While a programmatic scroll runs, the observer still reports the item being left; only
  // the target counts until the scroll settles.
  let target = null;
  let targetTimer = 0;

  function setCurrent(index) {
    if (index === current || index < 0 || index >= elements.length) return;
    elements[current]?.removeAttribute('aria-current');
    current = index;
    elements[current].setAttribute('aria-current', 'true');
    onCurrentChange(index);
  }

  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting || entry.intersectionRatio < 0.6) continue;
      const index = Number(entry.target.dataset.index);
      if (target !== null && index !== target) continue;
      setCurrent(index);
    }
  }, { root: scroller, threshold: [0.6] });
  // Chrome re-snaps to the item it was snapped to when the layout changes mid-animation (a
  // player moving into its item, say), which would undo a keyboard move: finish the move.
  scroller.addEventListener('scrollend', () => {
    if (target === null) return;
    const element = elements[target];
    if (element && Math.abs(scroller.scrollTop - element.offsetTop) > 2) element.scrollIntoView({ behavior: 'instant', block: 'start' });
    else target = null;
  });
  // The user taking over (touch, wheel, trackpad) ends any programmatic move.
  for (const type of ['wheel', 'touchstart']) scroller.addEventListener(type, () => { target = null; }, { passive: true });

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
    /** The nearest shown item from `from` on in `direction` (±1), `from` included; -1 if none. */
    nearest(from, direction) {
      for (let index = from; index >= 0 && index < elements.length; index += direction) {
        if (!elements[index].hidden) return index;
      }
      return -1;
    },
    /** The shown item after (1) or before (-1) the current one, or -1. */
    step(direction) {
      return this.nearest(current + direction, direction);
    },
    goTo(index, { instant = false } = {}) {
      if (index < 0 || index >= elements.length || elements[index].hidden) return false;
      setCurrent(index);
      target = index;
      clearTimeout(targetTimer);
      targetTimer = setTimeout(() => { target = null; }, 3000);
      elements[index].scrollIntoView({ behavior: instant || prefersReducedMotion() ? 'instant' : 'smooth', block: 'start' });
      return true;
    },
    clear() {
      observer.disconnect();
      elements.splice(0).forEach((element) => element.remove());
      current = -1;
    },
  };
}
