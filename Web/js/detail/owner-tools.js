// The owner's tools in the detail sheet's panel: edit description and tags, delete (with an
// inline confirmation), and add to a collection (an existing one, or a new one named inline).
import { h } from '../ui/dom.js';
import { parseTags } from './linkify.js';

function showPanel(panel, ...children) {
  panel.replaceChildren(...children);
  panel.hidden = false;
  panel.querySelector('input, textarea, button')?.focus();
}

export function closePanel(panel) {
  panel.hidden = true;
  panel.replaceChildren();
}

/** The edit form; `save({ description, tags })` resolves to the edited post. */
export function openEditor(panel, item, { save, onSaved }) {
  const description = h('textarea', { name: 'description', rows: 5 });
  description.value = item.description ?? '';
  const tags = h('input', { name: 'tags', autocomplete: 'off', spellcheck: 'false' });
  tags.value = (item.tags ?? []).map((tag) => tag.name).join(', ');
  const error = h('p', { class: 'detail-error', role: 'alert', hidden: true });
  const form = h('form', { class: 'detail-form', 'aria-label': 'Edit post' },
    h('label', {}, 'Description', description),
    h('label', {}, 'Tags (comma or space separated)', tags),
    error,
    h('div', { class: 'detail-form-buttons' },
      h('button', { type: 'submit', class: 'primary' }, 'Save'),
      h('button', { type: 'button', onclick: () => closePanel(panel) }, 'Cancel')));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    form.querySelector('[type=submit]').disabled = true;
    try {
      const edited = await save({ description: description.value, tags: parseTags(tags.value) });
      closePanel(panel);
      onSaved(edited);
    } catch (failure) {
      error.textContent = failure?.message ?? "Couldn't save.";
      error.hidden = false;
      form.querySelector('[type=submit]').disabled = false;
    }
  });
  showPanel(panel, form);
}

/** "Delete this post?" with Delete / Keep; `remove()` deletes on the server. */
export function confirmDelete(panel, { remove, onDeleted }) {
  const error = h('p', { class: 'detail-error', role: 'alert', hidden: true });
  const yes = h('button', { type: 'button', class: 'danger', 'data-action': 'confirm-delete' }, 'Delete for good');
  yes.addEventListener('click', async () => {
    yes.disabled = true;
    try {
      await remove();
      onDeleted();
    } catch (failure) {
      error.textContent = failure?.message ?? "Couldn't delete.";
      error.hidden = false;
      yes.disabled = false;
    }
  });
  showPanel(panel, h('div', { class: 'detail-confirm', role: 'group', 'aria-label': 'Confirm delete' },
    h('p', {}, 'Delete this post, its media and its place in every collection? This cannot be undone.'),
    error,
    h('div', { class: 'detail-form-buttons' }, yes, h('button', { type: 'button', onclick: () => closePanel(panel) }, 'Keep it'))));
}

/** The collections to add the post to, and a field to create one with the post in it. */
export async function openCollections(panel, item, { list, add, create, onChanged }) {
  const status = h('p', { class: 'detail-status', role: 'status' }, 'Loading collections…');
  showPanel(panel, status);
  let collections;
  try {
    collections = (await list()).collections ?? [];
  } catch (failure) {
    status.textContent = failure?.status === 404 ? 'Collections are not available on this server yet.' : (failure?.message ?? "Couldn't load collections.");
    return;
  }
  const member = new Set((item.collections ?? []).map((collection) => collection.id));
  const rows = collections.map((collection) => {
    const button = h('button', { type: 'button', 'aria-pressed': String(member.has(collection.id)), disabled: member.has(collection.id) },
      member.has(collection.id) ? `✓ ${collection.name}` : collection.name);
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        await add(collection.id);
        button.textContent = `✓ ${collection.name}`;
        button.setAttribute('aria-pressed', 'true');
        status.textContent = `Added to ${collection.name}.`;
        onChanged({ id: collection.id, name: collection.name });
      } catch (failure) {
        button.disabled = false;
        status.textContent = failure?.message ?? "Couldn't add it.";
      }
    });
    return h('li', {}, button);
  });
  const name = h('input', { name: 'collection-name', placeholder: 'New collection', autocomplete: 'off', required: true, maxlength: 100 });
  const form = h('form', { class: 'detail-new-collection', 'aria-label': 'New collection' }, name,
    h('button', { type: 'submit' }, 'Create and add'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const wanted = name.value.trim();
    if (!wanted) return;
    try {
      const created = await create(wanted);
      status.textContent = `Added to ${created.name}.`;
      name.value = '';
      form.before(h('ul', { class: 'detail-collections' }, h('li', {}, h('button', { type: 'button', disabled: true, 'aria-pressed': 'true' }, `✓ ${created.name}`))));
      onChanged({ id: created.id, name: created.name });
    } catch (failure) {
      status.textContent = failure?.message ?? "Couldn't create it.";
    }
  });
  status.textContent = collections.length ? 'Add to:' : 'No collections yet. Name one:';
  showPanel(panel, status, h('ul', { class: 'detail-collections' }, rows), form);
}
