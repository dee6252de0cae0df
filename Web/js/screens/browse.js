// Browse (All, A–Z): every post in a grid, sorted and filtered by what the URL says
// (browse-query.js); the filter button is tinted while any filter is on.
import { createLazyGrid } from '../grid/lazy-grid.js';
import { activeFilterCount, browseParams, effectiveOrder, SORTS, withParam } from './browse-query.js';
import { createFilterPanel } from './browse-filters.js';
import { onLibraryChange, screenHeader } from './screen-parts.js';
import { libraryScope } from './library-scope.js';

export function render(root, ctx) {
  let query = new URLSearchParams(ctx.query);
  const header = screenHeader('All');
  const tools = document.createElement('div');
  tools.className = 'browse-tools';

  const sortLabel = document.createElement('label');
  sortLabel.className = 'sort-field';
  sortLabel.append('Sort ');
  const sort = document.createElement('select');
  sort.name = 'sort';
  for (const option of SORTS) sort.append(new Option(option.label, option.value));
  sortLabel.append(sort);
  sort.addEventListener('change', () => setQuery(withParam(withParam(query, 'sort', sort.value === 'title' ? '' : sort.value), 'order', '')));

  // Reverses the sort: the URL says `order=asc|desc` from then on.
  const orderButton = document.createElement('button');
  orderButton.type = 'button';
  orderButton.className = 'order-button';
  orderButton.addEventListener('click', () => setQuery(withParam(query, 'order', effectiveOrder(query) === 'asc' ? 'desc' : 'asc')));

  const filterButton = document.createElement('button');
  filterButton.type = 'button';
  filterButton.className = 'filter-button';
  filterButton.setAttribute('aria-haspopup', 'dialog');
  filterButton.addEventListener('click', () => panel.open(query));

  tools.append(sortLabel, orderButton, filterButton);
  const scope = libraryScope(ctx);
  header.append(scope.element, tools);

  const panel = createFilterPanel({ api: ctx.api, onChange: (next) => setQuery(next) });
  const grid = createLazyGrid({
    store: ctx.store,
    root: ctx.scroller,
    label: 'All posts',
    emptyText: 'No post matches these filters.',
    fetchPage: ({ cursor, signal }) => ctx.api.browse(browseParams(query), { cursor, signal }),
    onOpen: (item) => ctx.openDetail(item.id, { kind: 'browse', query: new URLSearchParams(query) }),
  });
  root.replaceChildren(header, grid.element, panel.element);

  function paint() {
    sort.value = query.get('sort') || 'title';
    const ascending = effectiveOrder(query) === 'asc';
    const sortName = sort.value === 'title' ? (ascending ? 'A–Z' : 'Z–A') : ascending ? 'Ascending' : 'Descending';
    orderButton.textContent = `${ascending ? '↑' : '↓'} ${sortName}`;
    orderButton.dataset.order = ascending ? 'asc' : 'desc';
    orderButton.setAttribute('aria-label', `Order: ${ascending ? 'ascending' : 'descending'}. Reverse it`);
    const active = activeFilterCount(query);
    filterButton.textContent = active ? `Filters · ${active}` : 'Filters';
    filterButton.dataset.active = String(active > 0);
    filterButton.setAttribute('aria-label', active ? `Filters, ${active} on` : 'Filters');
  }

  function setQuery(next) {
    const text = next.toString();
    ctx.navigate(text ? `/browse?${text}` : '/browse', { replace: true });
  }

  paint();
  grid.loadMore();
  const unwatch = onLibraryChange(ctx.store, () => grid.reload());
  return {
    /** The URL changed under this screen (sort, filters, back/forward): follow it. */
    update(nextQuery) {
      const changed = nextQuery.toString() !== query.toString();
      query = new URLSearchParams(nextQuery);
      paint();
      if (changed) grid.reload();
    },
    destroy() { unwatch(); scope.destroy(); panel.close(); grid.destroy(); },
  };
}
