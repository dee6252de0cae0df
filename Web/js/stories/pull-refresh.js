// Pull-to-refresh for the tray on touch screens: a finger pulled down from the tray by more
// than PULL_PX (and more down than sideways, which is the tray's own scrolling) reloads it.
// The indicator follows the finger. Mouse and pen are left alone: desktops have the button.

const PULL_PX = 60;

export function wirePullToRefresh(element, { indicator, onRefresh }) {
  let start = null;

  function show(distance) {
    indicator.style.setProperty('--pull', `${Math.min(distance, PULL_PX * 1.5)}px`);
    indicator.classList.toggle('armed', distance >= PULL_PX);
    element.classList.toggle('pulling', distance > 0);
  }

  const down = (event) => {
    if (event.pointerType !== 'touch') return;
    start = { id: event.pointerId, x: event.clientX, y: event.clientY, vertical: null };
  };
  const move = (event) => {
    if (!start || event.pointerId !== start.id) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (start.vertical === null && Math.hypot(dx, dy) > 8) start.vertical = Math.abs(dy) > Math.abs(dx);
    if (start.vertical) show(Math.max(0, dy));
  };
  const up = async (event) => {
    if (!start || event.pointerId !== start.id) return;
    const pulled = start.vertical && event.clientY - start.y >= PULL_PX;
    start = null;
    show(0);
    if (pulled) await onRefresh();
  };
  const cancel = () => { start = null; show(0); };

  element.addEventListener('pointerdown', down);
  element.addEventListener('pointermove', move);
  element.addEventListener('pointerup', up);
  element.addEventListener('pointercancel', cancel);
  return () => {
    element.removeEventListener('pointerdown', down);
    element.removeEventListener('pointermove', move);
    element.removeEventListener('pointerup', up);
    element.removeEventListener('pointercancel', cancel);
  };
}
