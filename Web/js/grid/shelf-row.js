// One Discover shelf: its title (a link to the shelf as a full grid) over a horizontal row of
// covers that pages itself in sideways with the shelf's own cursor as the row is scrolled.
import { createCover, createSkeleton } from './cover.js';

export const SHELF_SIZES = '(min-width: 768px) 168px, 118px';

/** A collection's shelf opens the collection itself; every other shelf its own full grid. */
export function shelfHref(shelf) {
  const collection = shelf.kind === 'collection' && /^collection-(\d+)$/.exec(shelf.id);
  return collection ? `/collection/${collection[1]}` : `/shelf/${encodeURIComponent(shelf.id)}`;
}

/**
 * `shelf`: { id, title, kind, items, next_cursor } from GET /api/v1/discover. `store`: the app's
 * state store, whose `postDeleted` takes a deleted post's cover out of the row at once.
 */
export function createShelfRow(shelf, { fetchPage, onOpen, store = null }) {
  const section = document.createElement('section');
  section.className = 'shelf';
  section.dataset.shelfId = shelf.id;
  const heading = document.createElement('h2');
  heading.className = 'shelf-title';
  const link = document.createElement('a');
  link.href = shelfHref(shelf);
  link.textContent = shelf.title;
  const more = document.createElement('span');
  more.className = 'shelf-more';
  more.setAttribute('aria-hidden', 'true');
  more.textContent = '›';
  link.append(more);
  heading.append(link);
  const row = document.createElement('ul');
  row.className = 'shelf-row';
  row.setAttribute('aria-label', shelf.title);
  const sentinel = document.createElement('li');
  sentinel.className = 'shelf-sentinel';
  sentinel.setAttribute('aria-hidden', 'true');
  // A mouse without a sideways wheel still gets along the row: a step of most of its width.
  const steps = document.createElement('div');
  steps.className = 'shelf-steps';
  for (const [label, direction] of [['‹', -1], ['›', 1]]) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.setAttribute('aria-label', `${shelf.title}: ${direction < 0 ? 'back' : 'more'}`);
    button.addEventListener('click', () => {
      const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      row.scrollBy({ left: direction * row.clientWidth * 0.85, behavior: smooth ? 'smooth' : 'instant' });
    });
    steps.append(button);
  }
  const bar = document.createElement('div');
  bar.className = 'shelf-bar';
  bar.append(heading, steps);
  section.append(bar, row);

  const items = [];
  let cursor = shelf.next_cursor ?? null;
  let loading = false;
  const controller = new AbortController();

  function append(page) {
    const known = new Set(items.map((item) => item.id));
    const fresh = page.filter((item) => !known.has(item.id));
    items.push(...fresh);
    sentinel.before(...fresh.map((item) => createCover(item, { sizes: SHELF_SIZES, onOpen: (chosen) => onOpen(chosen, shelf) })));
  }

  async function loadMore() {
    if (loading || !cursor) return;
    loading = true;
    const skeletons = [createSkeleton(), createSkeleton(), createSkeleton()];
    sentinel.before(...skeletons);
    try {
      const result = await fetchPage({ cursor, signal: controller.signal });
      append(result.items ?? []);
      cursor = result.next_cursor ?? null;
    } catch (error) {
      if (error?.name === 'AbortError') return;
      cursor = null;   // a failed page ends this row; the full grid can still be opened
    } finally {
      skeletons.forEach((skeleton) => skeleton.remove());
      loading = false;
    }
    if (!cursor) sentinel.remove();
  }

  row.append(sentinel);
  append(shelf.items ?? []);
  if (!cursor) sentinel.remove();
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) loadMore();
  }, { root: row, rootMargin: '0px 100% 0px 0px' });
  observer.observe(sentinel);

  const unwatchDeleted = store?.subscribe('postDeleted', (deleted) => {
    const id = Number(deleted?.id);
    const index = items.findIndex((item) => item.id === id);
    if (index < 0) return;
    items.splice(index, 1);
    row.querySelector(`.cover[data-item-id="${id}"]`)?.closest('.cover-cell')?.remove();
    if (items.length === 0 && !cursor) section.remove();
  });

  return {
    element: section,
    destroy() { controller.abort(); observer.disconnect(); unwatchDeleted?.(); },
  };
}

/** A shelf-shaped placeholder while Discover loads. */
export function createShelfSkeleton() {
  const section = document.createElement('section');
  section.className = 'shelf';
  section.setAttribute('aria-hidden', 'true');
  const heading = document.createElement('div');
  heading.className = 'shelf-title skeleton-text';
  const row = document.createElement('ul');
  row.className = 'shelf-row';
  row.append(...Array.from({ length: 8 }, () => createSkeleton()));
  section.append(heading, row);
  return section;
}
