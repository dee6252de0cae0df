// The order people play in: the tray's order (unseen first, then newest), paged in from
// `GET /api/v1/stories` as the player reaches the end of what it knows.
export function createPeopleList(stories, { people = null, cursor = null, start }) {
  const list = people?.length ? [...people] : [];
  let next = people?.length ? cursor : undefined;   // undefined: nothing fetched yet
  let loading = null;

  async function fetchMore() {
    if (next === null) return false;
    loading ??= stories.tray({ cursor: next ?? undefined }).then((page) => {
      for (const entry of page.tray ?? []) if (!list.includes(entry.user)) list.push(entry.user);
      next = page.next_cursor ?? null;
    }).finally(() => { loading = null; });
    await loading;
    return true;
  }

  return {
    /** Makes sure `start` is in the list (a deep link to someone further down the tray). */
    async ready() {
      if (list.length === 0) await fetchMore().catch(() => {});
      if (!list.includes(start)) list.unshift(start);
    },
    indexOf: (user) => list.indexOf(user),
    at: (index) => list[index] ?? null,
    /** The person after `index`, paging the tray in when needed; null at the very end. */
    async after(index) {
      while (index + 1 >= list.length) {
        const more = await fetchMore().catch(() => false);
        if (!more) break;
      }
      return list[index + 1] ?? null;
    },
    get list() { return [...list]; },
  };
}
