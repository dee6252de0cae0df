// The stories tray at the top of the feed and of Discover: `mountTray(root, { api, navigate, store })`
// → `{ refresh(), destroy() }`. One round avatar per person, the ring a gradient while they
// have something unseen and grey once all is seen; pages sideways through `next_cursor` as it
// scrolls; a pull down on touch screens (pull-refresh.js) and a button on desktop reload it.
// `pageSize` is the server's default (20) unless given. Opening a person goes to
// /stories/{user} with the tray's order, so the player plays on through the people after them.
import { h, useStylesheet } from '../ui/dom.js';
import { storiesApiFrom } from './stories-api.js';
import { wirePullToRefresh } from './pull-refresh.js';

const REFRESH_ICON = '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M17.7 6.3A8 8 0 1019.7 14h-2.1a6 6 0 11-1.4-6.2L13 11h7V4z"/></svg>';

function entryLabel(entry) {
  const state = entry.all_seen ? 'seen' : 'new stories';
  const count = `${entry.items_count} ${entry.items_count === 1 ? 'story' : 'stories'}`;
  return `${entry.is_me ? 'Your story' : entry.user}: ${count}, ${state}`;
}

function renderEntry(entry) {
  const picture = entry.avatar?.url
    ? h('img', { src: entry.avatar.url, alt: '', loading: 'lazy', decoding: 'async', width: 56, height: 56 })
    : h('span', { class: 'story-initial', 'aria-hidden': 'true' }, (entry.user[0] ?? '?').toUpperCase());
  return h('li', { class: 'story-entry' },
    h('a', {
      class: `story-ring ${entry.all_seen ? 'seen' : 'unseen'}`, href: `/stories/${encodeURIComponent(entry.user)}`,
      'aria-label': entryLabel(entry), dataset: { user: entry.user },
    },
    h('span', { class: 'story-avatar' }, picture),
    h('span', { class: 'story-name' }, entry.is_me ? 'Your story' : entry.user)));
}

export function mountTray(root, { api, navigate, store = null, pageSize }) {
  const styled = useStylesheet('/css/stories.css');
  const stories = storiesApiFrom(api);
  const list = h('ol', { class: 'stories-tray-list' });
  const sentinel = h('li', { class: 'stories-tray-sentinel', 'aria-hidden': 'true' });
  const refreshButton = h('button', { type: 'button', class: 'stories-tray-refresh', 'aria-label': 'Refresh stories', title: 'Refresh stories', innerHTML: REFRESH_ICON });
  const pull = h('div', { class: 'stories-tray-pull', 'aria-hidden': 'true', innerHTML: REFRESH_ICON });
  const tray = h('section', { class: 'stories-tray', 'aria-label': 'Stories', hidden: true }, pull, list, refreshButton);
  root.append(tray);

  let entries = [];
  let cursor = null;
  let generation = 0;
  let loading = null;
  let destroyed = false;

  function render(from) {
    sentinel.remove();
    list.append(...entries.slice(from).map(renderEntry));
    tray.hidden = entries.length === 0;
    if (!cursor) return;
    list.append(sentinel);
    // Observed afresh: a sentinel still in view after a page came in reports again (a
    // continuing intersection alone would not), so a wide row fills itself up.
    observer.unobserve(sentinel);
    observer.observe(sentinel);
  }

  async function loadPage({ reset }) {
    const mine = reset ? ++generation : generation;
    const page = await stories.tray({ cursor: reset ? undefined : cursor ?? undefined, limit: pageSize });
    await styled;   // round rings from the first frame, never bare squares first
    if (destroyed || mine !== generation) return;
    const before = reset ? 0 : entries.length;
    const known = new Set(reset ? [] : entries.map((entry) => entry.user));
    const fresh = (page.tray ?? []).filter((entry) => !known.has(entry.user));
    entries = reset ? fresh : entries.concat(fresh);
    cursor = page.next_cursor ?? null;
    // A refresh draws the rings anew: a ring that had the focus hands it to its successor.
    const focused = tray.contains(document.activeElement) ? document.activeElement.closest('a.story-ring')?.dataset.user : null;
    if (reset) list.replaceChildren();
    render(before);
    if (focused) list.querySelector(`a.story-ring[data-user="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
  }

  function loadMore() {
    if (loading || !cursor) return loading;
    loading = loadPage({ reset: false }).catch(() => {}).finally(() => { loading = null; });
    return loading;
  }

  async function refresh() {
    tray.setAttribute('aria-busy', 'true');
    tray.classList.add('refreshing');
    try {
      await loadPage({ reset: true });
    } catch {
      // Offline or refused: the tray keeps what it showed.
    } finally {
      tray.removeAttribute('aria-busy');
      tray.classList.remove('refreshing');
    }
  }

  // The sentinel after the last avatar comes into view: the next page.
  const observer = new IntersectionObserver((records) => {
    if (records.some((record) => record.isIntersecting)) loadMore();
  }, { root: list, rootMargin: '0px 200px 0px 0px' });

  list.addEventListener('click', (event) => {
    const link = event.target.closest('a.story-ring');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    const background = location.pathname + location.search;
    navigate(`/stories/${encodeURIComponent(link.dataset.user)}`, {
      state: { background, storiesPeople: entries.map((entry) => entry.user), storiesCursor: cursor },
    });
  });
  refreshButton.addEventListener('click', () => refresh());
  const unwirePull = wirePullToRefresh(tray, { indicator: pull, onRefresh: refresh });
  // The app's store: stories changed (a player closed, an item deleted, back online) or another
  // library was chosen. A tray mounted on its own (no store) refreshes by hand only.
  const unwatch = [store?.subscribe('storiesChanged', () => refresh()), store?.subscribe('library', () => refresh())];

  refresh();
  return {
    refresh,
    get element() { return tray; },
    destroy() {
      destroyed = true;
      observer.disconnect();
      unwirePull();
      unwatch.forEach((off) => off?.());
      tray.remove();
    },
  };
}
