// Stories in the web client (issue 15). The two entry points the rest of the app uses:
//   mountTray(root, { api, navigate }) → { refresh(), destroy() }   the tray (tray.js)
//   openStories(username, { api, navigate, people, ... }) → { close() }   the player (player.js)
export { mountTray } from './tray.js';
export { openStories, STORIES_CHANGED } from './player.js';
export { storiesApi } from './stories-api.js';
