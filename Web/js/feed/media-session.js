// Lock-screen / media-key integration: what is playing and next / previous / play / pause.
import { byline } from '../ui/format.js';

export function wireMediaSession(actions) {
  if (!('mediaSession' in navigator)) return;
  const handlers = {
    play: actions.play, pause: actions.pause, nexttrack: actions.next, previoustrack: actions.previous,
  };
  for (const [name, handler] of Object.entries(handlers)) {
    try { navigator.mediaSession.setActionHandler(name, handler); } catch { /* unsupported action */ }
  }
}

export function describeForMediaSession(item) {
  if (!('mediaSession' in navigator) || typeof MediaMetadata === 'undefined') return;
  const artwork = [item.media?.thumbnail, item.media?.poster].filter(Boolean).map((image) => ({
    src: new URL(image.url, location.href).href, sizes: `${image.width}x${image.height}`, type: 'image/jpeg',
  }));
  navigator.mediaSession.metadata = new MediaMetadata({
    title: item.description?.split('\n')[0] || item.folder_name || 'Reelhouse',
    artist: byline(item),
    album: 'Reelhouse',
    artwork,
  });
}
