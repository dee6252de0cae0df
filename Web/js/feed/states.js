// What the feed shows instead of reels: loading, an empty library, one being prepared
// (preparing.js), a filter with no match, or an error with a retry. Never a blank screen.
import { escapeHTML } from '../ui/format.js';

export function renderState(box, state, { onRetry, onClearFilter } = {}) {
  if (!state) { box.hidden = true; box.innerHTML = ''; return; }
  box.hidden = false;
  box.dataset.state = state.kind;
  if (state.kind === 'loading') {
    box.innerHTML = '<div class="spinner" role="status" aria-label="Loading"></div>';
  } else if (state.kind === 'empty') {
    box.innerHTML = `
      <h2>Your library is empty</h2>
      <p>Import a folder of clips on the server and they appear here:</p>
      <pre><code>reelhouse import ~/Downloads/reels</code></pre>
      <p>Videos, images and instaloader / yt-dlp downloads with their sidecars all work.</p>
      <button type="button" data-state-action="retry">Check again</button>`;
  } else if (state.kind === 'preparing') {
    const posts = state.pending === 1 ? '1 post is' : `${state.pending} posts are`;
    box.innerHTML = `
      <div class="spinner" aria-hidden="true"></div>
      <h2>Preparing your library</h2>
      <p role="status">${posts} being processed. Each one appears here as soon as it is ready.</p>`;
  } else if (state.kind === 'list-empty') {
    box.innerHTML = `
      <h2>Nothing to play here</h2>
      <p>${escapeHTML(state.label)} has no posts (any more).</p>
      <button type="button" data-state-action="clear">Back to the feed</button>`;
  } else if (state.kind === 'no-match') {
    box.innerHTML = `
      <h2>Nothing tagged #${escapeHTML(state.tag)}</h2>
      <p>No post in your library matches this filter.</p>
      <button type="button" data-state-action="clear">Show everything</button>`;
  } else {
    box.innerHTML = `
      <h2>${state.offline ? 'You are offline' : 'Something went wrong'}</h2>
      <p>${escapeHTML(state.message ?? 'The feed could not be loaded.')}</p>
      <button type="button" data-state-action="retry">Try again</button>`;
  }
  box.onclick = (event) => {
    const action = event.target.closest('[data-state-action]')?.dataset.stateAction;
    if (action === 'retry') onRetry?.();
    if (action === 'clear') onClearFilter?.();
  };
  box.querySelector('button')?.focus({ preventScroll: true });
}
