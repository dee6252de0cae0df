// The ⋯ button of a reel and its panel: Share / Copy link, Download (when the post offers
// one), Not interested, and Hide posts from NAME. The panel is a labelled group of buttons
// (no menu role, whose arrow-key contract it would not honour): Tab moves through it, Escape
// or a tap elsewhere closes it and gives focus back to ⋯; so does another item becoming the
// current one (the feed calls close). The feed handles the data-actions.
import { escapeHTML } from '../ui/format.js';

/** Whose posts "Hide posts from …" hides: the server's key is `uploader`, else `username`. */
export function uploaderKey(item) {
  return item.uploader || item.username || null;
}

/** The ⋯ button (in the action column) and its panel (beside the column, in the overlay). */
export function moreButtonHTML(item) {
  return `<button type="button" class="action more-button" data-action="more" aria-expanded="false" aria-controls="more-${item.id}" aria-label="More">⋯</button>`;
}

export function morePanelHTML(item) {
  const name = uploaderKey(item);
  const download = item.media?.download;
  return `
    <div class="more-panel" id="more-${item.id}" role="group" aria-label="More for this post" hidden>
      ${navigator.share ? '<button type="button" data-action="share">Share…</button>' : ''}
      <button type="button" data-action="copy-link">Copy link</button>
      ${download ? `<a class="button" href="${escapeHTML(download)}" download data-action="download">Download</a>` : ''}
      <button type="button" data-action="not-interested">Not interested</button>
      ${name ? `<button type="button" data-action="hide-uploader">Hide posts from ${escapeHTML(name)}</button>` : ''}
    </div>`;
}

/**
 * Puts the panel next to its button: left of the action column on phones (bottoms aligned),
 * above the action row on wide screens (left edges aligned). Measured, because the column's
 * place depends on the item's buttons and on the navigation bar below it.
 */
function place(button, panel) {
  const overlay = panel.offsetParent?.getBoundingClientRect();
  if (!overlay) return;
  const at = button.getBoundingClientRect();
  const wide = matchMedia('(min-width: 900px)').matches;
  Object.assign(panel.style, wide
    ? { left: `${at.left - overlay.left}px`, right: 'auto', bottom: `${overlay.bottom - at.top + 8}px`, maxHeight: `${at.top - 16}px` }
    : { right: `${overlay.right - at.left + 8}px`, left: 'auto', bottom: `${overlay.bottom - at.bottom}px`, maxHeight: `${at.bottom - 16}px` });
  if (!wide) return;
  // Its lines are whole (it is as wide as its longest, overlay.css): where the window ends
  // first, it moves left rather than wrapping or leaving the screen.
  const spill = panel.getBoundingClientRect().right - (document.documentElement.clientWidth - 8);
  if (spill > 0) panel.style.left = `${at.left - overlay.left - spill}px`;
}

/** One panel open at a time, for the whole feed. */
export function createMoreMenus() {
  let open = null;   // { button, panel }

  function close({ refocus = true } = {}) {
    if (!open) return;
    const { button, panel } = open;
    open = null;
    panel.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    if (refocus && panel.contains(document.activeElement)) button.focus({ preventScroll: true });
  }

  function toggle(button) {
    const panel = button.closest('.overlay').querySelector('.more-panel');
    const wasOpen = open?.panel === panel;
    close({ refocus: false });
    if (wasOpen) { button.focus({ preventScroll: true }); return; }
    open = { button, panel };
    panel.hidden = false;
    place(button, panel);
    button.setAttribute('aria-expanded', 'true');
    panel.querySelector('button, a')?.focus({ preventScroll: true });
  }

  const onKey = (event) => {
    if (event.key !== 'Escape' || !open) return;
    event.preventDefault();
    event.stopPropagation();
    close();
  };
  const onPointer = (event) => {
    if (open && !open.panel.contains(event.target) && !open.button.contains(event.target)) close({ refocus: false });
  };
  document.addEventListener('keydown', onKey, true);
  document.addEventListener('pointerdown', onPointer, true);

  return {
    toggle,
    close,
    get isOpen() { return open !== null; },
    destroy() {
      close({ refocus: false });
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onPointer, true);
    },
  };
}
