// What the person hid from For You: posts marked "Not interested" (GET /api/v1/me/not-interested,
// paged; Undo → DELETE …/{id}) and uploaders hidden with "Hide posts from NAME"
// (GET /api/v1/me/hidden-uploaders; Unhide → DELETE …/{name}, percent-encoded).
import { h } from '../ui/dom.js';
import { formatDate } from '../ui/format.js';
import { historyApi } from './profile-api.js';
import { postRow, pagedList } from './post-row.js';

const PAGE_SIZE = 20;

export function notInterestedSection({ openDetail, api = historyApi } = {}) {
  const rows = pagedList({
    label: 'Posts you are not interested in',
    load: ({ cursor }) => api.notInterested({ cursor, limit: PAGE_SIZE }),
    empty: 'Nothing here. Use “Not interested” in a post’s ⋯ menu to see less like it.',
    unavailable: 'Not interested is not available on this server yet.',
    row: (entry) => {
      const undo = h('button', { type: 'button', 'data-action': 'undo-not-interested' }, 'Undo');
      const item = postRow({ postId: entry.post_id, video: entry.video, facts: `hidden ${formatDate(entry.at)}`, buttons: [undo], openDetail });
      undo.setAttribute('aria-label', `Undo not interested: ${item.querySelector('.post-row-title').textContent}`);
      undo.addEventListener('click', async () => {
        undo.disabled = true;
        try {
          await api.undoNotInterested(entry.post_id);
          item.remove();
          rows.removed('It can show up in your feed again.');
        } catch (error) {
          undo.disabled = false;
          rows.status.textContent = error?.message ?? "Couldn't undo it.";
        }
      });
      return item;
    },
  });
  return h('section', { class: 'profile-card profile-not-interested', 'aria-labelledby': 'profile-not-interested-title' },
    h('h2', { id: 'profile-not-interested-title' }, 'Not interested'),
    rows.status, rows.list, rows.more);
}

export function hiddenUploadersSection({ api = historyApi } = {}) {
  const list = h('ul', { class: 'post-rows', 'aria-label': 'Hidden uploaders' });
  const status = h('p', { class: 'profile-status', role: 'status' }, 'Loading…');
  const empty = 'No hidden uploaders. “Hide posts from …” in a post’s ⋯ menu adds one.';

  function row({ uploader, at }) {
    const unhide = h('button', { type: 'button', 'data-action': 'unhide', 'aria-label': `Unhide ${uploader}` }, 'Unhide');
    const item = h('li', { class: 'post-row', dataset: { uploader } },
      h('span', { class: 'post-row-text' }, h('span', { class: 'post-row-title' }, uploader), h('small', {}, `hidden ${formatDate(at)}`)),
      h('span', { class: 'post-row-actions' }, unhide));
    unhide.addEventListener('click', async () => {
      unhide.disabled = true;
      try {
        await api.unhideUploader(uploader);
        item.remove();
        status.textContent = list.children.length ? `Posts from ${uploader} show again.` : empty;
      } catch (error) {
        unhide.disabled = false;
        status.textContent = error?.message ?? "Couldn't unhide it.";
      }
    });
    return item;
  }

  api.hiddenUploaders().then((answer) => {
    const uploaders = answer?.uploaders ?? [];
    list.replaceChildren(...uploaders.map(row));
    status.textContent = uploaders.length ? '' : empty;
  }, (error) => {
    status.textContent = error?.status === 404 ? 'Hidden uploaders are not available on this server yet.' : (error?.message ?? "Couldn't load them.");
  });
  return h('section', { class: 'profile-card profile-hidden-uploaders', 'aria-labelledby': 'profile-hidden-uploaders-title' },
    h('h2', { id: 'profile-hidden-uploaders-title' }, 'Hidden uploaders'),
    status, list);
}
