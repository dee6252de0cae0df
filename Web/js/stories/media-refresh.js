// Fresh media URLs for a story item whose signed URLs stopped working (a 403/410): the
// person's page is fetched again (GET /api/v1/stories/{user}) and the item's `media` swapped
// in place. One per story player (openStories): it knows whose page each item came from. The
// player's playback lease hands it to the engine for the items it loads and prefetches.
const expired = (message) => Object.assign(new Error(message), { code: 'expired' });

export function createStoryRefresher(stories) {
  const owners = new Map();   // item id → username

  return {
    /** The items of `user`'s page, so that each can be refreshed from it. */
    remember(user, items) {
      items.forEach((item) => owners.set(item.id, user));
    },

    /** The engine's refreshItem(item): rejects (code 'expired') when the story is gone. */
    async refresh(item) {
      const username = owners.get(item.id);
      if (!username) throw expired('Unknown story item.');
      const page = await stories.person(username);
      const fresh = page.items.find((candidate) => candidate.id === item.id);
      if (!fresh) throw expired('This story is gone.');
      item.media = fresh.media;
      return item;
    },
  };
}
