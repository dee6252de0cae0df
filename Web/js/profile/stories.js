// "Your stories" on Profile: your own story items, live and expired (GET /api/v1/stories/archive,
// newest first, paged), each a small poster labelled live / expired / kept with its date, and
// Keep as post / Delete (asked first) as in the player's ⋯ menu.
import { h, useStylesheet } from '../ui/dom.js';
import { formatDate } from '../ui/format.js';
import { storiesOwnerApi, isExpired } from '../stories/owner-api.js';

const PAGE_SIZE = 24;

function labelOf(item) {
  if (item.kept) return 'kept';
  return isExpired(item) ? 'expired' : 'live';
}

export function storiesSection({ owner = storiesOwnerApi } = {}) {
  useStylesheet('/css/stories-owner.css');
  const grid = h('ul', { class: 'profile-stories-grid', 'aria-label': 'Your story items' });
  const status = h('p', { class: 'profile-status', role: 'status' }, 'Loading…');
  const more = h('button', { type: 'button', class: 'profile-stories-more', hidden: true }, 'Show more');
  let cursor;   // undefined: first page; null: no more

  function card(item) {
    const label = labelOf(item);
    const picture = item.media?.poster?.url ?? item.media?.thumbnail?.url ?? null;
    const badge = h('span', { class: `profile-story-label ${label}` }, label);
    const keep = h('button', { type: 'button', 'data-action': 'keep', disabled: Boolean(item.kept) }, item.kept ? 'Kept' : 'Keep');
    const remove = h('button', { type: 'button', class: 'danger', 'data-action': 'delete' }, 'Delete');
    const actions = h('div', { class: 'profile-story-actions' }, keep, remove);
    const when = formatDate(item.posted_at);
    const entry = h('li', { class: 'profile-story', dataset: { itemId: String(item.id), state: label } },
      h('div', { class: 'profile-story-poster' },
        picture ? h('img', { src: picture, alt: item.caption ? `Story: ${item.caption}` : `Story from ${when}`, loading: 'lazy', decoding: 'async' }) : null,
        badge),
      h('time', { class: 'profile-story-date', dateTime: item.posted_at ?? '' }, when),
      actions);

    keep.addEventListener('click', async () => {
      keep.disabled = true;
      try {
        await owner.keep(item.id);
        item.kept = true;
        keep.textContent = 'Kept';
        badge.textContent = 'kept';
        badge.className = 'profile-story-label kept';
        entry.dataset.state = 'kept';
        status.textContent = 'Kept as a post: it stays in your library.';
      } catch (error) {
        keep.disabled = false;
        status.textContent = error?.message ?? "Couldn't keep it.";
      }
    });
    remove.addEventListener('click', () => {
      const confirm = h('div', { class: 'profile-confirm', role: 'group', 'aria-label': 'Delete this story?' },
        'Delete this story? ',
        h('button', { type: 'button', class: 'danger', 'data-action': 'confirm-delete', onclick: async (event) => {
          event.currentTarget.disabled = true;
          try {
            await owner.remove(item.id);
            entry.remove();
            status.textContent = 'Story deleted.';
            if (!grid.children.length && cursor === null) status.textContent = 'No stories yet.';
          } catch (error) {
            status.textContent = error?.message ?? "Couldn't delete it.";
            event.target.disabled = false;
          }
        } }, 'Delete'),
        h('button', { type: 'button', 'data-action': 'cancel', onclick: () => { confirm.remove(); actions.hidden = false; remove.focus(); } }, 'Cancel'));
      actions.hidden = true;
      entry.append(confirm);
      confirm.querySelector('button').focus();
    });
    return entry;
  }

  async function load() {
    if (cursor === null) return;
    more.disabled = true;
    try {
      const page = await owner.archive({ cursor, limit: PAGE_SIZE });
      grid.append(...(page.items ?? []).map(card));
      cursor = page.next_cursor ?? null;
      status.textContent = grid.children.length ? '' : 'No stories yet. Post one from Create and choose “Your story”.';
    } catch (error) {
      status.textContent = error?.status === 404 ? 'Stories are not available on this server yet.' : (error?.message ?? "Couldn't load your stories.");
    } finally {
      more.disabled = false;
      more.hidden = cursor === null;
    }
  }
  more.addEventListener('click', load);
  load();
  return h('section', { class: 'profile-card profile-stories', 'aria-labelledby': 'profile-stories-title' },
    h('h2', { id: 'profile-stories-title' }, 'Your stories'),
    h('p', { class: 'profile-muted' }, 'Live and expired ones. Keep one as a post to have it in your library for good.'),
    status, grid, more);
}
