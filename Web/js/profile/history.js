// Watch history on Profile (GET /api/v1/me/history, newest first, paged): each post opens its
// detail sheet; "Remove" forgets one post (DELETE /api/v1/me/history/{id}); "Clear history",
// asked first, forgets them all (DELETE /api/v1/me/history) — For You starts over from there.
import { h } from '../ui/dom.js';
import { formatDate } from '../ui/format.js';
import { historyApi } from './profile-api.js';
import { postRow, pagedList } from './post-row.js';

const PAGE_SIZE = 20;

function watchedFacts(entry) {
  const views = entry.views ?? 0;
  const parts = [`watched ${formatDate(entry.watched_at)}`];
  if (views) parts.push(`${views} view${views === 1 ? '' : 's'}`);
  if (entry.skips) parts.push(`${entry.skips} skip${entry.skips === 1 ? '' : 's'}`);
  return parts.join(' · ');
}

export function historySection({ openDetail, api = historyApi } = {}) {
  const clear = h('button', { type: 'button', class: 'danger', 'data-action': 'clear-history' }, 'Clear history');
  const confirm = h('div', { class: 'profile-confirm', role: 'group', 'aria-label': 'Clear your watch history?', hidden: true },
    h('p', {}, 'Clear your whole watch history? For You forgets what you watched and liked (hidden posts stay hidden).'),
    h('button', { type: 'button', class: 'danger', 'data-action': 'confirm-clear' }, 'Clear history'),
    h('button', { type: 'button', 'data-action': 'cancel' }, 'Cancel'));

  const rows = pagedList({
    label: 'Watch history',
    load: ({ cursor }) => api.history({ cursor, limit: PAGE_SIZE }),
    empty: 'Nothing watched yet.',
    unavailable: 'Watch history is not available on this server yet.',
    row: (entry) => {
      const remove = h('button', { type: 'button', 'data-action': 'forget' }, 'Remove');
      const item = postRow({ postId: entry.post_id, video: entry.video, facts: watchedFacts(entry), buttons: [remove], openDetail });
      remove.setAttribute('aria-label', `Remove from history: ${item.querySelector('.post-row-title').textContent}`);
      remove.addEventListener('click', async () => {
        remove.disabled = true;
        try {
          await api.forget(entry.post_id);
          item.remove();
          rows.removed('Removed from your history.');
        } catch (error) {
          remove.disabled = false;
          rows.status.textContent = error?.message ?? "Couldn't remove it.";
        }
      });
      return item;
    },
  });

  function setConfirming(on) {
    confirm.hidden = !on;
    clear.hidden = on;
    (on ? confirm.querySelector('[data-action=cancel]') : clear).focus();
  }
  clear.addEventListener('click', () => setConfirming(true));
  confirm.querySelector('[data-action=cancel]').addEventListener('click', () => setConfirming(false));
  confirm.querySelector('[data-action=confirm-clear]').addEventListener('click', async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      await api.clearHistory();
      rows.list.replaceChildren();
      rows.more.hidden = true;
      rows.status.textContent = 'History cleared.';
      setConfirming(false);
    } catch (error) {
      rows.status.textContent = error?.message ?? "Couldn't clear the history.";
    } finally {
      button.disabled = false;
    }
  });

  return h('section', { class: 'profile-card profile-history', 'aria-labelledby': 'profile-history-title' },
    h('h2', { id: 'profile-history-title' }, 'Watch history'),
    h('p', { class: 'profile-muted' }, 'What For You learns from. Remove a post, or clear it all.'),
    h('div', { class: 'profile-row' }, clear), confirm, rows.status, rows.list, rows.more);
}
