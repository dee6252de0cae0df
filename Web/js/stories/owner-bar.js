// The owner's tools in the story player, shown only on your own stories (`is_me`): at the
// bottom "Seen by N" (with ♥ and the like count), which pauses the story and opens the viewers
// sheet (viewers-sheet.js); and a "⋯" menu with Keep as post and Delete (asked first).
// `attachOwnerBar(view, { pause(on), onDeleted(id), onKept(item) })` → { show(item, mine),
// busy, destroy() }. While the menu or the sheet is open the story holds (`pause(true)`) and
// the player's keys (← → Space Esc) are the sheet's: Escape closes it, not the player.
import { h, useStylesheet } from '../ui/dom.js';
import { icon } from '../ui/icons.js';
import { showToast } from '../ui/toast.js';
import { storiesOwnerApi } from './owner-api.js';
import { openViewersSheet } from './viewers-sheet.js';

const PLAYER_KEYS = new Set(['ArrowLeft', 'ArrowRight', ' ', 'Escape']);

export function attachOwnerBar(view, { owner = storiesOwnerApi, pause, onDeleted, onKept = () => {} }) {
  useStylesheet('/css/stories-owner.css');
  const seenButton = h('button', { type: 'button', class: 'story-seen-by', 'aria-haspopup': 'dialog', 'aria-label': 'Show viewers' });
  const menuButton = h('button', { type: 'button', class: 'story-owner-more', 'aria-label': 'More for this story', 'aria-expanded': 'false' }, '⋯');
  const keepButton = h('button', { type: 'button', 'data-action': 'keep' }, 'Keep as post');
  const deleteButton = h('button', { type: 'button', class: 'danger', 'data-action': 'delete' }, 'Delete');
  const confirmText = h('p', { class: 'story-owner-confirm', hidden: true }, 'Delete this story? It is gone for everyone.');
  const confirmButton = h('button', { type: 'button', class: 'danger', 'data-action': 'confirm-delete', hidden: true }, 'Delete');
  const cancelButton = h('button', { type: 'button', 'data-action': 'cancel', hidden: true }, 'Cancel');
  const menu = h('div', { class: 'story-owner-menu', role: 'group', 'aria-label': 'This story', hidden: true },
    keepButton, deleteButton, confirmText, confirmButton, cancelButton);
  const bar = h('div', { class: 'story-owner-bar', hidden: true }, seenButton, menuButton, menu);
  view.likeButton.before(bar);

  let item = null;
  let sheet = null;
  let menuOpen = false;
  let working = false;

  const busy = () => Boolean(sheet) || menuOpen;
  function hold() { pause(busy()); }

  function renderItem() {
    const views = item.view_count ?? 0;
    seenButton.replaceChildren(
      h('span', { class: 'story-seen-count' }, `Seen by ${views}`),
      h('span', { class: 'story-like-count', 'aria-label': `${item.like_count ?? 0} likes` }, h('span', { innerHTML: icon('heart'), 'aria-hidden': 'true' }), String(item.like_count ?? 0)));
    seenButton.setAttribute('aria-label', `Seen by ${views}, ${item.like_count ?? 0} likes: show viewers`);
    keepButton.textContent = item.kept ? 'Kept' : 'Keep as post';
    keepButton.disabled = Boolean(item.kept);
  }

  function setConfirming(on) {
    keepButton.hidden = on;
    deleteButton.hidden = on;
    confirmText.hidden = !on;
    confirmButton.hidden = !on;
    cancelButton.hidden = !on;
    (on ? cancelButton : keepButton.disabled ? deleteButton : keepButton).focus({ preventScroll: true });
  }

  function setMenu(open, { refocus = true } = {}) {
    if (menuOpen === open) return;
    menuOpen = open;
    menu.hidden = !open;
    menuButton.setAttribute('aria-expanded', String(open));
    if (open) setConfirming(false);
    else if (refocus) menuButton.focus({ preventScroll: true });
    hold();
  }

  function openSheet() {
    if (!item || sheet) return;
    setMenu(false, { refocus: false });
    sheet = openViewersSheet(view.frame, {
      owner, item,
      onClose: () => { sheet = null; hold(); seenButton.focus({ preventScroll: true }); },
    });
    hold();
  }

  async function keep() {
    if (!item || item.kept || working) return;
    const target = item;
    working = true;
    keepButton.disabled = true;
    try {
      const answer = await owner.keep(target.id);
      target.kept = answer?.kept ?? true;
      onKept(target);
      showToast('Kept as a post: it stays in your library.');
    } catch (error) {
      showToast(error?.message ?? "Couldn't keep it.", { kind: 'error' });
    } finally {
      working = false;
      if (item === target) renderItem();
    }
  }

  async function remove() {
    if (!item || working) return;
    const target = item;
    working = true;
    confirmButton.disabled = true;
    try {
      await owner.remove(target.id);
      setMenu(false, { refocus: false });
      showToast('Story deleted.');
      onDeleted(target.id);
    } catch (error) {
      showToast(error?.message ?? "Couldn't delete it.", { kind: 'error' });
    } finally {
      working = false;
      confirmButton.disabled = false;
    }
  }

  // Capture phase on window: ahead of the player's own document listener.
  function onKey(event) {
    if (!busy() || !PLAYER_KEYS.has(event.key)) return;
    event.stopImmediatePropagation();
    if (event.key !== 'Escape') return;   // Space still presses a focused button
    event.preventDefault();
    if (sheet) sheet.close();
    else setMenu(false);
  }
  // The dialog's own cancel (Escape) must not close the player while the sheet is up.
  function onCancel(event) {
    if (!busy()) return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }
  // A press outside the open menu or sheet only closes it (the stage under it does not move on).
  function onOutside(event) {
    if (!busy() || bar.contains(event.target) || sheet?.element.contains(event.target)) return;
    event.stopPropagation();
    if (sheet) sheet.close();
    else setMenu(false, { refocus: false });
  }
  window.addEventListener('keydown', onKey, true);
  view.dialog.addEventListener('cancel', onCancel, true);
  view.dialog.addEventListener('pointerdown', onOutside, true);
  seenButton.addEventListener('click', openSheet);
  menuButton.addEventListener('click', () => setMenu(!menuOpen));
  keepButton.addEventListener('click', keep);
  deleteButton.addEventListener('click', () => setConfirming(true));
  cancelButton.addEventListener('click', () => setConfirming(false));
  confirmButton.addEventListener('click', remove);

  return {
    /** The item on screen; `mine` is the page's `is_me`. */
    show(next, mine) {
      if (item !== next) { sheet?.close(); setMenu(false, { refocus: false }); }
      item = mine ? next : null;
      bar.hidden = !mine;
      if (mine) renderItem();
    },
    get busy() { return busy(); },
    destroy() {
      sheet?.close();
      window.removeEventListener('keydown', onKey, true);
      view.dialog.removeEventListener('cancel', onCancel, true);
      view.dialog.removeEventListener('pointerdown', onOutside, true);
      bar.remove();
    },
  };
}

/** Takes `id` out of a person's page; the index to show next there, or -1 when none is left after it. */
export function dropItem(page, id) {
  const at = page.items.findIndex((entry) => entry.id === id);
  if (at < 0) return -1;
  page.items.splice(at, 1);
  return at < page.items.length ? at : -1;
}
