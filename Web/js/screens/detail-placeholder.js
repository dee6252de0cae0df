// Stand-in for the detail sheet (webdetail's js/detail/ replaces this module): a small dialog
// that names the post and offers "Play in feed from here". Same contract as the real one:
// openDetail(postId, { api, navigate, context }) → { close() }; it pushes /p/{id} itself when
// the URL is not there yet (copying history.state), and goes back when closed.
import { playInFeedURL } from '../feed/list-source.js';
import { postTitle } from '../grid/post-title.js';

export function openDetail(postId, { api, navigate, context }) {
  const path = `/p/${postId}`;
  let pushed = false;
  if (location.pathname !== path) {
    history.pushState({ ...(history.state ?? {}), reelhouseDetail: postId }, '', path);
    pushed = true;
  }
  const dialog = document.createElement('dialog');
  dialog.className = 'detail-placeholder';
  dialog.setAttribute('aria-label', 'Post');
  const heading = document.createElement('h2');
  heading.textContent = 'Loading…';
  const play = document.createElement('button');
  play.type = 'button';
  play.className = 'primary';
  play.textContent = 'Play in feed from here';
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'Close';
  const actions = document.createElement('div');
  actions.className = 'button-row';
  actions.append(play, close);
  dialog.append(heading, actions);
  document.body.append(dialog);
  dialog.showModal();
  let closed = false;

  function finish({ leave = true } = {}) {
    if (closed) return;
    closed = true;
    window.removeEventListener('popstate', onPopState);
    if (dialog.open) dialog.close();
    dialog.remove();
    if (!leave || location.pathname !== path) return;
    if (pushed && history.state?.reelhouseDetail === postId) history.back();
    else navigate(history.state?.background ?? '/discover', { replace: true });
  }
  function onPopState() { if (location.pathname !== path) finish({ leave: false }); }
  window.addEventListener('popstate', onPopState);
  dialog.addEventListener('cancel', (event) => { event.preventDefault(); finish(); });
  close.addEventListener('click', () => finish());
  play.addEventListener('click', () => { finish({ leave: false }); navigate(playInFeedURL(context, postId), { replace: true }); });
  api.video(postId).then((item) => { heading.textContent = postTitle(item); }, () => { heading.textContent = `Post ${postId}`; });
  return { close: () => finish({ leave: false }) };
}
