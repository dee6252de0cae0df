// Cast decisions, pure (no DOM writes), so they are unit-tested in the browser with plain
// objects standing in for the media element.

/**
 * Which casting the browser offers for `video`: 'remote' (Remote Playback API: Chrome's
 * Cast), 'airplay' (Safari's playback target picker), or null (no cast button at all).
 */
export function castKind(video, scope = globalThis) {
  if (video?.remote && typeof video.remote.watchAvailability === 'function' && typeof video.remote.prompt === 'function') return 'remote';
  if (scope.WebKitPlaybackTargetAvailabilityEvent && typeof video?.webkitShowPlaybackTargetPicker === 'function') return 'airplay';
  return null;
}

/** The button shows only while a device is reported available (and never for a post without a master). */
export function castButtonVisible({ kind, available, item }) {
  return Boolean(kind && available && item?.media?.master);
}

/** The URL handed to the device: the signed master playlist, absolute (a device has no base URL). */
export function castUrl(item, base = globalThis.location?.href) {
  const master = item?.media?.master;
  if (!master) return null;
  return new URL(master, base).href;
}

/**
 * Whether the element must be switched to a plain `src` of the master before the prompt: a
 * MediaSource (blob: URL, or no src attribute at all) cannot be played by a remote device.
 */
export function needsPlainSource(video, url) {
  const source = video?.getAttribute?.('src') ?? video?.src ?? '';
  return source !== url;
}
