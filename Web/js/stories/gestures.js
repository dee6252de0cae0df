// The story stage's gestures, from pointer events (touch, pen, mouse): a tap on the left third
// goes back and on the right third forward at once (rapid taps skip item after item, and a
// tap never waits); the middle third is where a double tap likes, so only a tap there waits
// DOUBLE_TAP_MS to tell a like from a forward. A press held 200 ms pauses until released; a
// horizontal swipe changes person; a swipe down closes. Buttons and links inside the stage
// keep their own clicks.

export const HOLD_MS = 200;
export const DOUBLE_TAP_MS = 250;
const MOVE_TOLERANCE_PX = 12;
const SWIPE_PX = 50;
const INTERACTIVE = 'button, a, input, select, textarea';

export function wireStoryGestures(stage, { onTap, onDoubleTap, onHold, onSwipe, onDrag }) {
  let press = null;
  let lastTap = null;
  let singleTimer = 0;

  function endHold() {
    if (press?.holding) onHold(false);
  }

  function down(event) {
    if (event.button !== 0 || event.target.closest(INTERACTIVE)) return;
    clearTimeout(press?.holdTimer);
    press = { id: event.pointerId, x: event.clientX, y: event.clientY, dx: 0, dy: 0, moved: false, holding: false };
    stage.setPointerCapture?.(event.pointerId);
    press.holdTimer = setTimeout(() => {
      if (!press || press.moved) return;
      press.holding = true;
      onHold(true);
    }, HOLD_MS);
  }

  function move(event) {
    if (!press || event.pointerId !== press.id) return;
    press.dx = event.clientX - press.x;
    press.dy = event.clientY - press.y;
    if (!press.moved && Math.hypot(press.dx, press.dy) > MOVE_TOLERANCE_PX) {
      press.moved = true;
      clearTimeout(press.holdTimer);
    }
    if (press.moved) onDrag?.(press.dx, press.dy);
  }

  function up(event) {
    if (!press || event.pointerId !== press.id) return;
    const { dx, dy, moved, holding } = press;
    clearTimeout(press.holdTimer);
    endHold();
    press = null;
    if (moved) {
      onDrag?.(0, 0, { done: true });
      if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(dy)) onSwipe(dx < 0 ? 'left' : 'right');
      else if (dy > SWIPE_PX * 1.5 && dy > Math.abs(dx)) onSwipe('down');
      return;
    }
    if (holding) return;
    const now = performance.now();
    if (lastTap && now - lastTap.time < DOUBLE_TAP_MS && Math.hypot(event.clientX - lastTap.x, event.clientY - lastTap.y) < 40) {
      clearTimeout(singleTimer);
      lastTap = null;
      onDoubleTap(event);
      return;
    }
    const rect = stage.getBoundingClientRect();
    const third = (event.clientX - rect.left) / (rect.width / 3);
    const zone = third < 1 ? 'back' : 'forward';
    if (third < 1 || third >= 2) {
      lastTap = null;
      clearTimeout(singleTimer);
      onTap(zone);
      return;
    }
    lastTap = { time: now, x: event.clientX, y: event.clientY };
    clearTimeout(singleTimer);
    singleTimer = setTimeout(() => { lastTap = null; onTap(zone); }, DOUBLE_TAP_MS);
  }

  function cancel(event) {
    if (!press || event.pointerId !== press.id) return;
    clearTimeout(press.holdTimer);
    endHold();
    if (press.moved) onDrag?.(0, 0, { done: true });
    press = null;
  }

  const contextMenu = (event) => { if (event.pointerType !== 'mouse') event.preventDefault(); };
  const noDrag = (event) => event.preventDefault();   // a native drag would cancel the swipe
  stage.addEventListener('dragstart', noDrag);
  stage.addEventListener('pointerdown', down);
  stage.addEventListener('pointermove', move);
  stage.addEventListener('pointerup', up);
  stage.addEventListener('pointercancel', cancel);
  stage.addEventListener('contextmenu', contextMenu);
  return () => {
    clearTimeout(singleTimer);
    clearTimeout(press?.holdTimer);
    stage.removeEventListener('pointerdown', down);
    stage.removeEventListener('pointermove', move);
    stage.removeEventListener('pointerup', up);
    stage.removeEventListener('pointercancel', cancel);
    stage.removeEventListener('contextmenu', contextMenu);
    stage.removeEventListener('dragstart', noDrag);
  };
}
