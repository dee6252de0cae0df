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
