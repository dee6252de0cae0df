// Shows a route: the feed (kept alive and hidden while elsewhere, so it keeps its position
// and its player pool), one of the list screens (mounted into #screens, destroyed on leave),
// or the detail sheet over the screen it was opened from (/p/{id}; over Discover on a direct load).
import { render as renderDiscover } from './screens/discover.js';
import { render as renderBrowse } from './screens/browse.js';
import { render as renderSearch } from './screens/search.js';
import { renderCollection, renderFavorites, renderShelf } from './screens/list-grid.js';
// webdetail's Web/js/profile/ and Web/js/detail/ replace these two stand-ins.
import { renderProfile } from './screens/profile-placeholder.js';
import { openDetail } from './screens/detail-placeholder.js';
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

export function createScreenHost({ api, navigate, feed, nav, getUser }) {
  const container = document.getElementById('screens');
  let screen = null;        // { key, url, instance }
  let detail = null;        // { id, sheet }

  function routeOf(url) {
    const target = new URL(url, location.origin);
    const route = matchRoute(target.pathname);
    return route && route.name !== 'detail' ? { ...route, query: target.searchParams, url: target.pathname + target.search } : { name: 'discover', id: null, query: new URLSearchParams(), url: DETAIL_BACKGROUND };
  }

  function openDetailFrom(id, context) {
    const here = location.pathname + location.search;
    navigate(`/p/${id}`, { state: { background: here, fromApp: true, context: { kind: context?.kind ?? 'browse', query: String(context?.query ?? '') } } });
  }

  function closeScreen() {
    screen?.instance?.destroy?.();
    screen = null;
    container.replaceChildren();
  }

  function showBase(route) {
    nav.select(route.name);
    if (route.name === 'feed') {
      closeScreen();
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
    closeScreen();
    const root = document.createElement('div');
    root.className = `screen screen-${route.name}`;
    container.append(root);
    container.scrollTop = 0;
    const spec = SCREENS[route.name];
    document.title = `${spec.title} · Reelhouse`;
    const ctx = {
      api, navigate, params: { id: route.id }, query: route.query, user: getUser(), scroller: container,
      openDetail: openDetailFrom,
    };
    screen = { key, url: route.url, instance: spec.render(root, ctx) };
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
    const context = { kind: saved?.kind ?? 'browse', query: new URLSearchParams(saved?.query ?? '') };
    const id = Number(route.id);
    detail = {
      id: route.id,
      sheet: openDetail(id, {
        api, navigate, context,
        // The sheet closed itself (Escape, its close button): go back to where it was opened.
        onClose: () => {
          if (detail?.id !== route.id) return;
          detail = null;
          if (history.state?.fromApp) history.back();
          else navigate(background, { replace: true });
        },
      }),
    };
  }

  return {
    show(route) {
      if (route.name === 'detail') { showDetail(route); return; }
      closeDetail();
      showBase({ ...route, url: location.pathname + location.search });
    },
    /** Signed out: every screen goes (the feed is stopped by the app). */
    clear() { closeDetail(); closeScreen(); container.hidden = true; },
  };
}
