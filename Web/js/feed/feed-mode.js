// The feed's order: For You · Shuffle · Latest (GET /api/v1/feed?mode=…). A choice made with
// the switch is remembered in localStorage['reelhouse.feed.mode']; without one the client
// sends no mode and the switch shows the one the server chose (`mode` in the page).
// The switch is a group of three toggle buttons (aria-pressed): Tab reaches them, Enter or
// Space picks one, and ←/→ move between them (focus follows; the press picks).

export const MODE_KEY = 'reelhouse.feed.mode';
export const MODES = ['for_you', 'shuffle', 'latest'];

export function storedMode() {
  try {
    const mode = localStorage.getItem(MODE_KEY);
    return MODES.includes(mode) ? mode : null;
  } catch { return null; }
}

export function storeMode(mode) {
  try { localStorage.setItem(MODE_KEY, mode); } catch { /* this visit only */ }
}

/**
 * Wires the switch in the feed's top bar. `onChange(mode)` runs when the person picks another
 * mode (already stored); `show(mode)` presses the button of the mode the feed plays (null:
 * not known yet); `setVisible(on)`: only the endless feed has modes (a list plays in its order).
 */
export function wireModeSwitch(group, { onChange }) {
  const buttons = [...group.querySelectorAll('button[data-mode]')];
  let shown = null;

  function show(mode) {
    shown = MODES.includes(mode) ? mode : null;
    for (const button of buttons) button.setAttribute('aria-pressed', String(button.dataset.mode === shown));
  }

  group.addEventListener('click', (event) => {
    const mode = event.target.closest('button[data-mode]')?.dataset.mode;
    if (!mode) return;
    const changed = mode !== shown;   // the mode already playing is only remembered
    storeMode(mode);
    show(mode);
    if (changed) onChange(mode);
  });
  group.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const index = buttons.indexOf(document.activeElement);
    if (index < 0) return;
    event.preventDefault();
    event.stopPropagation();   // not the feed's carousel keys
    const step = event.key === 'ArrowLeft' ? -1 : 1;
    buttons[(index + step + buttons.length) % buttons.length].focus();
  });

  return {
    show,
    setVisible(on) { group.hidden = !on; },
    get mode() { return shown; },
  };
}
