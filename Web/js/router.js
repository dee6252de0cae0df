// The app's URLs (docs/catalog-api.md, "Web routes") on the History API. The server answers
// each of these paths with the shell, so a reload or a shared link lands where it points;
// here they become a route ({ name, id }) and the screen host shows it.

const ROUTES = [
  ['feed', /^\/$/],
  ['discover', /^\/discover$/],
  ['browse', /^\/browse$/],
  ['search', /^\/search$/],
  ['favorites', /^\/favorites$/],
  ['profile', /^\/profile$/],
  ['create', /^\/create$/],
  ['detail', /^\/p\/(\d+)$/],
  ['shelf', /^\/shelf\/([A-Za-z0-9-]{1,80})$/],
  ['collection', /^\/collection\/(\d+)$/],
  // A person's stories: the player opens over the screen it came from (js/stories/).
  ['stories', /^\/stories\/([^/]{1,100})$/],
];

/** `{ name, id }` for a path, or null when it is none of the app's. */
export function matchRoute(pathname) {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const [name, pattern] of ROUTES) {
    const match = pattern.exec(path);
    if (match) return { name, id: match[1] ?? null };
  }
  return null;
}

/** The current location as a route with its query (a path of ours or the feed). */
export function currentRoute() {
  const route = matchRoute(location.pathname) ?? { name: 'feed', id: null, unknown: true };
  return { ...route, path: location.pathname, query: new URLSearchParams(location.search), state: history.state ?? {} };
}

/**
 * Starts listening: back/forward and clicks on links to our own routes call `onRoute`.
 * `navigate(url, { replace, state })` pushes (or replaces) an entry and shows it.
 */
export function createRouter({ onRoute }) {
  const emit = () => onRoute(currentRoute());

  function navigate(url, { replace = false, state = {} } = {}) {
    const target = new URL(url, location.href);
    const same = target.pathname + target.search === location.pathname + location.search;
    if (replace || same) history.replaceState(state, '', target);
    else history.pushState(state, '', target);
    emit();
  }

  window.addEventListener('popstate', emit);
  // Plain left clicks on links to our routes stay in the page; new tabs, downloads and other
  // origins keep the browser's behaviour.
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target.closest?.('a[href]');
    if (!link || link.target || link.hasAttribute('download')) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || !matchRoute(url.pathname)) return;
    event.preventDefault();
    navigate(url.pathname + url.search, { state: link.dataset.replace ? history.state ?? {} : {}, replace: Boolean(link.dataset.replace) });
  });

  return { navigate, start: emit };
}
