// Pages through the server's endless feed. The server never repeats a post until the filtered
// library is exhausted, then reshuffles; this keeps the client honest about that promise too:
// an id already shown in the current cycle is dropped, and a page made only of such ids means
// the library wrapped, which starts a new cycle.

export const PAGE_SIZE = 10;
/** Ask for the next page when this many items are left after the current one. */
export const REMAINING_BEFORE_NEXT_PAGE = 3;

export function createFeedSource({ fetchPage, filter = {}, pageSize = PAGE_SIZE }) {
  const items = [];
  let seenThisCycle = new Set();
  let cursor = null;
  let exhausted = false;
  let pending = null;

  function accept(pageItems) {
    let fresh = pageItems.filter((item) => !seenThisCycle.has(item.id));
    if (fresh.length === 0 && pageItems.length > 0) {
      // The library wrapped around: a new cycle may show everything again, but never the
      // item that is on screen right now twice in a row.
      seenThisCycle = new Set();
      const last = items[items.length - 1];
      fresh = pageItems.filter((item) => item.id !== last?.id);
    }
    for (const item of fresh) {
      seenThisCycle.add(item.id);
      items.push(item);
    }
    return fresh.length;
  }

  async function loadMore() {
    if (exhausted) return 0;
    if (pending) return pending;
    pending = (async () => {
      try {
        const page = await fetchPage({ cursor, limit: pageSize, filter });
        const added = accept(page.items ?? []);
        cursor = page.next_cursor ?? null;
        if (!cursor) exhausted = true;
        return added;
      } finally {
        pending = null;
      }
    })();
    return pending;
  }

  return {
    items,
    filter,
    loadMore,
    get exhausted() { return exhausted; },
    get loading() { return pending !== null; },
    /** True when the item at `index` is close enough to the end to fetch the next page. */
    wantsMore(index) { return !exhausted && items.length - 1 - index <= REMAINING_BEFORE_NEXT_PAGE; },
  };
}
