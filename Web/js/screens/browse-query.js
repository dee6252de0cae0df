// Browse's state lives in the URL, under the API's own names (docs/catalog-api.md, "Browse"),
// so a reload, a shared link and the back button all bring back the same grid.

export const SORTS = [
  { value: 'title', label: 'Title A–Z' },
  { value: 'newest', label: 'Newest' },
  { value: 'posted', label: 'Date posted' },
  { value: 'duration', label: 'Duration' },
  { value: 'rating', label: 'Rating' },
];
/** Each sort's own direction when the URL names none (docs/catalog-api.md). */
export const DEFAULT_ORDER = { title: 'asc', newest: 'desc', posted: 'desc', duration: 'asc', rating: 'desc' };

/** The direction the grid is in: the URL's `order`, else the sort's default. */
export function effectiveOrder(query) {
  const order = query.get('order');
  if (order === 'asc' || order === 'desc') return order;
  return DEFAULT_ORDER[query.get('sort') || 'title'] ?? 'asc';
}

export const KINDS = [
  { value: 'video', label: 'Videos' },
  { value: 'image', label: 'Images' },
  { value: 'carousel', label: 'Carousels' },
];
export const FILTER_KEYS = ['tags', 'exclude_tags', 'uploader', 'kind', 'min_duration', 'max_duration', 'favorites', 'min_rating', 'seen'];
const LIST_KEYS = new Set(['tags', 'exclude_tags', 'uploader', 'kind']);

/** The API parameters a browse URL asks for (unknown keys and empty values left out). */
export function browseParams(query) {
  const params = {};
  for (const key of ['sort', 'order', ...FILTER_KEYS]) {
    const value = query.get(key);
    if (value) params[key] = value;
  }
  return params;
}

/** How many filters are on (the filter button is tinted, and shows this count). */
export function activeFilterCount(query) {
  return FILTER_KEYS.reduce((count, key) => {
    const value = query.get(key);
    if (!value) return count;
    return count + (LIST_KEYS.has(key) ? splitList(value).length : 1);
  }, 0);
}

export function splitList(value) {
  return (value ?? '').split(',').map((part) => part.trim()).filter(Boolean);
}

/** A copy of `query` with `key` set to `value` (an array is joined; empty removes it). */
export function withParam(query, key, value) {
  const next = new URLSearchParams(query);
  const text = Array.isArray(value) ? value.filter(Boolean).join(',') : value;
  if (text === undefined || text === null || text === '' || text === false) next.delete(key);
  else next.set(key, String(text));
  next.delete('cursor');
  return next;
}

export function withoutFilters(query) {
  const next = new URLSearchParams(query);
  FILTER_KEYS.forEach((key) => next.delete(key));
  return next;
}
