// Stand-in for the detail sheet (webdetail's js/detail/ replaces this module): a small dialog
// that names the post and offers "Play in feed from here". Same signature as the real one:
// openDetail(postId, { api, navigate, context, onClose }) → { close() }.
import { playInFeedURL } from '../feed/list-source.js';
import { postTitle } from '../grid/post-title.js';

export function openDetail(postId, { api, navigate, context, onClose }) {
  const dialog = document.createElement('dialog');
  dialog.className = 'detail-placeholder';
  dialog.setAttribute('aria-label', 'Post');
  const heading = document.createElement('h2');
  heading.textContent = 'Loading…';
  const play = document.createElement('button');
  play.type = 'button';
  play.className = 'primary';
  play.textContent = 'Play in feed from here';
  play.addEventListener('click', () => { closed = true; dialog.close(); dialog.remove(); navigate(playInFeedURL(context, postId)); });
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'Close';
  close.addEventListener('click', () => dialog.close());
  const actions = document.createElement('div');
  actions.className = 'button-row';
  actions.append(play, close);
  dialog.append(heading, actions);
  document.body.append(dialog);
  dialog.showModal();
  let closed = false;
  dialog.addEventListener('close', () => { dialog.remove(); if (!closed) { closed = true; onClose?.(); } });
  api.video(postId).then((item) => { heading.textContent = postTitle(item); }, () => { heading.textContent = `Post ${postId}`; });
  return {
    close() { closed = true; if (dialog.open) dialog.close(); dialog.remove(); },
  };
}
