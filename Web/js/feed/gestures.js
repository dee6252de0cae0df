// Tap, double-tap and long-press on a reel's stage, from pointer events (touch, pen, mouse).
// A single tap waits briefly to be sure it is not the first half of a double tap; any movement
// (the start of a swipe) cancels both, so scrolling never pauses or likes anything.

const HOLD_MS = 450;
const DOUBLE_TAP_MS = 280;
const MOVE_TOLERANCE_PX = 12;
const INTERACTIVE = 'button, a, input, select, textarea, .overlay, .carousel-step';

export function wireGestures(root, { onTap, onDoubleTap, onHold }) {
  let press = null;
  let lastTap = null;
  let singleTimer = 0;

  function cancelPress() {
    if (!press) return;
    clearTimeout(press.holdTimer);
    if (press.holding) onHold(press.element, false);
    press = null;
  }

  root.addEventListener('pointerdown', (event) => {
    if (event.button !== 0 || event.target.closest(INTERACTIVE)) return;
    const stage = event.target.closest('.stage');
    if (!stage) return;
    cancelPress();
    const element = stage.closest('.reel');
    press = { element, x: event.clientX, y: event.clientY, holding: false };
    press.holdTimer = setTimeout(() => {
      if (!press) return;
      press.holding = true;
      onHold(element, true);
    }, HOLD_MS);
  });

  root.addEventListener('pointermove', (event) => {
    if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) > MOVE_TOLERANCE_PX) cancelPress();
  });

  root.addEventListener('pointercancel', cancelPress);

  root.addEventListener('pointerup', (event) => {
    if (!press) return;
    const { element, holding } = press;
    cancelPress();
    if (holding) return;
    const now = performance.now();
    if (lastTap && lastTap.element === element && now - lastTap.time < DOUBLE_TAP_MS) {
      clearTimeout(singleTimer);
      lastTap = null;
      onDoubleTap(element, event);
      return;
    }
    lastTap = { element, time: now };
    clearTimeout(singleTimer);
    singleTimer = setTimeout(() => { lastTap = null; onTap(element); }, DOUBLE_TAP_MS);
  });

  // A long press on touch screens would otherwise open the image/video context menu.
  root.addEventListener('contextmenu', (event) => {
    if (event.target.closest('.stage') && event.pointerType !== 'mouse') event.preventDefault();
  });
}
