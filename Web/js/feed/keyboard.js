// Feed shortcuts: ↑/↓ or k/j move, space pauses, m mutes, l likes, f fullscreen, c captions, ? help,
// ←/→ step through a carousel. Typing in a field, or Space/Enter on a focused button, keeps
// its usual meaning.

function isTextEntry(target) {
  return target instanceof HTMLElement && (target.isContentEditable || target.matches('input:not([type=range]), textarea, select'));
}

export function wireKeyboard(actions) {
  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || isTextEntry(event.target)) return;
    if (document.querySelector('dialog[open]') && event.key !== '?') return;
    const onControl = event.target instanceof HTMLElement && event.target.matches('button, a, input[type=range]');
    const map = {
      ArrowDown: actions.next, j: actions.next, PageDown: actions.next,
      ArrowUp: actions.previous, k: actions.previous, PageUp: actions.previous,
      ArrowLeft: onControl && event.target.matches('input') ? null : actions.left,
      ArrowRight: onControl && event.target.matches('input') ? null : actions.right,
      ' ': onControl ? null : actions.togglePause,
      m: actions.toggleMute, M: actions.toggleMute,
      l: actions.like, L: actions.like,
      f: actions.fullscreen, F: actions.fullscreen,
      c: actions.captions, C: actions.captions,
      '?': actions.help,
    };
    const action = map[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}
