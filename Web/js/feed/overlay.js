// The overlay of one reel: who posted it, what it says, tags, and the like / rating / info /
// picture-in-picture / sound controls, and the ⋯ panel (more-menu.js). For You items say why
// they were chosen (`reason`, e.g. "because you liked “…”"); other modes send none.
// Buttons carry data-action; the feed handles them.
import { icon } from '../ui/icons.js';
import { byline, escapeHTML, formatDate } from '../ui/format.js';
import { moreButtonHTML, morePanelHTML } from './more-menu.js';

export function overlayHTML(item) {
  const infoId = `info-${item.id}`;
  const tags = (item.tags ?? []).map((tag) =>
    `<li><button type="button" class="chip" data-action="tag" data-tag="${escapeHTML(tag.name)}">#${escapeHTML(tag.name)}</button></li>`).join('');
  const isVideo = item.kind === 'video';
  return `
    <div class="overlay">
      <div class="meta">
        ${item.reason ? `<p class="reason" data-reason-kind="${escapeHTML(item.reason_kind ?? '')}">${escapeHTML(item.reason)}</p>` : ''}
        <p class="username">${escapeHTML(byline(item))}</p>
        ${item.description ? `<button type="button" class="description" data-action="expand" aria-expanded="false">${escapeHTML(item.description)}</button>` : ''}
        ${tags ? `<ul class="tags" aria-label="Tags">${tags}</ul>` : ''}
        <dl class="info" id="${infoId}" hidden>
          <dt>Folder</dt><dd>${escapeHTML(item.folder_name ?? '—')}</dd>
          <dt>Shortcode</dt><dd>${escapeHTML(item.shortcode ?? '—')}</dd>
          <dt>Posted</dt><dd>${formatDate(item.date_posted)}</dd>
          <dt>Uploader</dt><dd>${escapeHTML(item.uploader ?? '—')}</dd>
          <dt>Username</dt><dd>${escapeHTML(item.username ?? '—')}</dd>
          <dt>Added</dt><dd>${formatDate(item.date_added)}</dd>
          ${item.reason ? `<dt>Why</dt><dd>${escapeHTML(item.reason)}</dd>` : ''}
        </dl>
      </div>
      <div class="actions">
        <button type="button" class="action like" data-action="like" aria-pressed="false" aria-label="Like">${icon('heart')}</button>
        <div class="rating" role="group" aria-label="Rating">
          ${[1, 2, 3, 4, 5].map((value) =>
            `<button type="button" class="star" data-action="rate" data-value="${value}" aria-pressed="false" aria-label="Rate ${value} of 5">${icon('star')}</button>`).join('')}
        </div>
        <button type="button" class="action" data-action="info" aria-expanded="false" aria-controls="${infoId}" aria-label="Details">${icon('info')}</button>
        ${isVideo ? `<button type="button" class="action mute" data-action="mute" aria-label="Sound">${icon('soundOff', 'icon off')}${icon('soundOn', 'icon on')}</button>` : ''}
        ${isVideo && item.captions?.length ? `<button type="button" class="action captions" data-action="captions" aria-pressed="false" aria-label="Captions off" title="Captions off"><span class="cc" aria-hidden="true">CC</span><span class="cc-language" aria-hidden="true"></span></button>` : ''}
        ${isVideo && document.pictureInPictureEnabled ? `<button type="button" class="action" data-action="pip" aria-label="Picture in picture">${icon('pip')}</button>` : ''}
        ${moreButtonHTML(item)}
      </div>
      ${morePanelHTML(item)}
    </div>`;
}

/** Reflects the item's like and rating in its overlay (after a change or a rollback). */
export function renderSocial(element, item) {
  const like = element.querySelector('.like');
  like.setAttribute('aria-pressed', String(Boolean(item.is_favorited)));
  like.setAttribute('aria-label', item.is_favorited ? 'Unlike' : 'Like');
  for (const star of element.querySelectorAll('.star')) {
    star.setAttribute('aria-pressed', String(Number(star.dataset.value) <= (item.rating ?? 0)));
  }
  element.querySelector('.rating').dataset.rating = String(item.rating ?? 0);
}

export function toggleInfo(element) {
  const button = element.querySelector('[data-action="info"]');
  const panel = element.querySelector('.info');
  panel.hidden = !panel.hidden;
  button.setAttribute('aria-expanded', String(!panel.hidden));
}

export function toggleDescription(button) {
  const expanded = button.getAttribute('aria-expanded') !== 'true';
  button.setAttribute('aria-expanded', String(expanded));
}
