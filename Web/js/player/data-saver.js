// Data saver (Profile → Preferences): every video plays its lowest rung. Read on each rung
// choice, so turning it on takes effect at the next segment, without a reload.

const DATA_SAVER_KEY = 'reelhouse.dataSaver';

export function dataSaverOn() {
  try { return localStorage.getItem(DATA_SAVER_KEY) === 'true'; } catch { return false; }
}

export function setDataSaver(on) {
  try { localStorage.setItem(DATA_SAVER_KEY, String(Boolean(on))); } catch { /* this visit only */ }
}
