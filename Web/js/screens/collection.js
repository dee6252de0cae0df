// One collection (/collection/{id}): its posts in the owner's order as a grid. An owner gets
// an "Edit" switch that swaps the grid for the editor (rename, reorder, remove, delete);
// members see the grid only.
import { createLazyGrid } from '../grid/lazy-grid.js';
import { allItems } from './collection-api.js';
import { createCollectionEditor } from './collection-editor.js';
import { messageBox, onLibraryChange, screenHeader } from './screen-parts.js';

export function renderCollection(root, ctx) {
  const id = ctx.params.id;
  const header = screenHeader('Collection');
  const heading = header.querySelector('h1');
  const setName = (name) => { heading.textContent = name; document.title = `${name} · Reelhouse`; };
  const body = document.createElement('div');
  body.className = 'collection-body';
  const isOwner = ctx.user?.role === 'owner';
  let grid = null;
  let editing = false;
  let dirty = false;
  let controller = null;

  const editButton = document.createElement('button');
  editButton.type = 'button';
  editButton.className = 'edit-collection secondary';
  editButton.textContent = 'Edit';
  editButton.setAttribute('aria-pressed', 'false');
  editButton.addEventListener('click', () => (editing ? showGrid() : showEditor()));
  if (isOwner) header.append(editButton);
  root.replaceChildren(header, body);

  function showGrid() {
    editing = false;
    editButton.textContent = 'Edit';
    editButton.setAttribute('aria-pressed', 'false');
    controller?.abort();
    if (grid && !dirty) { body.replaceChildren(grid.element); return; }
    grid?.destroy();
    dirty = false;
    grid = createLazyGrid({
      store: ctx.store,
      root: ctx.scroller,
      label: 'Collection',
      emptyText: 'This collection has no posts yet.',
      fetchPage: ({ cursor, signal }) => ctx.api.collection(id, { cursor, signal }),
      onFirstPage: (result) => { if (result.name) setName(result.name); },
      onOpen: (item) => ctx.openDetail(item.id, { kind: 'collection', query: new URLSearchParams({ collection: id }) }),
    });
    body.replaceChildren(grid.element);
    grid.loadMore();
  }

  async function showEditor() {
    editing = true;
    editButton.textContent = 'Done';
    editButton.setAttribute('aria-pressed', 'true');
    controller?.abort();
    controller = new AbortController();
    body.replaceChildren(messageBox('Loading…'));
    try {
      const { collection, items } = await allItems(ctx.api, id, { signal: controller.signal });
      if (!editing) return;
      const editor = createCollectionEditor({
        collection: { id: collection.id ?? Number(id), name: collection.name ?? '' },
        items,
        onRenamed: setName,
        onChanged: () => { dirty = true; },
        onDeleted: () => ctx.navigate('/discover', { replace: true }),
      });
      body.replaceChildren(editor.element);
    } catch (error) {
      if (error?.name === 'AbortError') return;
      body.replaceChildren(messageBox(error?.message ?? 'The collection could not be loaded.', { onRetry: showEditor }));
    }
  }

  showGrid();
  const unwatch = onLibraryChange(ctx.store, () => { dirty = true; if (!editing) showGrid(); });
  return { destroy() { unwatch(); controller?.abort(); grid?.destroy(); } };
}
