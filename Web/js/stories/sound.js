// Stories start muted (autoplay needs it); the sound toggle is remembered across visits.
const SOUND_KEY = 'reelhouse.storiesSound';

export function storiesSoundOn() {
  try { return localStorage.getItem(SOUND_KEY) === 'on'; } catch { return false; }
}

export function setStoriesSound(on) {
  try { localStorage.setItem(SOUND_KEY, on ? 'on' : 'off'); } catch { /* this visit only */ }
}
