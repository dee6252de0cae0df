// Shows a route: the feed (kept alive and hidden while elsewhere, so it keeps its position
// and its player pool), one of the list screens (mounted into #screens, destroyed on leave),
// or the detail sheet over the screen it was opened from (/p/{id}; over Discover on a direct load).
import { render as renderDiscover } from './screens/discover.js';
import { render as renderBrowse } from './screens/browse.js';
import { render as renderSearch } from './screens/search.js';
import { renderFavorites, renderShelf } from './screens/list-grid.js';
import { renderCollection } from './screens/collection.js';
import { renderProfile } from './profile/index.js';
import { openDetail } from './detail/index.js';
import { openStories } from './stories/index.js';
import { matchRoute } from './router.js';

const SCREENS = {
  discover: { render: renderDiscover, title: 'Discover' },
  browse: { render: renderBrowse, title: 'All' },
  search: { render: renderSearch, title: 'Search' },
  favorites: { render: renderFavorites, title: 'Favorites' },
  shelf: { render: renderShelf, title: 'Shelf' },
  collection: { render: renderCollection, title: 'Collection' },
  profile: { render: renderProfile, title: 'Profile' },
};
const DETAIL_BACKGROUND = '/discover';
const STORIES_BACKGROUND = '/discover';

export function createScreenHost({ api, navigate, feed, nav, getUser, playback, store }) {
  const container = document.getElementById('screens');
  let screen = null;        // { key, url, root, instance }
  // Screens left for another one are kept a while (detached, with their scroll position), so
  // "back" to a grid shows it as it was: same covers, same place, no reload.
  const parked = [];
  const PARKED_MAX = 3;
  let detail = null;        // { id, sheet }
  let stories = null;       // { player } while the story player is open

  function routeOf(url) {
    const target = new URL(url, location.origin);
    const route = matchRoute(target.pathname);
    return route && route.name !== 'detail' && route.name !== 'stories' ? { ...route, query: target.searchParams, url: target.pathname + target.search } : { name: 'discover', id: null, query: new URLSearchParams(), url: DETAIL_BACKGROUND };
  }

  /**
   * A cover was opened: the sheet pushes /p/{id} itself (and goes back when closed). The entry
   * it leaves keeps what the sheet needs after a reload or forward: where it was opened and
   * the grid's context (the sheet copies history.state into the entry it pushes).
   */
  function openDetailFrom(id, context) {
    const here = location.pathname + location.search;
    const saved = { kind: context?.kind ?? 'browse', query: String(context?.query ?? '') };
    history.replaceState({ ...(history.state ?? {}), background: here, context: saved }, '', location.href);
    closeDetail();
    detail = { id: String(id), sheet: openDetail(Number(id), { api, navigate, playback, store, context: { kind: saved.kind, query: new URLSearchParams(saved.query) } }) };
  }

  function closeScreen() {
    screen?.instance?.destroy?.();
    screen = null;
    container.replaceChildren();
  }

  function parkScreen() {
    if (!screen) return;
    screen.scrollTop = container.scrollTop;
    screen.title = document.title;
    screen.root.remove();
    parked.unshift(screen);
    screen = null;
    parked.splice(PARKED_MAX).forEach((old) => old.instance?.destroy?.());
  }

  function unpark(key, url) {
    const index = parked.findIndex((entry) => entry.key === key && entry.url === url);
    if (index < 0) return false;
    [screen] = parked.splice(index, 1);
    container.append(screen.root);
    container.scrollTop = screen.scrollTop;
    document.title = screen.title;
    return true;
  }

  function showBase(route) {
    nav.select(route.name);
    if (route.name === 'feed') {
      parkScreen();
      container.hidden = true;
      document.title = 'Reelhouse';
      feed.show(route.query);
      return;
    }
    feed.hide();
    container.hidden = false;
    const key = `${route.name}:${route.id ?? ''}`;
    if (screen?.key === key) {
      if (screen.url !== route.url) screen.instance.update?.(route.query);
      screen.url = route.url;
      return;
    }
    parkScreen();
    if (unpark(key, route.url)) return;
    const root = document.createElement('div');
    root.className = `screen screen-${route.name}`;
    container.append(root);
    container.scrollTop = 0;
    const spec = SCREENS[route.name];
    document.title = `${spec.title} · Reelhouse`;
    const ctx = {
      api, navigate, store, params: { id: route.id }, query: route.query, user: getUser(), scroller: container,
      openDetail: openDetailFrom,
    };
    screen = { key, url: route.url, root, title: document.title, instance: spec.render(root, ctx) };
  }

  function closeDetail() {
    detail?.sheet?.close();
    detail = null;
  }

  function showDetail(route) {
    const background = typeof route.state.background === 'string' ? route.state.background : DETAIL_BACKGROUND;
    showBase(routeOf(background));
    if (detail?.id === route.id) return;
    closeDetail();
    const saved = route.state.context;
    const context = saved ? { kind: saved.kind ?? 'browse', query: new URLSearchParams(saved.query ?? '') } : null;
    // A reload, a shared link or "forward": the URL is /p/{id} already, so the sheet pushes nothing.
    detail = { id: route.id, sheet: openDetail(Number(route.id), { api, navigate, playback, store, context }) };
  }

  function closeStories() {
    stories?.player.close({ silent: true });
    stories = null;
  }

  /**
   * /stories/{user}: the player over the screen the tray was on (history.state.background; a
   * deep link: Discover). The feed behind it is hidden, so nothing of it plays meanwhile.
   * The player replaces the URL as it moves between people; closing goes back to the tray.
   */
  function showStories(route) {
    const state = route.state ?? {};
    const background = typeof state.background === 'string' ? state.background : STORIES_BACKGROUND;
    const base = routeOf(background);
    showBase(base);
    if (base.name === 'feed') feed.hide();
    if (stories) return;
    let username;
    try { username = decodeURIComponent(route.id); } catch { username = route.id; }
    const opened = {};
    stories = opened;
    opened.player = openStories(username, {
      api, navigate, playback, store,
      people: Array.isArray(state.storiesPeople) ? state.storiesPeople : null,
      cursor: typeof state.storiesCursor === 'string' ? state.storiesCursor : null,
      onPersonChange: (user) => {
        const path = `/stories/${encodeURIComponent(user)}`;
        if (location.pathname !== path) history.replaceState(history.state, '', path);
      },
      onClose: () => {
        if (stories === opened) stories = null;
        if (typeof history.state?.background === 'string') history.back();
        else navigate(background, { replace: true });
      },
    });
  }

  return {
    show(route) {
      if (route.name === 'stories') { closeDetail(); showStories(route); return; }
      closeStories();
      if (route.name === 'detail') { showDetail(route); return; }
      closeDetail();
      showBase({ ...route, url: location.pathname + location.search });
    },
    /** Signed out: every screen goes (the feed is stopped by the app). */
    clear() {
      closeStories();
      closeDetail();
      closeScreen();
      parked.splice(0).forEach((old) => old.instance?.destroy?.());
      container.hidden = true;
    },
  };
}
