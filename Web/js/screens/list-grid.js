// The screens that are one titled grid of one list: a shelf (/shelf/{id}) and Favorites
// (/favorites); a collection has its own screen (collection.js). The title comes with the first page.
import { createLazyGrid } from '../grid/lazy-grid.js';
import { onLibraryChange, screenHeader } from './screen-parts.js';

function renderList(root, ctx, { title, kind, query, fetchPage, titleOf, emptyText }) {
  const header = screenHeader(title);
  const heading = header.querySelector('h1');
  const grid = createLazyGrid({
    store: ctx.store,
    root: ctx.scroller,
    label: title,
    emptyText,
    fetchPage,
    onFirstPage: (result) => { const name = titleOf?.(result); if (name) { heading.textContent = name; document.title = `${name} · Reelhouse`; } },
    onOpen: (item) => ctx.openDetail(item.id, { kind, query }),
  });
  root.replaceChildren(header, grid.element);
  grid.loadMore();
  const unwatch = onLibraryChange(ctx.store, () => grid.reload());
  return { destroy() { unwatch(); grid.destroy(); } };
}

export function renderShelf(root, ctx) {
  const id = ctx.params.id;
  return renderList(root, ctx, {
    title: 'Shelf', kind: 'shelf', query: new URLSearchParams({ shelf: id }),
    fetchPage: ({ cursor, signal }) => ctx.api.shelf(id, { cursor, signal }),
    titleOf: (result) => result.title,
    emptyText: 'This shelf is empty.',
  });
}

export function renderFavorites(root, ctx) {
  return renderList(root, ctx, {
    title: 'Favorites', kind: 'favorites', query: new URLSearchParams(),
    fetchPage: ({ cursor, signal }) => ctx.api.favorites({ cursor, signal }),
    emptyText: 'Posts you like show up here.',
  });
}
