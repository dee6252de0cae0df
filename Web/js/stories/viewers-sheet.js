// Who saw one of your story items: a sheet over the bottom of the stage, newest viewer first,
// paged through `next_cursor` (a "Show more" button that also presses itself when it scrolls
// into view). Closes with its × button, Escape, or a swipe down on its header; `onClose` runs
// once. The player stays paused while it is open (the owner bar's job).
import { h } from '../ui/dom.js';
import { icon } from '../ui/icons.js';
import { ago } from './player-view.js';

const CLOSE_ICON = '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M18.3 5.7L12 12l6.3 6.3-1.4 1.4L10.6 13.4 4.3 19.7 2.9 18.3 9.2 12 2.9 5.7 4.3 4.3l6.3 6.3 6.3-6.3z"/></svg>';
const SWIPE_CLOSE_PX = 60;
const PAGE_SIZE = 30;

function viewerRow(viewer) {
  return h('li', { class: 'story-viewer', dataset: { user: viewer.user } },
    h('span', { class: 'story-viewer-initial', 'aria-hidden': 'true' }, (viewer.user[0] ?? '?').toUpperCase()),
    h('span', { class: 'story-viewer-name' }, viewer.user),
    h('time', { class: 'story-viewer-when', dateTime: viewer.seen_at ?? '' }, ago(viewer.seen_at)),
    viewer.liked ? h('span', { class: 'story-viewer-liked', role: 'img', 'aria-label': 'liked it', innerHTML: icon('heart') }) : null);
}

export function openViewersSheet(host, { owner, item, onClose = () => {} }) {
  const title = h('h2', { class: 'story-viewers-title', id: `story-viewers-${item.id}` }, 'Viewers');
  const counts = h('p', { class: 'story-viewers-counts' }, `${item.view_count ?? 0} seen · ${item.like_count ?? 0} liked`);
  const closeButton = h('button', { type: 'button', class: 'story-viewers-close', 'aria-label': 'Close viewers', innerHTML: CLOSE_ICON });
  const header = h('div', { class: 'story-viewers-head' }, h('span', { class: 'story-viewers-grabber', 'aria-hidden': 'true' }), title, counts, closeButton);
  const list = h('ul', { class: 'story-viewers-list', 'aria-labelledby': title.id });
  const status = h('p', { class: 'story-viewers-status', role: 'status' }, 'Loading…');
  const more = h('button', { type: 'button', class: 'story-viewers-more', hidden: true }, 'Show more');
  const body = h('div', { class: 'story-viewers-body' }, list, status, more);
  const sheet = h('section', { class: 'story-viewers', role: 'dialog', 'aria-labelledby': title.id }, header, body);
  host.append(sheet);

  let cursor;            // undefined: the first page; null: no more
  let loading = false;
  let closed = false;
  const abort = new AbortController();

  async function load() {
    if (loading || cursor === null || closed) return;
    loading = true;
    more.disabled = true;
    try {
      const page = await owner.viewers(item.id, { cursor, limit: PAGE_SIZE, signal: abort.signal });
      if (closed) return;
      list.append(...(page.viewers ?? []).map(viewerRow));
      cursor = page.next_cursor ?? null;
      status.textContent = list.children.length ? '' : 'No one has seen it yet.';
    } catch (error) {
      if (closed) return;
      status.textContent = error?.message ?? "Couldn't load the viewers.";
    } finally {
      loading = false;
      more.disabled = false;
      more.hidden = cursor === null || closed;
    }
  }

  const observer = new IntersectionObserver((records) => {
    if (records.some((record) => record.isIntersecting)) load();
  }, { root: body });
  observer.observe(more);

  // A swipe down on the header closes it (the list itself keeps its own scrolling).
  let drag = null;
  header.addEventListener('pointerdown', (event) => {
    if (event.target.closest('button')) return;
    drag = { id: event.pointerId, y: event.clientY };
    // A touch is held by its target already; capturing it too left Chrome eating the next tap.
    if (event.pointerType === 'mouse') header.setPointerCapture?.(event.pointerId);
  });
  header.addEventListener('pointermove', (event) => {
    if (drag?.id !== event.pointerId) return;
    sheet.style.transform = `translateY(${Math.max(0, event.clientY - drag.y)}px)`;
  });
  const endDrag = (event) => {
    if (drag?.id !== event.pointerId) return;
    const dy = event.clientY - drag.y;
    drag = null;
    sheet.style.transform = '';
    if (event.type === 'pointerup' && dy > SWIPE_CLOSE_PX) close();
  };
  header.addEventListener('pointerup', endDrag);
  header.addEventListener('pointercancel', endDrag);
  // Taps inside the sheet are not the stage's (no skipping to the next item under it).
  sheet.addEventListener('pointerdown', (event) => event.stopPropagation());
  closeButton.addEventListener('click', () => close());
  more.addEventListener('click', () => load());

  function close() {
    if (closed) return;
    closed = true;
    abort.abort();
    observer.disconnect();
    sheet.remove();
    onClose();
  }

  load();
  closeButton.focus({ preventScroll: true });
  return { close, element: sheet };
}
