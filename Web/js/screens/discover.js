// Discover: a vertical list of horizontal shelves (GET /api/v1/discover), each titled with a
// link to the shelf as a full grid (/shelf/{id}); rows page in sideways with their cursors.
import { createShelfRow, createShelfSkeleton } from '../grid/shelf-row.js';
import { createCollectionsRow } from '../grid/collection-row.js';
import { messageBox, onLibraryChange, screenHeader } from './screen-parts.js';
import { mountTray } from '../stories/index.js';
import { libraryScope } from './library-scope.js';

export function render(root, ctx) {
  const body = document.createElement('div');
  body.className = 'discover';
  const header = screenHeader('Discover');
  const all = document.createElement('a');
  all.href = '/browse';
  all.className = 'header-link';
  all.textContent = 'All A–Z';
  const scope = libraryScope(ctx);
  header.append(scope.element, all);
  const trayRoot = document.createElement('div');
  trayRoot.className = 'discover-stories';
  root.replaceChildren(header, trayRoot, body);
  const tray = mountTray(trayRoot, { api: ctx.api, navigate: ctx.navigate, store: ctx.store });
  let rows = [];
  let controller = null;

  // "Play in feed from here" plays the shelf the cover sits in (a collection as a collection).
  function open(item, shelf) {
    const collection = shelf.kind === 'collection' && /^collection-(\d+)$/.exec(shelf.id);
    ctx.openDetail(item.id, collection
      ? { kind: 'collection', query: new URLSearchParams({ collection: collection[1] }) }
      : { kind: 'shelf', query: new URLSearchParams({ shelf: shelf.id }) });
  }

  async function load() {
    controller?.abort();
    controller = new AbortController();
    rows.forEach((row) => row.destroy());
    rows = [];
    body.setAttribute('aria-busy', 'true');
    body.replaceChildren(...Array.from({ length: 3 }, createShelfSkeleton));
    try {
      // Every collection as well (a failure there only leaves that row out).
      const [{ shelves = [] }, collections] = await Promise.all([
        ctx.api.discover({ signal: controller.signal }),
        ctx.api.collections({ signal: controller.signal }).then((answer) => answer.collections ?? [], () => []),
      ]);
      // A collection shows once: in the Collections row, which reaches every one (its own
      // shelf would repeat it above).
      const inRow = new Set(collections.map((collection) => `collection-${collection.id}`));
      rows = shelves.filter((shelf) => !(shelf.kind === 'collection' && inRow.has(shelf.id))).map((shelf) => createShelfRow(shelf, {
        fetchPage: ({ cursor, signal }) => ctx.api.shelf(shelf.id, { cursor, signal }),
        onOpen: open,
        store: ctx.store,
      }));
      const collectionsRow = createCollectionsRow(collections);
      body.replaceChildren(...rows.map((row) => row.element), ...(collectionsRow ? [collectionsRow] : []));
      if (rows.length === 0 && !collectionsRow) body.append(messageBox('Nothing to discover yet: import some posts and they show up here.'));
    } catch (error) {
      if (error?.name === 'AbortError') return;
      body.replaceChildren(messageBox(error?.message ?? 'Discover could not be loaded.', { onRetry: load }));
    } finally {
      body.removeAttribute('aria-busy');
    }
  }

  const unwatch = onLibraryChange(ctx.store, load);
  load();
  return {
    destroy() { unwatch(); scope.destroy(); controller?.abort(); rows.forEach((row) => row.destroy()); tray.destroy(); },
  };
}
