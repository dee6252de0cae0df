// The detail sheet: `openDetail(postId, { api, navigate, context, playback, store })` → `{ close() }`.
// A modal <dialog> (focus stays inside, Escape closes) at the bottom on phones and centred on
// wide screens (css/detail.css). While open the URL is /p/{id}: opening from a grid pushes it,
// closing goes back; the browser's back button closes it (popstate). A link inside (uploader,
// #tag, tag chip) closes the sheet and replaces /p/{id} with where it leads.
//
// The app's store (state/store.js) hears `postChanged` { item } after a favorite, rating or
// edit, and `postDeleted` { id } after a delete, so a grid drops the cover.
import { h, useStylesheet, revealWhenStyled, copyText } from '../ui/dom.js';
import { detailApi } from './detail-api.js';
import { renderDetail } from './detail-view.js';
import { postTitle } from '../grid/post-title.js';
import { openEditor, confirmDelete, openCollections, closePanel } from './owner-tools.js';
import { feedFromHereHref } from './linkify.js';
import { showToast } from '../ui/toast.js';
import { recordEvent } from '../events/index.js';
import { saveChange } from '../state/saves-in-order.js';

let openSheet = null;

export function openDetail(postId, { navigate, context = null, playback = null, store = null } = {}) {
  // A sheet opened on its own (no app around it: the tests) tells nobody.
  const announce = (key, value) => store?.set(key, value);
  const styled = useStylesheet('/css/detail.css');
  openSheet?.close({ silent: true });
  const id = Number(postId);
  const path = `/p/${id}`;
  const go = (href, options) => (navigate ? navigate(href, options) : location.assign(href));
  let pushed = false;
  if (location.pathname !== path) {
    history.pushState({ ...(history.state ?? {}), reelhouseDetail: id }, '', path);
    pushed = true;
  }

  const previousTitle = document.title;
  const body = h('div', { class: 'detail-content' }, h('p', { class: 'detail-status', role: 'status' }, 'Loading…'));
  const closeButton = h('button', { type: 'button', class: 'detail-close', 'aria-label': 'Close' }, '×');
  const dialog = h('dialog', { class: 'detail-sheet', 'aria-label': 'Post details' }, closeButton, body);
  revealWhenStyled(dialog, styled);
  document.body.append(dialog);
  dialog.showModal();
  closeButton.focus();

  let item = null;
  let isOwner = false;
  let watch = null;
  let closed = false;

  function close({ silent = false, viaHistory = false } = {}) {
    if (closed) return;
    closed = true;
    watch?.destroy();
    watch = null;
    window.removeEventListener('popstate', onPopState);
    dialog.close();
    dialog.remove();
    document.title = previousTitle;
    if (openSheet === sheet) openSheet = null;
    if (silent || viaHistory) return;
    // Pushed here, or pushed by a cover before a reload / forward (the shell keeps the grid's
    // URL in the entry's `background`): the grid is the entry before, so go back to it.
    if ((pushed || history.state?.background) && history.state?.reelhouseDetail === id) history.back();
    else if (location.pathname === path) go(context?.kind ? backHref() : '/discover', { replace: true });
  }

  /** Where a sheet opened from a deep link returns to: its grid when known, else Discover. */
  function backHref() {
    const query = context?.query ? `?${context.query}` : '';
    if (context.kind === 'search') return `/search${query}`;
    if (context.kind === 'favorites') return '/favorites';
    const params = new URLSearchParams(context.query ?? '');
    if (context.kind === 'shelf' && params.get('shelf')) return `/shelf/${encodeURIComponent(params.get('shelf'))}`;
    if (context.kind === 'collection' && params.get('collection')) return `/collection/${encodeURIComponent(params.get('collection'))}`;
    return `/browse${query}`;
  }

  function onPopState() {
    if (location.pathname !== path) close({ viaHistory: true });
  }
  window.addEventListener('popstate', onPopState);
  dialog.addEventListener('cancel', (event) => { event.preventDefault(); close(); });
  closeButton.addEventListener('click', () => close());
  // A tap on the backdrop (outside the sheet's box) closes it, as on every other sheet.
  dialog.addEventListener('click', (event) => {
    if (event.target !== dialog) return;
    const box = dialog.getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside) close();
  });

  function follow(href) {
    close({ silent: true });
    go(href, { replace: location.pathname === path });
  }

  function render() {
    const content = renderDetail(item, { isOwner });
    // A video playing in the header keeps playing: the old header moves into the new content.
    const playing = watch && body.querySelector('.detail-hero');
    if (playing) content.querySelector('.detail-hero').replaceWith(playing);
    body.replaceChildren(content);
    dialog.setAttribute('aria-labelledby', content.querySelector('.detail-title').id);
  }

  function changed(change) {
    Object.assign(item, change);
    render();
    announce('postChanged', { item });
  }

  /** Shows `change` at once and saves it; a refusal shows what the server has, with the saves
   * still in flight on top (state/saves-in-order.js). */
  function save(change, before, sent, saved, failure) {
    changed(change);
    return saveChange(id, { before, change }, sent, saved, (error, shown) => {
      changed(shown);
      showToast(error?.message ?? failure, { kind: 'error' });
    });
  }

  function toggleFavorite() {
    const before = Boolean(item.is_favorited);
    return save({ is_favorited: !before }, { is_favorited: before }, detailApi.setFavorite(id, !before),
      () => recordEvent(before ? 'unfavorite' : 'favorite', id), "Couldn't save the favorite.");
  }

  function rate(value) {
    const before = item.rating ?? 0;
    const next = before === value ? 0 : value;   // the same star again clears the rating
    return save({ rating: next }, { rating: before }, detailApi.setRating(id, next),
      () => recordEvent('rating', id, { value: next }), "Couldn't save the rating.");
  }

  let starting = false;
  /** The full player (js/watch/), on an element leased from the page's playback service. */
  async function play() {
    if (watch || starting) return;
    if (!playback) { showToast("The player isn't available on this page."); return; }
    starting = true;
    const { startWatch } = await import('../watch/index.js');
    starting = false;
    if (closed || watch) return;
    watch = startWatch(body.querySelector('.detail-hero'), { item, playback });
  }

  async function copyLink() {
    const url = new URL(path, location.origin).href;
    const copied = await copyText(url);
    showToast(copied ? 'Link copied.' : `Copy this link: ${url}`);
    recordEvent('share', id);
  }

  body.addEventListener('click', (event) => {
    const link = event.target.closest('a[data-internal]');
    if (link) { event.preventDefault(); follow(link.getAttribute('href')); return; }
    const button = event.target.closest('[data-action]');
    if (!button || !item) return;
    const panel = body.querySelector('.detail-panel');
    switch (button.dataset.action) {
      case 'play': play(); break;
      case 'feed-from-here': follow(feedFromHereHref(id, context)); break;
      case 'favorite': toggleFavorite(); break;
      case 'rate': rate(Number(button.dataset.value)); break;
      case 'copy-link': copyLink(); break;
      case 'download': recordEvent('download', id); break;   // the link downloads by itself
      case 'edit':
        openEditor(panel, item, {
          save: (change) => detailApi.edit(id, change),
          onSaved: (edited) => { changed(edited); showToast('Saved.'); },
        });
        break;
      case 'delete':
        confirmDelete(panel, {
          remove: () => detailApi.remove(id),
          onDeleted: () => { announce('postDeleted', { id }); showToast('Post deleted.'); close(); },
        });
        break;
      case 'collections':
        if (!panel.hidden) { closePanel(panel); break; }
        openCollections(panel, item, {
          list: () => detailApi.collections(),
          add: (collectionId) => detailApi.addToCollection(collectionId, id),
          create: (name) => detailApi.createCollection(name, [id]),
          onChanged: (collection) => { item.collections = [...(item.collections ?? []), collection]; },
        });
        break;
      default: break;
    }
  });

  Promise.all([detailApi.video(id), detailApi.me().catch(() => null)]).then(([video, me]) => {
    if (closed) return;
    item = video;
    isOwner = me?.role === 'owner';
    render();
    document.title = `${postTitle(item)} · Reelhouse`;
  }, (error) => {
    if (closed) return;
    body.replaceChildren(h('p', { class: 'detail-status', role: 'alert' },
      error?.status === 404 ? 'This post does not exist (or is not in a library you can see).' : (error?.message ?? "Couldn't load this post.")));
  });

  const sheet = { close: () => close(), get postId() { return id; } };
  openSheet = sheet;
  return sheet;
}
