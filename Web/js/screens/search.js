// Search as you type: the query goes into the URL (/search?q=) 200 ms after the last key,
// the request in flight is cancelled by the next one (AbortController), results page in as
// the grid's end comes into view, and the words that matched are marked in each title.
import { createLazyGrid } from '../grid/lazy-grid.js';
import { createRecentSearches } from './recent-searches.js';
import { highlightInto, queryTerms } from './search-highlight.js';
import { onLibraryChange } from './screen-parts.js';

const DEBOUNCE_MS = 200;

export function render(root, ctx) {
  let q = (ctx.query.get('q') ?? '').trim();
  let terms = queryTerms(q);
  let typing = 0;

  const form = document.createElement('form');
  form.className = 'search-form';
  form.setAttribute('role', 'search');
  const label = document.createElement('label');
  label.className = 'visually-hidden';
  label.htmlFor = 'search-input';
  label.textContent = 'Search';
  const input = document.createElement('input');
  input.type = 'search';
  input.id = 'search-input';
  input.name = 'q';
  input.placeholder = 'Search titles, tags, people';
  input.autocomplete = 'off';
  input.setAttribute('autocapitalize', 'none');
  input.spellcheck = false;
  input.enterKeyHint = 'search';
  input.value = q;
  form.append(label, input);

  const aside = createRecentSearches({
    api: ctx.api,
    onPick: (text) => { input.value = text; commit(text); input.focus(); },
    onHint: (prefix) => { input.value = `${input.value.trim()} ${prefix}`.trimStart(); input.focus(); },
  });
  const grid = createLazyGrid({
    store: ctx.store,
    root: ctx.scroller,
    label: 'Search results',
    emptyText: 'No results. Try fewer words, or part of a word.',
    fetchPage: ({ cursor, signal }) => (q ? ctx.api.search(q, { cursor, signal }) : Promise.resolve({ items: [], next_cursor: null })),
    onFirstPage: (result) => { terms = result.terms?.length ? result.terms : queryTerms(q); },
    decorateTitle: (element, title) => highlightInto(element, title, terms),
    onOpen: (item) => {
      ctx.api.recordSearch(q).catch(() => {});
      ctx.openDetail(item.id, { kind: 'search', query: new URLSearchParams({ q }) });
    },
  });
  root.replaceChildren(form, aside.element, grid.element);

  function paint() {
    const empty = q === '';
    aside.element.hidden = !empty;
    grid.element.hidden = empty;
    document.title = empty ? 'Search · Reelhouse' : `${q} · Search · Reelhouse`;
  }

  function run() {
    terms = queryTerms(q);
    paint();
    grid.reload();   // aborts the request still in flight for the previous query
    if (!q) aside.refresh();
  }

  function commit(text) {
    clearTimeout(typing);
    const next = text.trim();
    ctx.navigate(next ? `/search?q=${encodeURIComponent(next)}` : '/search', { replace: true });
  }

  input.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => commit(input.value), DEBOUNCE_MS);
  });
  form.addEventListener('submit', (event) => { event.preventDefault(); commit(input.value); input.blur(); });

  paint();
  if (q) grid.loadMore(); else aside.refresh();
  if (!q) requestAnimationFrame(() => input.focus({ preventScroll: true }));
  const unwatch = onLibraryChange(ctx.store, () => { if (q) grid.reload(); });
  return {
    update(nextQuery) {
      const next = (nextQuery.get('q') ?? '').trim();
      if (next === q) return;
      q = next;
      if (input.value.trim() !== q) input.value = q;
      run();
    },
    destroy() { clearTimeout(typing); unwatch(); grid.destroy(); },
  };
}
