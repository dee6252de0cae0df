// Choices remembered across visits (localStorage; a private window may refuse, then they last
// for the visit only).

const MUTED_KEY = 'reelhouse.muted';

export function rememberedMuted() {
  try { return localStorage.getItem(MUTED_KEY) !== 'false'; } catch { return true; }
}

export function rememberMuted(muted) {
  try { localStorage.setItem(MUTED_KEY, String(muted)); } catch { /* not remembered */ }
}

export function prefersReducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** `?prefetch=0` turns off every look-ahead (the swipe benchmark's baseline). */
export function prefetchEnabled() {
  return new URLSearchParams(location.search).get('prefetch') !== '0';
}

export { dataSaverOn, setDataSaver } from '../player/data-saver.js';

const AUTOPLAY_NEXT_KEY = 'reelhouse.autoplayNext';

/** Autoplay next: a video that ends moves on to the next post instead of looping (off by default). */
export function autoplayNextOn() {
  try { return localStorage.getItem(AUTOPLAY_NEXT_KEY) === 'true'; } catch { return false; }
}

export function setAutoplayNext(on) {
  try { localStorage.setItem(AUTOPLAY_NEXT_KEY, String(Boolean(on))); } catch { /* this visit only */ }
}
