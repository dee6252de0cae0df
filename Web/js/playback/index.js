// The page's playback service (service.js) and what its clients need to take a lease.
//   const playback = createPlaybackService({ engineOptions, refreshItem });   // once, in app.js
//   const lease = playback.lease({ name: 'stories', players: 2, layer: LAYER.cover, onChange });
//   lease.players[0].load(item); lease.focus(lease.players[0]); lease.prefetch([next]); lease.release();
export { createPlaybackService, LAYER, PAGE_VIDEO_COUNT } from './service.js';
