// A grid of covers that pages itself in with the list's cursor: the next page is asked for
// when the end of the grid comes within a screen of view (IntersectionObserver), and skeleton
// covers of the same size hold its place meanwhile. Nothing moves when a page lands.
import { createCover, createSkeleton } from './cover.js';

export const GRID_SIZES = '(min-width: 1200px) 240px, (min-width: 768px) 220px, 34vw';
const SKELETONS = 12;

/**
 * `fetchPage({ cursor, signal })` → `{ items, next_cursor }`. `onOpen(item, items)` opens a
 * cover; `onFirstPage(result)` sees the first answer (titles); `decorateTitle` as in cover.js.
 */
export function createLazyGrid({ store, fetchPage, onOpen, onFirstPage, decorateTitle, emptyText = 'Nothing here yet.', label, root = null }) {
  const element = document.createElement('div');
  element.className = 'lazy-grid';
  const list = document.createElement('ul');
  list.className = 'grid';
  if (label) list.setAttribute('aria-label', label);
  const status = document.createElement('div');
  status.className = 'grid-status';
  status.setAttribute('role', 'status');
  const sentinel = document.createElement('div');
  sentinel.className = 'grid-sentinel';
  element.append(list, status, sentinel);

  const items = [];
  let cursor = null;
  let done = false;
  let loading = false;
  let controller = null;
  let generation = 0;

  const observer = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) loadMore();
  }, { root, rootMargin: '0px 0px 100% 0px' });   // `root`: the screen's scroller

  function showStatus(text, retry) {
    status.replaceChildren();
    if (!text) return;
    const paragraph = document.createElement('p');
    paragraph.textContent = text;
    status.append(paragraph);
    if (retry) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Try again';
      button.addEventListener('click', () => loadMore());
      status.append(button);
    }
  }

  async function loadMore() {
    if (loading || done) return;
    loading = true;
    const mine = generation;
    controller = new AbortController();
    const skeletons = Array.from({ length: items.length === 0 ? SKELETONS : 6 }, () => createSkeleton());
    list.append(...skeletons);
    element.setAttribute('aria-busy', 'true');
    showStatus('');
    try {
      const result = await fetchPage({ cursor, signal: controller.signal });
      if (mine !== generation) return;
      if (items.length === 0) onFirstPage?.(result);
      const page = result.items ?? [];
      const known = new Set(items.map((item) => item.id));
      const fresh = page.filter((item) => !known.has(item.id));
      items.push(...fresh);
      skeletons.forEach((skeleton) => skeleton.remove());
      list.append(...fresh.map((item) => createCover(item, { sizes: GRID_SIZES, decorateTitle, onOpen: (chosen) => onOpen(chosen, items) })));
      cursor = result.next_cursor ?? null;
      done = !cursor;
      element.dataset.count = String(items.length);
      element.dataset.done = String(done);
      if (items.length === 0) showStatus(emptyText);
    } catch (error) {
      skeletons.forEach((skeleton) => skeleton.remove());
      if (error?.name === 'AbortError' || mine !== generation) return;
      if (error?.isUnauthorized) { store.set('session', 'signed-out'); return; }   // app.js shows the sign-in form
      showStatus(error?.message ?? 'This list could not be loaded.', true);
      return;
    } finally {
      if (mine === generation) { loading = false; element.removeAttribute('aria-busy'); }
    }
    // Still in view after the page landed (a tall screen): ask for the next one now.
    if (!done) requestAnimationFrame(() => {
      const bottom = root ? root.getBoundingClientRect().bottom : window.innerHeight;
      if (mine === generation && sentinel.isConnected && sentinel.getBoundingClientRect().top < bottom * 2) loadMore();
    });
  }

  observer.observe(sentinel);
  // A post deleted from the detail sheet leaves the grid at once.
  const onDeleted = (deleted) => {
    const id = Number(deleted?.id);
    const index = items.findIndex((item) => item.id === id);
    if (index < 0) return;
    items.splice(index, 1);
    list.querySelector(`.cover[data-item-id="${id}"]`)?.closest('.cover-cell')?.remove();
    element.dataset.count = String(items.length);
  };
  const unwatchDeleted = store.subscribe('postDeleted', onDeleted);

  return {
    element,
    items,
    loadMore,
    /** Starts over (a new filter, another library). */
    reload() {
      generation += 1;
      controller?.abort();
      loading = false;
      items.length = 0;
      cursor = null;
      done = false;
      list.replaceChildren();
      showStatus('');
      loadMore();
    },
    destroy() {
      generation += 1;
      controller?.abort();
      observer.disconnect();
      unwatchDeleted();
    },
  };
}
