// One post in a Profile list (watch history, not interested): its thumbnail and title as a
// link that opens the post, a line of facts, and the row's own buttons. A post no longer
// visible (deleted, or its library no longer shared) is named by its id, without a link.
import { h } from '../ui/dom.js';
import { postTitle } from '../grid/post-title.js';

export function postRow({ postId, video, facts, buttons, openDetail }) {
  const title = video ? postTitle(video) : `Post ${postId} (no longer available)`;
  const picture = video?.media?.thumbnail?.url ?? video?.media?.poster?.url ?? null;
  const thumb = h('span', { class: 'post-row-thumb', 'aria-hidden': 'true' },
    picture ? h('img', { src: picture, alt: '', loading: 'lazy', decoding: 'async' }) : null);
  const label = h('span', { class: 'post-row-text' }, h('span', { class: 'post-row-title' }, title), h('small', {}, facts));
  const link = video
    ? h('a', { class: 'post-row-link', href: `/p/${postId}`, onclick: (event) => {
      if (!openDetail || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      openDetail(postId, { kind: 'profile' });
    } }, thumb, label)
    : h('span', { class: 'post-row-link' }, thumb, label);
  return h('li', { class: 'post-row', dataset: { postId: String(postId) } }, link, h('span', { class: 'post-row-actions' }, buttons));
}

/**
 * A paged list ({ items, next_cursor }) with a "Show more" button and a status line:
 * `load({ cursor })` fetches a page, `row(item)` makes its <li>, `empty` is said when nothing is there.
 */
export function pagedList({ label, load, row, empty, unavailable }) {
  const list = h('ul', { class: 'post-rows', 'aria-label': label });
  const status = h('p', { class: 'profile-status', role: 'status' }, 'Loading…');
  const more = h('button', { type: 'button', class: 'post-rows-more', hidden: true }, 'Show more');
  let cursor;   // undefined: first page; null: no more

  function showEmpty() { if (!list.children.length && cursor === null) status.textContent = empty; }

  async function next() {
    if (cursor === null) return;
    more.disabled = true;
    try {
      const page = await load({ cursor });
      list.append(...(page.items ?? []).map(row));
      cursor = page.next_cursor ?? null;
      status.textContent = '';
      showEmpty();
    } catch (error) {
      status.textContent = error?.status === 404 ? unavailable : (error?.message ?? "Couldn't load this list.");
    } finally {
      more.disabled = false;
      more.hidden = cursor === null || cursor === undefined;
    }
  }
  more.addEventListener('click', next);
  next();

  return {
    list, status, more,
    /** After a row left: say so when the list is empty now. */
    removed(message) { status.textContent = message; showEmpty(); },
    reset() { list.replaceChildren(); cursor = undefined; next(); },
  };
}
