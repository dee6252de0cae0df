// Stories in the web client (issue 15). The two entry points the rest of the app uses:
//   mountTray(root, { api, navigate, store }) → { refresh(), destroy() }   the tray (tray.js)
//   openStories(username, { api, playback, store, people, ... }) → { close() }   the player (player.js)
export { mountTray } from './tray.js';
export { openStories } from './player.js';
export { storiesApi } from './stories-api.js';
