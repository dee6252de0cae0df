// "Play in feed from here": the swipe feed can run on a list (a browse query, a search, a
// shelf, a collection, favorites) instead of the endless /api/v1/feed, starting at one post.
// The feed URL says which: /?from=browse&sort=newest&tags=cats&start=42.

const FROM = new Set(['browse', 'search', 'shelf', 'collection', 'favorites']);
/** How many pages the feed reads to find its starting post before it plays the list from the top. */
const MAX_SEEK_PAGES = 40;

/** The feed URL that plays `context`'s list ({ kind, query }) from the post `startId` on. */
export function playInFeedURL(context, startId) {
  const query = new URLSearchParams(context?.query ?? '');
  query.delete('cursor');
  const kind = FROM.has(context?.kind) ? context.kind : 'browse';
  return `/?${new URLSearchParams([['from', kind], ...query, ['start', String(startId)]])}`;
}

/** The list a feed URL names, or null for the ordinary feed. */
export function listFromQuery(query) {
  const kind = query.get('from');
  if (!FROM.has(kind)) return null;
  const params = new URLSearchParams(query);
  for (const key of ['from', 'start', 'tag', 'prefetch']) params.delete(key);
  const start = Number(query.get('start'));
  return { kind, params, startId: Number.isInteger(start) && start > 0 ? start : null };
}

/** A short name for the list, for the feed's chip ("Search: leon"). */
export function listLabel({ kind, params }) {
  switch (kind) {
    case 'search': return `Search: ${params.get('q') ?? ''}`;
    case 'shelf': return `Shelf: ${params.get('shelf') ?? ''}`;
    case 'collection': return 'Collection';
    case 'favorites': return 'Favorites';
    default: return 'All';
  }
}

function pageCall(api, { kind, params }) {
  const plain = Object.fromEntries(params);
  return ({ cursor, limit }) => {
    switch (kind) {
      case 'search': return api.search(plain.q ?? '', { cursor, limit });
      case 'shelf': return api.shelf(plain.shelf, { cursor, limit });
      case 'collection': return api.collection(plain.collection, { cursor, limit });
      case 'favorites': return api.favorites({ cursor, limit });
      default: { const { shelf, collection, q, ...browse } = plain; return api.browse(browse, { cursor, limit }); }
    }
  };
}

/**
 * `fetchPage` for feed-source.js over a list: the first call pages forward until the starting
 * post and answers from it on (if it is gone from the list, the list plays from the top).
 */
export function listPageFetcher(api, list) {
  const fetchPage = pageCall(api, list);
  let found = list.startId === null;
  return async (query) => {
    if (found) return fetchPage(query);
    const skipped = [];
    let cursor = query.cursor ?? null;
    for (let page = 0; page < MAX_SEEK_PAGES; page += 1) {
      const result = await fetchPage({ ...query, cursor });
      const items = result.items ?? [];
      const index = items.findIndex((item) => item.id === list.startId);
      if (index >= 0) { found = true; return { ...result, items: items.slice(index) }; }
      skipped.push(...items);
      cursor = result.next_cursor ?? null;
      if (!cursor) break;
    }
    found = true;
    return { items: skipped, next_cursor: cursor };
  };
}
