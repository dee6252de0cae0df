// Pages through the server's endless feed. The server never repeats a post until the filtered
// library is exhausted, then reshuffles; this keeps the client honest about that promise too:
// an id already shown in the current cycle is dropped, and a page made only of ids this cursor
// chain already returned means the library wrapped, which starts a new cycle.
//
// A cursor the server refuses (a 4xx: it was signed with a secret since rotated, or it is
// otherwise no longer valid) restarts the paging from a fresh first page. That new chain walks
// the library in another order, so what was already shown is dropped as it comes round, and
// pages that bring nothing new are skipped rather than taken for a wrap.

export const PAGE_SIZE = 10;
/** Ask for the next page when this many items are left after the current one. */
export const REMAINING_BEFORE_NEXT_PAGE = 3;
/** Pages fetched in one loadMore when they bring nothing new (after a restart), at most. */
const MAX_EMPTY_PAGES = 20;

/** Whether a failed page request means "this cursor is no longer accepted". */
export function cursorRefused(error) {
  const status = error?.status ?? 0;
  return status >= 400 && status < 500 && ![401, 408, 429].includes(status);
}

export function createFeedSource({ fetchPage, filter = {}, pageSize = PAGE_SIZE }) {
  const items = [];
  let seenThisCycle = new Set();
  let returnedByChain = new Set(); // ids the current cursor chain has returned (this cycle)
  let cursor = null;
  let exhausted = false;
  let pending = null;
  let restarts = 0;

  /** Adds a page's new items; returns how many were added, or -1 for "nothing new, not a wrap". */
  function accept(pageItems) {
    let fresh = pageItems.filter((item) => !seenThisCycle.has(item.id));
    const wrapped = pageItems.some((item) => returnedByChain.has(item.id));
    if (fresh.length === 0 && pageItems.length > 0) {
      if (!wrapped) {
        for (const item of pageItems) returnedByChain.add(item.id);
        return -1;
      }
      // The library wrapped around: a new cycle may show everything again, but never the
      // item that is on screen right now twice in a row.
      seenThisCycle = new Set();
      returnedByChain = new Set();
      const last = items[items.length - 1];
      fresh = pageItems.filter((item) => item.id !== last?.id);
    }
    for (const item of pageItems) returnedByChain.add(item.id);
    for (const item of fresh) {
      seenThisCycle.add(item.id);
      items.push(item);
    }
    return fresh.length;
  }

  async function fetchFrom(from) {
    try {
      return await fetchPage({ cursor: from, limit: pageSize, filter });
    } catch (error) {
      if (!from || !cursorRefused(error)) throw error;
      // Start over from a fresh first page; ids already shown stay in seenThisCycle.
      restarts += 1;
      returnedByChain = new Set();
      return fetchPage({ cursor: null, limit: pageSize, filter });
    }
  }

  async function loadMore() {
    if (exhausted) return 0;
    if (pending) return pending;
    pending = (async () => {
      try {
        for (let page = 0; page < MAX_EMPTY_PAGES; page += 1) {
          const result = await fetchFrom(cursor);
          const added = accept(result.items ?? []);
          cursor = result.next_cursor ?? null;
          if (!cursor) exhausted = true;
          if (added >= 0 || exhausted) return Math.max(0, added);
        }
        return 0;
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
    /** How often a refused cursor restarted the paging (for tests and bug reports). */
    get restarts() { return restarts; },
    /** True when the item at `index` is close enough to the end to fetch the next page. */
    wantsMore(index) { return !exhausted && items.length - 1 - index <= REMAINING_BEFORE_NEXT_PAGE; },
  };
}
