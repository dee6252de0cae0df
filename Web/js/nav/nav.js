// The app's navigation: a bottom tab bar on phones, a side rail from 768 px up (the same
// links; CSS decides which). Feed, Discover, Search, Create (＋), Favorites and Profile, always
// all six: a tab that came and went with the first favorite made the bar reflow under the
// thumb. The tab of the current screen carries aria-current.
const ICONS = {
  feed: 'M4 3h16v18H4zm2 2v14h12V5zm3 3l7 4-7 4z',
  discover: 'M12 2a10 10 0 100 20 10 10 0 000-20zm4.2 5.8l-2.6 5.8-5.8 2.6 2.6-5.8zM12 11a1 1 0 100 2 1 1 0 000-2z',
  search: 'M10 3a7 7 0 015.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1110 3zm0 2a5 5 0 100 10 5 5 0 000-10z',
  create: 'M11 4h2v7h7v2h-7v7h-2v-7H4v-2h7z',
  favorites: 'M12 21s-7.5-4.6-9.6-9.3C.9 8.3 3 4.5 6.6 4.5c2.1 0 3.5 1.1 4.4 2.5.9-1.4 2.3-2.5 4.4-2.5 3.6 0 5.7 3.8 4.2 7.2C19.5 16.4 12 21 12 21z',
  profile: 'M12 3a4.5 4.5 0 110 9 4.5 4.5 0 010-9zm0 11c4.4 0 8 2.2 8 5v2H4v-2c0-2.8 3.6-5 8-5z',
};

const TABS = [
  { id: 'feed', label: 'Feed', href: '/' },
  { id: 'discover', label: 'Discover', href: '/discover' },
  { id: 'search', label: 'Search', href: '/search' },
  // Create is its own page (create.html): its camera and upload players stay off the shell.
  { id: 'create', label: 'Create', href: '/create.html' },
  { id: 'favorites', label: 'Favorites', href: '/favorites' },
  { id: 'profile', label: 'Profile', href: '/profile' },
];

/** Which tab a route belongs to (a shelf, a collection and Browse live under Discover). */
export function tabFor(routeName) {
  if (['shelf', 'collection', 'browse'].includes(routeName)) return 'discover';
  return TABS.some((tab) => tab.id === routeName) ? routeName : null;
}

function svg(path) {
  const ns = 'http://www.w3.org/2000/svg';
  const icon = document.createElementNS(ns, 'svg');
  icon.setAttribute('viewBox', '0 0 24 24');
  icon.setAttribute('aria-hidden', 'true');
  icon.setAttribute('class', 'nav-icon');
  const shape = document.createElementNS(ns, 'path');
  shape.setAttribute('d', path);
  icon.append(shape);
  return icon;
}

export function createNav(container) {
  const list = document.createElement('ul');
  const links = new Map();
  for (const tab of TABS) {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = tab.href;
    link.className = `nav-tab nav-${tab.id}`;
    link.dataset.tab = tab.id;
    const label = document.createElement('span');
    label.className = 'nav-label';
    label.textContent = tab.label;
    link.append(svg(ICONS[tab.id]), label);
    if (tab.id === 'create') link.setAttribute('aria-label', 'Create a post');
    item.append(link);
    list.append(item);
    links.set(tab.id, link);
  }
  container.replaceChildren(list);

  return {
    /** Marks the tab of `routeName` as the current page. */
    select(routeName) {
      const active = tabFor(routeName);
      for (const [id, link] of links) {
        if (id === active) link.setAttribute('aria-current', 'page');
        else link.removeAttribute('aria-current');
      }
    },
  };
}
