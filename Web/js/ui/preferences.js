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

/**
 * What brings a first visit's first picture sooner (issue 29), each on unless the page URL turns
 * it off: `?quickstart=0` all of it (the swipe bench's "today's path"), `?quickstart=no-early`,
 * `no-parallel`, `no-posters` (comma-separated) one lever at a time (the bench's lever figures).
 * early: the first item's start fetched as the feed arrives; parallel: a first segment fetched
 * beside its init section; posters: the neighbours' images wait for the first frame.
 */
export function quickStartLevers() {
  const value = new URLSearchParams(location.search).get('quickstart') ?? '';
  const off = (lever) => value === '0' || value.split(',').includes(`no-${lever}`);
  return { early: !off('early'), parallel: !off('parallel'), posters: !off('posters') };
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

// Captions (the feed's CC button and the full player's menu share the choice, so a language
// picked in one shows in the other).
const CAPTIONS_KEY = 'reelhouse.captions';

export function rememberedCaptions() {
  try {
    const value = JSON.parse(localStorage.getItem(CAPTIONS_KEY) ?? 'null');
    return value && typeof value.language === 'string' ? { language: value.language, name: String(value.name ?? '') } : null;
  } catch { return null; }
}

/** The captions choice of the feed and the full player: { language, name }, or Off. */
export function rememberCaptions(choice) {
  try { localStorage.setItem(CAPTIONS_KEY, JSON.stringify(choice)); } catch { /* for this visit only */ }
}

/**
 * `captions` with the languages the browser asks for first (navigator.languages: an exact
 * match, then the same primary language), the rest in the order they came: the first press of
 * CC shows Portuguese to someone whose browser speaks Portuguese, not English for being first.
 */
export function inPreferredOrder(captions, languages = navigator.languages?.length ? navigator.languages : [navigator.language]) {
  const wanted = languages.map((language) => String(language).toLowerCase());
  const rank = (caption) => {
    const language = String(caption.language ?? '').toLowerCase();
    const exact = wanted.indexOf(language);
    if (exact >= 0) return exact * 2;
    const primary = wanted.findIndex((candidate) => candidate.split('-')[0] === language.split('-')[0]);
    return primary >= 0 ? primary * 2 + 1 : wanted.length * 2;
  };
  return captions.map((caption, index) => ({ caption, index, rank: rank(caption) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ caption }) => caption);
}

/** The item's caption matching `choice` (same name, else same language), or null. */
export function captionFor(item, choice) {
  const captions = item?.captions ?? [];
  if (!choice) return null;
  return captions.find((c) => c.name === choice.name) ?? captions.find((c) => c.language === choice.language) ?? null;
}
