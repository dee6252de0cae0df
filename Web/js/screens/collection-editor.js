// The owner's editor of one collection: rename it, reorder its posts (drag a row by its handle
// with a mouse, a finger or a pen, or use the "Move earlier / later" buttons from the
// keyboard), remove a post, and delete the collection after a confirmation. Every reorder
// sends the full order (PUT post_ids) and puts the rows back if the server refuses.
import { coverSources } from '../grid/cover.js';
import { postTitle } from '../grid/post-title.js';
import { collectionApi } from './collection-api.js';

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

/**
 * `collection`: { id, name }, `items`: its posts in order. `onRenamed(name)`, `onDeleted()`,
 * `onChanged()` (order or members changed) tell the screen.
 */
export function createCollectionEditor({ collection, items, onRenamed, onDeleted, onChanged }) {
  let order = [...items];
  const status = el('p', { class: 'editor-status', role: 'status' });
  const say = (text) => { status.textContent = text; };

  // Rename
  const nameInput = el('input', { name: 'collection-name', 'aria-label': 'Collection name', maxlength: '200', autocomplete: 'off' });
  nameInput.value = collection.name;
  const renameForm = el('form', { class: 'collection-rename' }, nameInput, el('button', { type: 'submit', class: 'primary' }, 'Rename'));
  renameForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = nameInput.value.trim();
    if (!name || name === collection.name) return;
    try {
      const saved = await collectionApi.rename(collection.id, name);
      collection.name = saved.name ?? name;
      onRenamed(collection.name);
      say(`Renamed to ${collection.name}.`);
    } catch (error) { say(error?.message ?? 'The collection could not be renamed.'); }
  });

  // The ordered list
  const list = el('ol', { class: 'collection-order', 'aria-label': 'Posts in this order' });

  async function saveOrder(next, moved) {
    const before = order;
    order = next;
    paint(moved);
    try {
      await collectionApi.setOrder(collection.id, order.map((item) => item.id));
      say(moved ? `${postTitle(moved)} is now number ${order.indexOf(moved) + 1} of ${order.length}.` : 'Order saved.');
      onChanged();
    } catch (error) {
      order = before;
      paint(moved);
      say(error?.message ?? 'The new order could not be saved.');
    }
  }

  function move(item, delta) {
    const from = order.indexOf(item);
    const to = from + delta;
    if (from < 0 || to < 0 || to >= order.length) return;
    const next = [...order];
    next.splice(from, 1);
    next.splice(to, 0, item);
    saveOrder(next, item);
  }

  async function removeItem(item) {
    try {
      await collectionApi.removeItem(collection.id, item.id);
      order = order.filter((entry) => entry !== item);
      paint();
      say(`Removed ${postTitle(item)}.`);
      onChanged();
    } catch (error) { say(error?.message ?? 'The post could not be removed.'); }
  }

  function row(item, index) {
    const title = postTitle(item);
    const { src } = coverSources(item);
    const handle = el('span', { class: 'drag-handle', 'aria-hidden': 'true', title: 'Drag to reorder' }, '⠿');
    const earlier = el('button', { type: 'button', class: 'move-earlier', 'aria-label': `Move ${title} earlier`, onclick: () => move(item, -1) }, '↑');
    const later = el('button', { type: 'button', class: 'move-later', 'aria-label': `Move ${title} later`, onclick: () => move(item, 1) }, '↓');
    earlier.disabled = index === 0;
    later.disabled = index === order.length - 1;
    const remove = el('button', { type: 'button', class: 'remove-item', 'aria-label': `Remove ${title} from the collection`, onclick: () => removeItem(item) }, 'Remove');
    const thumb = el('img', { alt: '', loading: 'lazy' });
    if (src) thumb.src = src;
    const li = el('li', { class: 'order-row', 'data-item-id': String(item.id) },
      handle, thumb, el('span', { class: 'order-title' }, title),
      el('span', { class: 'order-buttons' }, earlier, later, remove));
    handle.addEventListener('pointerdown', (event) => startDrag(event, item, li));
    return li;
  }

  function paint(focusItem) {
    const focusedClass = document.activeElement?.closest?.('.order-row') ? document.activeElement.className : null;
    list.replaceChildren(...order.map(row));
    if (focusItem && focusedClass) {
      const target = list.querySelector(`.order-row[data-item-id="${focusItem.id}"] .${focusedClass.split(' ')[0]}`);
      (target && !target.disabled ? target : list.querySelector(`.order-row[data-item-id="${focusItem.id}"] button:not([disabled])`))?.focus();
    }
    if (order.length === 0) list.append(el('li', { class: 'hint' }, 'No posts left in this collection.'));
  }

  // Dragging by the handle: pointer events (mouse, touch and pen alike). The row follows the
  // pointer among its siblings; letting go saves the order if it changed. The listeners sit
  // on the window: moving the row in the DOM releases any pointer capture on its handle.
  function startDrag(event, item, li) {
    if (event.button !== 0 || !event.isPrimary) return;
    event.preventDefault();
    const pointer = event.pointerId;
    li.classList.add('dragging');
    const onMove = (moveEvent) => {
      if (moveEvent.pointerId !== pointer) return;
      moveEvent.preventDefault();
      const rows = [...list.querySelectorAll('.order-row')].filter((other) => other !== li);
      const before = rows.find((other) => {
        const box = other.getBoundingClientRect();
        return moveEvent.clientY < box.top + box.height / 2;
      }) ?? null;
      if (li.nextElementSibling !== before) list.insertBefore(li, before);
    };
    const onEnd = (endEvent) => {
      if (endEvent.pointerId !== pointer) return;
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onEnd);
      window.removeEventListener('pointercancel', onEnd);
      li.classList.remove('dragging');
      const ids = [...list.querySelectorAll('.order-row')].map((node) => Number(node.dataset.itemId));
      const next = ids.map((id) => order.find((entry) => entry.id === id));
      if (ids.join() !== order.map((entry) => entry.id).join()) saveOrder(next, item);
    };
    window.addEventListener('pointermove', onMove, { passive: false });
    window.addEventListener('pointerup', onEnd);
    window.addEventListener('pointercancel', onEnd);
  }

  // Delete, after a confirmation in place
  const danger = el('div', { class: 'collection-danger' });
  function showDelete() {
    const confirm = el('div', { class: 'collection-confirm', role: 'alertdialog', 'aria-label': 'Delete this collection?' },
      el('p', {}, `Delete the collection “${collection.name}”? Its posts stay in the library.`),
      el('div', { class: 'button-row' },
        el('button', { type: 'button', class: 'danger confirm-delete', onclick: async () => {
          try { await collectionApi.remove(collection.id); onDeleted(); } catch (error) { say(error?.message ?? 'The collection could not be deleted.'); }
        } }, 'Delete collection'),
        el('button', { type: 'button', class: 'secondary cancel-delete', onclick: () => { danger.replaceChildren(deleteButton); deleteButton.focus(); } }, 'Cancel')));
    danger.replaceChildren(confirm);
    confirm.querySelector('.cancel-delete').focus();
  }
  const deleteButton = el('button', { type: 'button', class: 'danger delete-collection', onclick: showDelete }, 'Delete collection…');
  danger.append(deleteButton);

  paint();
  const element = el('section', { class: 'collection-editor', 'aria-label': 'Edit collection' },
    renameForm,
    el('p', { class: 'hint' }, 'Drag a post by its handle, or use ↑ and ↓, to change the order.'),
    list, status, danger);
  return { element };
}
