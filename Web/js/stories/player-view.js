// The story player's DOM: a modal <dialog> (focus stays inside; Escape closes) holding the
// stage (media, progress, header, like), the person arrows on wide screens, and a live region.
import { h } from '../ui/dom.js';
import { icon } from '../ui/icons.js';

const CLOSE_ICON = '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M18.3 5.7L12 12l6.3 6.3-1.4 1.4L10.6 13.4 4.3 19.7 2.9 18.3 9.2 12 2.9 5.7 4.3 4.3l6.3 6.3 6.3-6.3z"/></svg>';

export function buildPlayerView() {
  const progress = h('div', { class: 'stories-progress' });
  const avatar = h('img', { class: 'stories-avatar', alt: '', width: 32, height: 32 });
  const name = h('span', { class: 'stories-user' });
  const when = h('time', { class: 'stories-when' });
  const pauseButton = h('button', { type: 'button', class: 'stories-pause', 'aria-label': 'Pause', title: 'Pause (Space)', innerHTML: icon('pause') });
  const soundButton = h('button', { type: 'button', class: 'stories-sound', 'aria-label': 'Turn sound on', 'aria-pressed': 'false', innerHTML: icon('soundOff') });
  const closeButton = h('button', { type: 'button', class: 'stories-close', 'aria-label': 'Close stories', title: 'Close (Esc)', innerHTML: CLOSE_ICON });
  const caption = h('p', { class: 'stories-caption' });
  const credit = h('a', { class: 'stories-credit', target: '_blank', rel: 'noopener noreferrer', hidden: true });
  const likeButton = h('button', { type: 'button', class: 'stories-like', 'aria-label': 'Like', 'aria-pressed': 'false', innerHTML: icon('heart') });
  const media = h('div', { class: 'stories-media' });
  const spinner = h('div', { class: 'stories-spinner', role: 'status', 'aria-label': 'Loading', hidden: true });
  const message = h('p', { class: 'stories-message', hidden: true });
  const burst = h('div', { class: 'stories-burst', 'aria-hidden': 'true', innerHTML: icon('heart') });
  const chrome = h('div', { class: 'stories-chrome' },
    progress,
    h('div', { class: 'stories-head' }, avatar, h('span', { class: 'stories-who' }, name, when), pauseButton, soundButton, closeButton),
    h('div', { class: 'stories-foot' }, h('div', { class: 'stories-text' }, caption, credit), likeButton));
  const stage = h('div', { class: 'stories-stage', tabindex: '-1' }, media, spinner, message, burst, chrome);
  const frame = h('div', { class: 'stories-frame' }, stage);
  const previousPerson = h('button', { type: 'button', class: 'stories-person stories-person-prev', 'aria-label': 'Previous person', innerHTML: icon('chevronLeft') });
  const nextPerson = h('button', { type: 'button', class: 'stories-person stories-person-next', 'aria-label': 'Next person', innerHTML: icon('chevronRight') });
  const live = h('p', { class: 'visually-hidden', 'aria-live': 'polite' });
  const dialog = h('dialog', { class: 'stories-player', 'aria-label': 'Stories' }, previousPerson, frame, nextPerson, live);

  return {
    dialog, frame, stage, media, progress, spinner, message, burst, chrome, avatar, name, when, caption, credit, live,
    pauseButton, soundButton, closeButton, likeButton, previousPerson, nextPerson,
    setSound(on) {
      soundButton.innerHTML = icon(on ? 'soundOn' : 'soundOff');
      soundButton.setAttribute('aria-label', on ? 'Turn sound off' : 'Turn sound on');
      soundButton.setAttribute('aria-pressed', String(on));
    },
    setPaused(on) {
      pauseButton.innerHTML = icon(on ? 'play' : 'pause');
      pauseButton.setAttribute('aria-label', on ? 'Play' : 'Pause');
      dialog.classList.toggle('paused', on);
    },
    setLiked(on) {
      likeButton.classList.toggle('liked', on);
      likeButton.setAttribute('aria-pressed', String(on));
      likeButton.setAttribute('aria-label', on ? 'Unlike' : 'Like');
    },
    setBuffering(on) {
      spinner.hidden = !on;
      stage.classList.toggle('buffering', on);
    },
    /** An outside catalogue's credit (Pexels asks for it): "Jane Doe on Pexels", linked. */
    setCredit(attribution) {
      credit.hidden = !attribution;
      if (!attribution) return;
      credit.textContent = attribution.author ? `${attribution.author} on ${attribution.source}` : attribution.source;
      const href = attribution.url ?? attribution.author_url;
      if (href && /^https?:\/\//.test(href)) credit.href = href;
      else credit.removeAttribute('href');
    },
    burstHeart() {
      burst.classList.remove('show');
      void burst.offsetWidth;   // restart the animation
      burst.classList.add('show');
    },
  };
}

/** Tab and Shift+Tab go round the dialog's own controls (it is the only thing on screen). */
export function trapFocus(dialog) {
  const onKey = (event) => {
    if (event.key !== 'Tab') return;
    const focusable = [...dialog.querySelectorAll('button, [href], [tabindex]:not([tabindex="-1"])')]
      .filter((element) => !element.hidden && element.offsetParent !== null && !element.disabled);
    if (focusable.length === 0) return;
    const first = focusable[0];
    const last = focusable.at(-1);
    if (event.shiftKey && (document.activeElement === first || !dialog.contains(document.activeElement))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };
  dialog.addEventListener('keydown', onKey);
  return () => dialog.removeEventListener('keydown', onKey);
}

/**
 * Focus back on `opener` (the tray's ring the player was opened from) once the player closed:
 * now, and again after the history step of `onClose` showed the screen behind (popstate).
 */
export function restoreFocus(opener) {
  if (!opener) return;
  const refocus = () => {
    // A refreshed tray drew its rings anew: the same person's ring stands in for the old one.
    const user = opener.closest?.('a.story-ring')?.dataset.user;
    const target = opener.isConnected || !user ? opener
      : [...document.querySelectorAll(`a.story-ring[data-user="${CSS.escape(user)}"]`)].find((ring) => ring.offsetParent !== null);
    if (target?.isConnected && target.offsetParent !== null) target.focus({ preventScroll: true });
  };
  refocus();
  const until = performance.now() + 1000;
  window.addEventListener('popstate', () => { if (performance.now() < until) setTimeout(refocus); }, { once: true });
}

/** "3 h", "12 min", "now": how long ago an item was posted. */
export function ago(iso, now = Date.now()) {
  const then = Date.parse(iso);
  if (!Number.isFinite(then)) return '';
  const minutes = Math.max(0, Math.round((now - then) / 60_000));
  if (minutes < 1) return 'now';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} d`;
}
